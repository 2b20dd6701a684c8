"""Reciprocal rank fusion: agreement wins, absence gives nothing, weights count."""

import pytest

from memory_lab.fusion import RRF_K, fuse_ranks, fused_order


def test_an_item_both_rankers_place_high_beats_one_only_first_in_one():
    order = fused_order([["a", "b", "c"], ["b", "c", "a"]])
    assert order[0] == "b"


def test_items_missing_from_a_ranking_get_nothing_from_it():
    fused = fuse_ranks([["a"], ["b", "a"]])
    assert fused["a"] == pytest.approx(1 / (RRF_K + 1) + 1 / (RRF_K + 2))
    assert fused["b"] == pytest.approx(1 / (RRF_K + 1))


def test_weights_scale_each_ranker():
    assert fused_order([["a"], ["b"]], weights=[1.0, 2.0]) == ["b", "a"]
    with pytest.raises(ValueError):
        fuse_ranks([["a"], ["b"]], weights=[1.0])


def test_empty_rankings_fuse_to_nothing():
    assert fused_order([[], []]) == []
