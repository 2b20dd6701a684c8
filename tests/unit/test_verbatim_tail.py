"""The verbatim tail: the newest whole turns up to a share of the context budget."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from memory_lab.config import BudgetConfig, FactConfig, MemoryConfig, RetrievalConfig
from memory_lab.context.assembly import AssemblyInput, _memory_line, assemble
from memory_lab.text import escape_data
from memory_lab.tokens import default_counter
from tests.helpers import T0, msg

COUNTER = default_counter()
CFG = FactConfig()
WRAPPER = 12  # assembly's allowance for a block's tags

TURNS = [
    msg(i, f"turn {i} " + "about the garden and the new shed " * (1 + i % 4))
    for i in range(30)
]


def _tail(total, share, cap=None, window=TURNS):
    data = AssemblyInput(
        query="hello",
        now=T0 + timedelta(days=1),
        facts=[],
        episodes=[],
        summary="",
        window=list(window),
        verbatim_share=share,
        verbatim_turns=cap,
        question_led=True,
    )
    return assemble(data, BudgetConfig().scaled(total), CFG, COUNTER).block("window")


def _cost(m):
    return COUNTER.count(escape_data(_memory_line(m))) + 1


def _expected(total, share):
    """The newest turns whose lines fit the share, counted as assembly does."""
    room, used, kept = int(total * share) - WRAPPER, 0, []
    for m in reversed(TURNS):
        if used + _cost(m) > room:
            break
        used += _cost(m)
        kept.append(m.id)
    return kept[::-1]


@pytest.mark.parametrize(("total", "share"), [(600, 0.1), (600, 0.25), (1500, 0.2)])
def test_the_newest_whole_turns_that_fit_the_share(total, share):
    block = _tail(total, share)
    assert block.items == _expected(total, share)
    lines = block.text.split("\n")[1:-1]
    by_id = {m.id: m for m in TURNS}
    assert lines == [escape_data(_memory_line(by_id[i])) for i in block.items]
    assert block.tokens <= int(total * share) == block.budget


def test_the_tail_grows_with_the_share_and_with_the_budget():
    at = {share: len(_tail(1500, share).items) for share in (0.1, 0.2, 0.3)}
    assert at[0.1] < at[0.2] < at[0.3]
    assert len(_tail(600, 0.2).items) < len(_tail(1500, 0.2).items)


def test_an_explicit_turn_count_caps_the_share():
    assert _tail(1500, 0.4, cap=2).items == [TURNS[-2].id, TURNS[-1].id]
    assert _tail(1500, 0.4, cap=0).items == []
    # The cap never lets more through than the share holds.
    assert _tail(600, 0.1, cap=50).items == _tail(600, 0.1).items


def test_room_the_tail_leaves_goes_to_the_rest_of_the_context():
    wide, narrow = _tail(1500, 0.4), _tail(1500, 0.4, cap=1)
    assert wide.budget == narrow.budget and narrow.tokens < wide.tokens


def test_a_newest_turn_too_long_for_the_share_keeps_its_end():
    long = msg(0, "start " + "word " * 400 + "the final words")
    block = _tail(600, 0.1, window=[long])
    assert block.items == [long.id]
    assert block.text.split("\n")[1].startswith("... ")
    assert "the final words" in block.text and block.tokens <= 60


def test_without_a_share_the_window_block_budget_holds():
    block = _tail(1500, None)
    assert block.budget == BudgetConfig().scaled(1500).window


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 60), min_size=1, max_size=25),
    total=st.integers(100, 2000),
    share=st.floats(0.05, 0.6),
)
def test_the_tail_is_a_suffix_of_whole_turns_within_the_share(sizes, total, share):
    window = [msg(i, "word " * n) for i, n in enumerate(sizes)]
    block = _tail(total, share, window=window)
    ids = [m.id for m in window]
    assert block.items == ids[len(ids) - len(block.items) :]
    assert block.tokens <= int(total * share)


def test_default_config_shares_the_budget_and_the_eval_uses_it():
    from memlab_evals.systems import memory_settings

    retrieval = RetrievalConfig()
    assert retrieval.verbatim_turns is None and 0 < retrieval.verbatim_share < 1
    assert memory_settings(600)["retrieval"]["verbatim_share"] == (
        retrieval.verbatim_share
    )
    assert MemoryConfig().retrieval == retrieval


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"verbatim_share": 1.5}, "verbatim_share is a share of the context budget"),
        ({"verbatim_share": 0.0}, "above 0 and below 1 \\(got 0.0\\)"),
        ({"verbatim_share": -0.2}, "verbatim_share"),
        ({"verbatim_share": float("nan")}, "verbatim_share"),
        ({"verbatim_turns": -1}, "verbatim_turns"),
    ],
)
def test_bad_tail_settings_fail_naming_the_field(kwargs, message):
    with pytest.raises(ValidationError, match=message):
        RetrievalConfig(**kwargs)
