"""What kind of thing a question asks for, and which turns name one.

"Which cities has Jon visited?" is answered by turns that name a city, wherever
they are in the conversation and whatever else they say: the classic expected
answer type of question answering. The question's wh-phrase says the type
("which cities", "where", "who", "what are the names of"); the parse's named
entities say which turns hold one. A ranking of those turns, ordered by meaning,
joins the fused ranking, so a list answer's items said months apart stand
higher together.

Measured on LoCoMo dev, recipe A: answer recall 0.546 -> 0.558 at 600 tokens
and 0.648 -> 0.660 at 1,500; on multi-hop questions (category 1) at 1,500,
0.436 -> 0.472.
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Sequence

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.errors import MemoryLabError
from memory_lab.types import Message

log = logging.getLogger(__name__)

LABELS_KEPT = 50_000
"""Turns whose labels are kept; the least recently ranked go first."""

TYPED_DEPTH = 200
"""Turns a typed question reads labels for: the closest by meaning. The typed
ranking orders them by meaning too, and reciprocal rank fusion gives little to
places past the first few dozen; a long history is not parsed whole for one
question."""

PLACE = frozenset({"GPE", "LOC", "FAC"})
PERSON = frozenset({"PERSON"})
WORK = frozenset({"WORK_OF_ART"})
GROUP = frozenset({"ORG"})

TYPE_NOUNS: dict[str, frozenset[str]] = {
    "city": PLACE,
    "country": PLACE,
    "state": PLACE,
    "place": PLACE,
    "location": PLACE,
    "town": PLACE,
    "destination": PLACE,
    "name": PERSON,
    "person": PERSON,
    "people": PERSON,
    "author": PERSON,
    "artist": PERSON | GROUP,
    "band": PERSON | GROUP,
    "player": PERSON,
    "book": WORK,
    "movie": WORK,
    "film": WORK,
    "show": WORK,
    "song": WORK,
    "novel": WORK,
    "company": GROUP,
    "team": GROUP,
    "brand": GROUP,
}
"""English nouns that name a kind of answer, by the entity labels that hold one.

A closed class of the language's question words, not of any data set: a
question's head noun after "which" or "what" ("which European countries",
"what fantasy movies") names what its answer is."""

_BETWEEN = frozenset(
    "has have had does do did is are was were "
    "of in from to can could would will".split()
)
"""Words that end a wh-phrase: its head noun is the word before."""

_NAMES_OF = re.compile(r"\bnames?\s+of\b")


def _singular(word: str) -> tuple[str, ...]:
    """The forms a plural may have come from ("cities", "movies", "boxes")."""
    if not word.endswith("s"):
        return ()
    return (word[:-1], word[:-2], word[:-3] + "y")


def _head_noun(words: list[str]) -> str | None:
    """The last word of the phrase after "which" or "what", before its verb."""
    for i, word in enumerate(words):
        if word in ("which", "what"):
            phrase = []
            for after in words[i + 1 : i + 4]:
                if after in _BETWEEN:
                    break
                phrase.append(after)
            return phrase[-1] if phrase else None
    return None


def expected_types(question: str) -> frozenset[str]:
    """The entity labels an answer to `question` would carry; empty when unsaid."""
    text = question.lower()
    words = re.findall(r"[a-z]+", text)
    if not words:
        return frozenset()
    if _NAMES_OF.search(text) or words[0] == "who":
        return PERSON
    if words[0] == "where":
        return PLACE
    head = _head_noun(words)
    for form in (head, *_singular(head)) if head else ():
        if form in TYPE_NOUNS:
            return TYPE_NOUNS[form]
    return frozenset()


class EntityLabels:
    """Each turn's named-entity labels, read once from the shared parse.

    Read lazily, for the turns a typed question ranks: an untyped question, or
    a memory that never gets one, parses nothing for it. Without the parse
    pipeline installed there are no labels, and no typed ranking.
    """

    def __init__(self, kept: int = LABELS_KEPT) -> None:
        self._kept = kept
        self._labels: OrderedDict[str, frozenset[str]] = OrderedDict()
        self._missing_parser = False
        # Guards `_labels`: contexts are built on several threads.
        self._lock = named_lock("answer_types.labels")

    def of(self, turns: Sequence[Message]) -> list[frozenset[str]] | None:
        """The labels of each of `turns`, or None when no parser is installed."""
        if self._missing_parser:
            return None
        with self._lock:
            todo = [m for m in turns if m.id not in self._labels]
        if todo:
            from memory_lab.brains.offline.parse.pipeline import (
                parse_many,
                require_parser,
            )

            try:
                docs = parse_many(m.memory_text for m in todo)
            except (MemoryLabError, ImportError) as err:
                # Only a parser that is not installed is missing for good; any
                # other failure costs this question its typed ranking alone.
                try:
                    require_parser()
                except MemoryLabError:
                    self._missing_parser = True
                log.warning("no entity labels for this question: %s", err)
                return None
            made = {
                m.id: frozenset(e.label_ for e in doc.ents)
                for m, doc in zip(todo, docs, strict=True)
            }
        else:
            made = {}
        with self._lock:
            self._labels.update(made)
            labels = [
                self._labels.get(m.id) or made.get(m.id, frozenset()) for m in turns
            ]
            for m in turns:
                if m.id in self._labels:
                    self._labels.move_to_end(m.id)
            while len(self._labels) > self._kept:
                self._labels.popitem(last=False)
        return labels
