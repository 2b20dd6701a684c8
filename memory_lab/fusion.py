"""Reciprocal rank fusion: one ranking from several rankers that score differently.

BM25 scores and cosine similarities live on unrelated scales, so adding them needs a
normalisation that every corpus breaks differently. Ranks do not: an item's fused
score is the sum over rankers of ``weight / (k + rank)``, which rewards items that
several rankers place high (Cormack, Clarke and Buettcher, SIGIR 2009).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

RRF_K = 60
"""The damping constant of the original paper; larger flattens the top ranks."""


def fuse_ranks(
    rankings: Sequence[Sequence[K]],
    *,
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> dict[K, float]:
    """Fused score per item over best-first rankings (rank 1 is the first item).

    An item missing from a ranking gets nothing from it, so a ranker that only
    returns matches (BM25 with a zero-score cut) cannot promote non-matches.
    """
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    fused: dict[K, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return fused


def fused_order(
    rankings: Sequence[Sequence[K]],
    *,
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> list[K]:
    """Items best first by fused score; ties keep first-seen order."""
    fused = fuse_ranks(rankings, k=k, weights=weights)
    return sorted(fused, key=lambda item: -fused[item])
