"""The word and entity indexes return what ranking every active fact would."""

import random
from datetime import timedelta

from memory_lab import ManualClock
from memory_lab.config import FactConfig
from memory_lab.context.assembly import rank_facts
from memory_lab.facts.active_view import HEAD
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from tests.helpers import T0, cand


def _memory(rows: int, usable_share: float) -> tuple[FactMemory, ManualClock]:
    """`rows` facts that all mention tea, most below the confidence floor."""
    rng = random.Random(3)
    clock = ManualClock(T0)
    facts = FactMemory(InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig())
    for i in range(rows):
        clock.advance(timedelta(minutes=5))
        confidence = 0.9 if rng.random() < usable_share else 0.1
        facts.write(
            "t",
            cand(
                f"drink{i}",
                f"green tea number {i}",
                confidence=confidence,
                turn=f"m{i}",
                subject="maja" if i % 3 else "user",
            ),
        )
    return facts, clock


def test_candidates_past_the_first_ranked_matches_rank_like_every_fact():
    """Most matches are unusable, so the best usable ones lie past the head.

    A third of the tea facts are the user's; the rest are about Maja, whom the
    question does not name, so they must not take the user's places.
    """
    facts, clock = _memory(6 * HEAD, usable_share=0.04)
    now, limit = clock.now(), 12
    usable = [f for f in facts.active("t") if f.confidence >= 0.35]
    assert limit <= len(usable) and len(usable) < HEAD
    full = rank_facts(facts.active("t", now=now), "tea", now, FactConfig())[:limit]
    fast = rank_facts(
        facts.candidates("t", "tea", now=now, limit=limit), "tea", now, FactConfig()
    )
    assert [f.id for f in fast[:limit]] == [f.id for f in full]


def test_facts_about_someone_come_in_order_once_each():
    facts, clock = _memory(4 * HEAD, usable_share=0.1)
    now = clock.now()
    found = facts.about("t", "what does Maja drink?", now=now, limit=8)
    expected = [
        f
        for f in facts._view("t")._order  # the view's query-independent order
        if f.subject == "maja" and f.confidence >= 0.35
    ][:8]
    assert [f.id for f in found] == [f.id for f in expected]
    assert len({f.id for f in found}) == len(found) == 8
