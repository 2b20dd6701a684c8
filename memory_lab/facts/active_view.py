"""Active facts of one tenant, ordered once, with word and entity indexes for queries.

`FactMemory` caches one view per tenant; a query then costs time in proportion to
the facts sharing a word with it, or about someone it names, not to all active
facts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime

from memory_lab.config import FactConfig
from memory_lab.facts.ranking import core_rank, fact_order, in_core
from memory_lab.facts.reconciliation import effective_confidence
from memory_lab.text import content_words, fact_words, subject_words
from memory_lab.types import Fact


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
        self._index: dict[str, list[int]] = defaultdict(list)
        self._entities: dict[str, list[int]] = defaultdict(list)
        for position, fact in enumerate(self._order):
            for word in fact_words(fact.key, fact.value):
                self._index[word].append(position)
            for word in subject_words(fact.subject):
                self._entities[word].append(position)

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
        overlap: Counter[int] = Counter()
        for word in content_words(query):
            overlap.update(self._index.get(word, ()))
        ranked = sorted(overlap, key=lambda p: (not self._first[p], -overlap[p], p))
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
            if position not in overlap and self._usable(fact, now):
                head.append(fact)
        return matched + head

    def about(self, query: str, now: datetime, limit: int) -> list[Fact]:
        """Facts about someone the query names, whatever their words, best first.

        "What activities does Melanie do?" shares no word with "melanie: go to =
        beach"; the entity index still gathers her facts from every session, and
        the ranking against the question decides which are shown.
        """
        positions = sorted(
            {p for word in content_words(query) for p in self._entities.get(word, ())}
        )
        found: list[Fact] = []
        for position in positions:
            if len(found) >= limit:
                break
            if self._usable(self._order[position], now):
                found.append(self._order[position])
        return found
