"""Partial sorts give exactly the head of the full sort, ties included."""

import numpy as np
import pytest

from memory_lab.episodes.turn_index import (
    HEAD,
    RankedTurns,
    _episode_ranks,
    first_of_lexsort,
)
from memory_lab.types import Episode
from tests.helpers import msg


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("m", [1, 7, 50, 400])
def test_the_first_of_a_lexsort_match_the_full_sort_with_many_ties(seed, m):
    rng = np.random.default_rng(seed)
    n = 300
    primary = -np.round(rng.random(n), 1)  # about ten distinct values: many ties
    secondary = rng.integers(-3, 3, n)  # ties on both keys fall back to position
    assert list(first_of_lexsort(primary, secondary, m)) == list(
        np.lexsort((secondary, primary))[:m]
    )


def test_ranked_turns_read_past_their_head_in_the_full_order():
    rng = np.random.default_rng(1)
    n = HEAD * 3
    pool = [msg(i, f"turn {i}") for i in range(n)]
    scores = np.round(rng.random(n), 2)
    ties = rng.integers(0, 5, n)
    ranked = RankedTurns(pool, scores, ties)
    full = np.lexsort((ties, -scores))
    assert [int(m.id[1:]) for m, _ in ranked] == [int(k) for k in full]
    assert int(ranked[HEAD + 5][0].id[1:]) == int(full[HEAD + 5])
    assert [int(m.id[1:]) for m, _ in ranked[HEAD - 2 : HEAD + 2]] == list(
        full[HEAD - 2 : HEAD + 2]
    )
    assert len(ranked) == n


def _episode(first: int, last: int) -> Episode:
    return Episode.model_validate(
        {
            "id": f"ep{first}",
            "tenant": "t",
            "session": "s1",
            "thread": "main",
            "first_seq": first,
            "last_seq": last,
            "turn_ids": [f"m{i}" for i in range(first, last + 1)],
            "start": "2026-01-01T00:00:00Z",
            "end": "2026-01-01T00:00:00Z",
            "original_message_count": last - first + 1,
            "original_tokens": 10,
            "summary_tokens": 5,
            "summary": "s",
            "created_at": "2026-01-01T00:00:00Z",
            "brain": "rule",
            "trigger": "A",
        }
    )


@pytest.mark.parametrize("shuffled", [False, True])
def test_episode_ranks_by_slice_match_a_mask_over_every_item(shuffled):
    rng = np.random.default_rng(2)
    indexed = np.arange(0, 200, dtype=np.int64)
    if shuffled:  # two threads compressed out of seq order
        indexed = np.concatenate([indexed[100:], indexed[:100]])
    others = np.asarray([200, 201, 150, -1, -2, 5], dtype=np.int64)
    hits = [(_episode(int(a), int(a) + 9), 0.1) for a in rng.integers(0, 195, 12)]
    items = np.concatenate([indexed, others])
    expected = np.zeros(len(items), dtype=np.int64)
    for rank, (ep, _) in enumerate(hits, start=1):
        inside = (items >= ep.first_seq) & (items <= ep.last_seq)
        expected[inside & (expected == 0)] = rank
    assert list(_episode_ranks(hits, indexed, others)) == list(expected)
