"""The fact matcher's vector cache: bounded, and a hit never re-embeds."""

from datetime import UTC, datetime

import numpy as np

from memory_lab.facts.dedup import MeaningMatcher
from memory_lab.types import Fact, FactCandidate

AT = datetime(2025, 3, 3, tzinfo=UTC)


class CountingEmbedder:
    """Deterministic vectors; counts every text it is asked to embed."""

    name, dim = "counting", 8

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts):
        self.embedded += texts
        out = np.array(
            [np.random.default_rng(abs(hash(t)) % 2**32).normal(size=8) for t in texts]
        )
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _fact(i: int) -> Fact:
    return Fact(
        id=f"f{i}",
        tenant="t",
        subject="user",
        category="preference",
        # Letters, not digits: facts naming different numbers are never compared.
        key=f"likes.thing_{'abcdef'[i]}",
        value=f"thing {'x' * i}",
        confidence=0.8,
        importance=0.5,
        source="extracted",
        session="s",
        turn_ids=["m1"],
        evidence="e",
        valid_from=AT,
        last_confirmed_at=AT,
        created_at=AT,
    )


def _candidate() -> FactCandidate:
    return FactCandidate(category="preference", key="likes.tea", value="green tea")


def test_cache_stays_within_its_bound_and_reuses_what_it_holds():
    embedder = CountingEmbedder()
    matcher = MeaningMatcher(
        embedder, threshold=0.99, slot_threshold=0.36, max_cached=3
    )
    matcher.match(_candidate(), [_fact(1), _fact(2)])
    assert len(embedder.embedded) == 3
    matcher.match(_candidate(), [_fact(1), _fact(2)])
    assert len(embedder.embedded) == 3, "a cached text was embedded again"
    matcher.match(_candidate(), [_fact(3), _fact(4), _fact(5)])
    assert len(matcher._vectors) == 3
    # Facts 3-5 were used last, so they stayed; fact 5 is a hit, fact 1 comes back.
    before = len(embedder.embedded)
    matcher.match(_candidate(), [_fact(1), _fact(5)])
    assert sorted(embedder.embedded[before:]) == sorted(embedder.embedded[:2])
    assert len(matcher._vectors) == 3
