"""A plan or goal the speaker names: "the plan is to cycle the Danube path".

"my goal this year is to run a sub-3 marathon" and "the big aim is a place at
Juilliard" state what the speaker is working towards. A past plan ("the plan
was to ...") is told because it changed, and a dream or a wish is no plan.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


def _values(text: str) -> set[str]:
    return {v for s, _, v in read(text) if s == "user"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the plan is to cycle the whole Danube path in July", "Danube path"),
        ("my goal this year is to run a sub-3 marathon", "sub-3 marathon"),
        ("honestly the big aim is a place at Juilliard", "Juilliard"),
    ],
)
def test_a_named_plan_or_goal_is_kept(text: str, value: str) -> None:
    assert any(value in v for v in _values(text)), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "the plan was to cycle the Danube path but it fell through",
        "my dream is to cycle the Danube path",
        "is the plan to cycle the Danube path?",
        "my sister's goal is to run a sub-3 marathon",
    ],
)
def test_a_past_plan_a_dream_or_someone_elses_goal_is_not_the_speakers(
    text: str,
) -> None:
    assert not _values(text), read(text)
