"""The gathered lines a question gets: one for each subject it names.

`facts.gathering` builds a line (pure); this reads a named subject's rows, every
status, once per change of the tenant's facts (the store's revision says when a
reread is owed, as for `FactMemory`'s own caches), and asks whether the question
is about the past only when some of those rows are no longer in force. The cache
is kept per `FactMemory`, and goes with it.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

import numpy as np

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.config import FactConfig, MemoryConfig
from memory_lab.context.tense import asks_about_past
from memory_lab.embeddings import Embedder
from memory_lab.facts.gathering import (
    Embed,
    Grouper,
    History,
    by_meaning,
    has_ended,
    line_of,
    named_subjects,
    offered_rows,
)
from memory_lab.facts.memory import FactMemory
from memory_lab.tokens import TokenCounter
from memory_lab.types import Fact

MIN_LINE_TOKENS = 10
"""Below this a line holds no two dated values: no line is offered."""

MAX_SUBJECTS = 64
"""Subjects whose rows one fact memory keeps read; the least recently asked go."""

MAX_QUESTIONS = 64
"""Questions whose offered rows one fact memory keeps; the first kept go first."""


class _Offered(NamedTuple):
    """The rows a question's line may list, and what they were worked out from."""

    history: History
    config: FactConfig
    embedder: Embedder
    rows: list[Fact]


class _SubjectRows:
    """Each asked subject's rows, with the tenant's revision they were read at.

    And, for the last questions asked, the rows each line may list: a context
    is often built under several budgets for one question (an eval's budgets,
    a summary-only context beside the full one), and only the line's length
    depends on the budget.
    """

    def __init__(self) -> None:
        # Guards `rows` and `offered`: contexts are built on several threads.
        self.lock = named_lock("gathered.subjects")
        self.rows: dict[tuple[str, str], tuple[int, History]] = {}
        self.offered: dict[tuple, _Offered] = {}
        self.meanings: dict[tuple, tuple[Embedder, np.ndarray, list[list[int]]]] = {}

    def grouper(self, embedder: Embedder) -> Grouper:
        """`gathering.by_meaning`, kept by the meanings grouped and the threshold.

        A subject's facts are grouped once while they stand, not once per
        question: the groups depend on the facts' meanings alone, and the
        question only orders them.
        """

        def group(
            meanings: Sequence[str], embed: Embed, threshold: float
        ) -> tuple[np.ndarray, list[list[int]]]:
            key = (tuple(meanings), threshold)
            with self.lock:
                kept = self.meanings.get(key)
            if kept is not None and kept[0] is embedder:
                return kept[1], kept[2]
            vectors, groups = by_meaning(meanings, embed, threshold)
            with self.lock:
                self.meanings[key] = (embedder, vectors, groups)
                while len(self.meanings) > MAX_SUBJECTS:
                    del self.meanings[next(iter(self.meanings))]
            return vectors, groups

        return group

    def offered_rows(
        self,
        history: History,
        held: list[Fact],
        key: tuple,
        query: str,
        embedder: Embedder,
        config: FactConfig,
    ) -> list[Fact]:
        """`gathering.offered_rows`, worked out once per history, question and time.

        `key` names the question, the instant and the tense the rows were held
        for; the history read (one per revision of the tenant's facts), the
        config and the embedder are checked to be the ones it was made with.
        """
        with self.lock:
            kept = self.offered.get(key)
        if (
            kept is not None
            and kept.history is history
            and kept.embedder is embedder
            and (kept.config is config or kept.config == config)
        ):
            return kept.rows
        rows = offered_rows(held, query, embedder.embed, config, self.grouper(embedder))
        with self.lock:
            self.offered[key] = _Offered(history, config, embedder, rows)
            while len(self.offered) > MAX_QUESTIONS:
                del self.offered[next(iter(self.offered))]
        return rows

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
_READS_LOCK = named_lock("gathered.reads")  # guards `_READS`


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
    reads = _reads(facts)
    for subject in subjects:
        history = reads.read(facts, tenant, subject)
        held = history.held(now, config.facts, past=True)
        held_past = True
        if has_ended(held, now):
            past = asks_about_past(query) if past is None else past
            if not past:
                held = history.held(now, config.facts, past=False)
                held_past = False
        key = (tenant, subject, query, now, held_past)
        offered = reads.offered_rows(history, held, key, query, embedder, config.facts)
        line = line_of(offered, counter, config.facts, max_tokens)
        if line is not None:
            lines.append(line)
    return lines
