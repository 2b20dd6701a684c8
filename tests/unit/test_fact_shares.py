"""Each header's share of the facts block: a crowded category yields room."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from memory_lab.config import AssemblyConfig, FactConfig, FactGroup
from memory_lab.context.fact_groups import FactRow, choose, header_cost
from memory_lab.text import escape_data
from memory_lab.tokens import default_counter

COUNTER = default_counter()
SCAN = AssemblyConfig(min_line_tokens=1)


def _rows(header: str, n: int) -> list[FactRow]:
    return [
        FactRow(
            f"- {header.lower()} fact number {i} (since 2025-03-03)",
            f"{header}{i}",
            header,
        )
        for i in range(n)
    ]


def _cost(rows: list[FactRow]) -> int:
    """Tokens the rows take in the block, each header paid once."""
    lines = sum(COUNTER.count(escape_data(r.line)) + 1 for r in rows)
    return lines + sum(header_cost(h, COUNTER) for h in {r.header for r in rows})


def test_a_category_over_its_share_yields_room_to_the_others() -> None:
    # Twelve preferences rank above the one open item and would fill the block.
    rows = _rows("Preferences", 12) + _rows("Open items", 1)
    budget = _cost(rows[:6])
    assert choose(rows, budget, COUNTER, SCAN) == list(range(6))
    shares = {"Preferences": 0.7, "Open items": 0.3}
    chosen = choose(rows, budget, COUNTER, SCAN, shares)
    assert 12 in chosen  # the open item is shown
    assert _cost([rows[i] for i in chosen]) <= budget
    # Preferences fill the room the open item left, beyond their own share.
    assert len(chosen) - 1 > int(0.7 * budget) // _cost(rows[:1])


def test_room_a_category_does_not_use_goes_to_the_others() -> None:
    rows = _rows("Preferences", 12)
    budget = _cost(rows[:6])
    shares = {"Preferences": 0.3, "Open items": 0.7}
    # No open items: the preferences take the whole block, not 30% of it.
    assert choose(rows, budget, COUNTER, SCAN, shares) == list(range(6))


def test_within_a_share_rank_order_holds() -> None:
    rows = _rows("Knowledge", 3) + _rows("Preferences", 3) + _rows("Knowledge", 3)
    budget = _cost(rows[:5])
    chosen = choose(rows, budget, COUNTER, SCAN, {"Knowledge": 0.5, "Preferences": 0.5})
    knowledge = [i for i in chosen if rows[i].header == "Knowledge"]
    assert knowledge == sorted(knowledge) and knowledge[0] == 0


@settings(max_examples=80, deadline=None)
@given(
    budget=st.integers(0, 200),
    counts=st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(0, 8)),
    shares=st.tuples(
        st.floats(0.05, 0.5), st.floats(0.05, 0.5), st.floats(0.0, 0.0) | st.none()
    ),
)
def test_the_block_never_exceeds_its_budget(budget, counts, shares) -> None:
    headers = ("Preferences", "Knowledge", "Open items")
    rows = [row for h, n in zip(headers, counts, strict=True) for row in _rows(h, n)]
    given_shares = {h: s for h, s in zip(headers, shares, strict=True) if s}
    chosen = choose(rows, budget, COUNTER, SCAN, given_shares)
    assert chosen == sorted(set(chosen))
    assert _cost([rows[i] for i in chosen]) <= budget
    # Nothing that would still fit was left out.
    if chosen and len(chosen) < len(rows):
        left = [r for i, r in enumerate(rows) if i not in chosen]
        assert (
            all(_cost([rows[i] for i in chosen] + [r]) > budget for r in left)
            or budget - _cost([rows[i] for i in chosen]) < SCAN.min_line_tokens
        )


def test_default_shares_follow_the_design_and_fit_the_block() -> None:
    shares = FactConfig().shares()
    assert set(shares) == {"Preferences", "Decisions", "Knowledge", "Open items"}
    assert sum(shares.values()) <= 1.0


def test_shares_over_the_whole_block_fail_naming_the_field() -> None:
    groups = (
        FactGroup(header="Preferences", categories=("preference",), share=0.7),
        FactGroup(header="Knowledge", categories=("knowledge",), share=0.5),
    )
    with pytest.raises(ValidationError, match="groups: the headers' shares add up"):
        FactConfig(groups=groups)
    with pytest.raises(ValidationError, match="share"):
        FactGroup(header="Preferences", categories=("preference",), share=0)
