"""Store query keywords: a misspelt filter fails instead of reading every row."""

from __future__ import annotations

import pytest

from memory_lab.stores.base import check_limit, given_filters, seq_bounds
from memory_lab.stores.memory import InMemoryFactStore, InMemoryTranscriptStore


def test_given_filters_keep_what_constrains_in_column_order():
    assert given_filters({"status": "active", "subject": "user", "key": None}) == {
        "subject": "user",
        "status": "active",
    }


def test_an_unknown_filter_is_refused_not_ignored():
    with pytest.raises(TypeError, match="topic"):
        given_filters({"topic": "x"})  # type: ignore[typeddict-unknown-key]
    with pytest.raises(TypeError, match="topic"):
        InMemoryFactStore().rows("t", topic="x")  # type: ignore[call-arg]


def test_seq_bounds_default_to_everything_and_refuse_unknown_bounds():
    assert seq_bounds({}) == (0, None)
    assert seq_bounds({"first_seq": 3, "last_seq": 5}) == (3, 5)
    with pytest.raises(TypeError, match="last"):
        InMemoryTranscriptStore().messages("t", last=4)  # type: ignore[call-arg]


def test_a_negative_limit_is_refused():
    check_limit(None)
    check_limit(0)
    with pytest.raises(ValueError, match="negative"):
        check_limit(-1)
