"""Active facts of one tenant, ordered once, with word and entity indexes for queries.

`FactMemory` caches one view per tenant; a query then costs time in proportion to
the facts sharing a word with it, or about someone it names, not to all active
facts.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime

import numpy as np

from memory_lab.config import FactConfig
from memory_lab.facts.ranking import core_rank, fact_order, in_core
from memory_lab.facts.reconciliation import effective_confidence
from memory_lab.text import content_words, fact_words, subject_words
from memory_lab.types import Fact

HEAD = 64
"""Matches ranked before any are checked: enough for a context's fact lines."""


class ActiveView:
    """Active facts of one tenant in their query-independent order, with a word index.

    Built once per cached read; `candidates` then costs time in proportion to the
    facts that share a word with the query, not to all active facts.
    """

    def __init__(self, rows: list[Fact], config: FactConfig) -> None:
        self.rows = rows
        self._config = config
        self._order = sorted(rows, key=lambda f: fact_order(f, config))
        self._core = [in_core(f, config) for f in self._order]
        self._first = [core_rank(f, config) == 0 for f in self._order]
        index: dict[str, list[int]] = defaultdict(list)
        self._entities: dict[str, list[int]] = defaultdict(list)
        for position, fact in enumerate(self._order):
            for word in fact_words(fact.key, fact.value):
                index[word].append(position)
            for word in subject_words(fact.subject):
                self._entities[word].append(position)
        # Postings as arrays: a common word can match tens of thousands of facts,
        # and counting and ranking them is then a few array operations.
        self._postings = {
            word: np.fromiter(positions, dtype=np.int64, count=len(positions))
            for word, positions in index.items()
        }
        self._not_first = ~np.fromiter(self._first, dtype=bool, count=len(rows))
        self._entity_postings = {
            word: np.fromiter(positions, dtype=np.int64, count=len(positions))
            for word, positions in self._entities.items()
        }
        self._users = np.fromiter(
            (f.subject == "user" for f in self._order), dtype=bool, count=len(rows)
        )

    def _usable(self, fact: Fact, now: datetime) -> bool:
        return (
            fact.is_active(now)
            and effective_confidence(fact, now, self._config)
            >= self._config.confidence_floor
        )

    def candidates(self, query: str, now: datetime, limit: int) -> list[Fact]:
        """The best `limit` matching facts, plus the head of the order to fill up.

        Positions in the query-independent `fact_order` already encode the core,
        category priority, importance, recency and id, so (instructions first,
        -overlap, position) is exactly `fact_order` with the overlap, `rank_facts`'s
        order, for matching facts; the head holds the best of the rest.
        """
        overlap, ranked = self._ranked_matches(query)
        matched: list[Fact] = []
        for position in ranked:
            if len(matched) >= limit:
                break
            if self._usable(self._order[position], now):
                matched.append(self._order[position])
        head: list[Fact] = []
        for position, fact in enumerate(self._order):
            if len(head) >= limit or (matched and not self._core[position]):
                break
            if not overlap[position] and self._usable(fact, now):
                head.append(fact)
        return matched + head

    def _ranked_matches(self, query: str) -> tuple[np.ndarray, Iterator[int]]:
        """Each fact's count of query words, and the matching positions in rank order.

        The order is (instructions first, most words shared, position), read
        lazily: the best few are partitioned out of the matches and sorted, the
        rest only when usability checks have used them up.
        """
        words = content_words(query)
        lists = [self._postings[w] for w in words if w in self._postings]
        if not lists:
            return np.zeros(len(self._order), dtype=np.int64), iter(())
        overlap = np.bincount(np.concatenate(lists), minlength=len(self._order))
        # As `rank_facts` counts them: words shared by a fact about someone else
        # count only when the question names them.
        asked = self._users.copy()
        for word in words:
            if word in self._entity_postings:
                asked[self._entity_postings[word]] = True
        overlap[~asked] = 0
        positions = np.flatnonzero(overlap)
        size = len(self._order)
        keys = (
            self._not_first[positions] * (len(lists) + 1) * size
            + (len(lists) - overlap[positions]) * size
            + positions
        )
        return overlap, _in_key_order(keys, positions)

    def about(self, query: str, now: datetime, limit: int) -> list[Fact]:
        """Facts about someone the query names, whatever their words, best first.

        "What activities does Melanie do?" shares no word with "melanie: go to =
        beach"; the entity index still gathers her facts from every session, and
        the ranking against the question decides which are shown.
        """
        lists = [self._entities[w] for w in content_words(query) if w in self._entities]
        found: list[Fact] = []
        last = -1
        # Each list is in position order, so their merge is too: read it only as
        # far as `limit` usable facts.
        for position in heapq.merge(*lists):
            if len(found) >= limit:
                break
            if position == last:
                continue
            last = position
            if self._usable(self._order[position], now):
                found.append(self._order[position])
        return found


def _in_key_order(keys: np.ndarray, positions: np.ndarray) -> Iterator[int]:
    """`positions` by ascending `keys`; the first few without sorting them all."""
    first = min(len(keys), HEAD)
    if first < len(keys):
        part = np.argpartition(keys, first - 1)
        head, rest = part[:first], part[first:]
    else:
        head, rest = np.arange(len(keys)), np.arange(0)
    for i in head[np.argsort(keys[head])]:
        yield int(positions[i])
    for i in rest[np.argsort(keys[rest])]:
        yield int(positions[i])
