"""An amount said again under other words updates its slot; other amounts stand.

Phrasings are this file's own. Each case is a chat in days; after it, the
active facts of the user that name the amounts are read back.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory_lab import Memory

START = datetime(2026, 2, 2, 9, tzinfo=UTC)


def active_values(*turns: str) -> list[str]:
    """The values of the user's active facts after one turn a day."""
    with Memory.open(":memory:") as memory:
        for day, text in enumerate(turns):
            stamp = (START + timedelta(days=day)).isoformat()
            memory.add("t", [{"role": "user", "content": text, "timestamp": stamp}])
            memory.flush()
        return [f.value for f in memory.facts("t") if f.subject == "user"]


def holding(values: list[str], number: str) -> list[str]:
    return [v for v in values if number in v]


def test_a_cap_restated_as_a_budget_updates_the_one_slot() -> None:
    values = active_values(
        "I can't spend more than $80 a week on takeaways.",
        "My budget got smaller, it's $50 a week max now.",
    )
    assert holding(values, "50"), values
    assert not holding(values, "80"), values


@pytest.mark.parametrize(
    "turns",
    [
        ("My salary is 3,200 euros a month.", "Our rent is 1,100 euros a month."),
        ("My rent is 950 pounds a month.", "My budget is 400 pounds a month."),
        (
            "My budget for rent is $1,200.",
            "My budget for food is $300.",
        ),
    ],
)
def test_amounts_of_different_things_both_stand(turns: tuple[str, str]) -> None:
    values = active_values(*turns)
    numbers = ["3,200", "1,100", "950", "400", "1,200", "300"]
    said = [n for n in numbers if any(n in t for t in turns)]
    assert all(holding(values, n) for n in said), values


def test_an_amount_said_in_other_units_is_another_amount() -> None:
    values = active_values(
        "My commute is 40 minutes each way.",
        "My monthly phone bill is 35 euros now.",
    )
    assert holding(values, "40") and holding(values, "35"), values


def test_a_shift_in_taste_replaces_the_like_of_its_kind_only() -> None:
    values = active_values(
        "I love bossa nova.",
        "I adore dim sum.",
        "These days I'm more into techno.",
    )
    assert "techno" in " ".join(values), values
    assert not any("bossa" in v for v in values), values
    assert any("dim sum" in v for v in values), values
