"""The gathered lines a question gets: one for each subject it names.

`facts.gathering` builds a line (pure); this reads a named subject's rows, every
status, once per change of the tenant's facts (the store's revision says when a
reread is owed, as for `FactMemory`'s own caches), and asks whether the question
is about the past only when some of those rows are no longer in force. The cache
is kept per `FactMemory`, and goes with it.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from datetime import datetime

from memory_lab.config import MemoryConfig
from memory_lab.context.tense import asks_about_past
from memory_lab.embeddings import Embedder
from memory_lab.facts.gathering import (
    History,
    gathered_line,
    has_ended,
    named_subjects,
)
from memory_lab.facts.memory import FactMemory
from memory_lab.tokens import TokenCounter
from memory_lab.types import Fact

MIN_LINE_TOKENS = 10
"""Below this a line holds no two dated values: no line is offered."""

MAX_SUBJECTS = 64
"""Subjects whose rows one fact memory keeps read; the least recently asked go."""


class _SubjectRows:
    """Each asked subject's rows, with the tenant's revision they were read at."""

    def __init__(self) -> None:
        # Guards `rows`: contexts are built on several threads at once.
        self.lock = threading.Lock()
        self.rows: dict[tuple[str, str], tuple[int, History]] = {}

    def read(self, facts: FactMemory, tenant: str, subject: str) -> History:
        revision = facts.store.revision(tenant)
        key = (tenant, subject)
        with self.lock:
            kept = self.rows.pop(key, None)
            if kept is not None and kept[0] == revision:
                self.rows[key] = kept  # most recently asked last
                return kept[1]
        history = History(facts.store.rows(tenant, subject=subject))
        with self.lock:
            self.rows[key] = (revision, history)
            while len(self.rows) > MAX_SUBJECTS:
                del self.rows[next(iter(self.rows))]
        return history


_READS: weakref.WeakKeyDictionary[FactMemory, _SubjectRows] = (
    weakref.WeakKeyDictionary()
)
_READS_LOCK = threading.Lock()  # guards `_READS`


def _reads(facts: FactMemory) -> _SubjectRows:
    with _READS_LOCK:
        reads = _READS.get(facts)
        if reads is None:
            reads = _READS[facts] = _SubjectRows()
        return reads


def gathered_for(
    facts: FactMemory,
    embedder: Embedder,
    counter: TokenCounter,
    config: MemoryConfig,
    tenant: str,
    query: str,
    about: Sequence[Fact],
    *,
    now: datetime,
) -> list[Fact]:
    """The gathered lines for the subjects `query` names, as candidate facts.

    `about` are the facts the entity index found for the question: the subjects
    it names are among theirs, and the user when it speaks in the first person.
    """
    gather = config.facts.gather
    max_tokens = int(config.budget.total * gather.max_line_share)
    if not gather.enabled or not query.strip() or max_tokens < MIN_LINE_TOKENS:
        return []
    subjects = named_subjects(query, ["user", *(f.subject for f in about)])
    lines: list[Fact] = []
    past: bool | None = None
    for subject in subjects:
        history = _reads(facts).read(facts, tenant, subject)
        held = history.held(now, config.facts, past=True)
        if has_ended(held, now):
            past = asks_about_past(query) if past is None else past
            if not past:
                held = history.held(now, config.facts, past=False)
        line = gathered_line(
            held, query, embedder.embed, counter, config.facts, max_tokens
        )
        if line is not None:
            lines.append(line)
    return lines
