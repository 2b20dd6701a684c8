"""A state said in the simple past held then, not now.

"I lived in Valencia for six years" and "I worked at Arup for a decade" say
where the speaker lived and worked before: kept as past, they never stand as
the current home or employer. A perfect ("I've lived in Valencia for six
years") still holds, and a change of place said in the past ("we moved to
Derby in 2020") is the place now.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def _read(text: str) -> dict[str, tuple[str, bool]]:
    """value -> (subject, past) for the candidates of one turn."""
    return {c.value: (c.subject, c.past) for c in parse_candidates([msg(0, text)])}


@pytest.mark.parametrize(
    ("text", "value", "subject"),
    [
        ("I lived in Valencia for six years", "Valencia", "user"),
        ("when I lived in Valencia I picked up some Spanish", "Valencia", "user"),
        ("I worked at Arup for a decade before going freelance", "Arup", "user"),
        ("I was a paramedic for twelve years", "paramedic", "user"),
        ("my dad was a postman", "postman", "user's dad"),
    ],
)
def test_a_simple_past_state_is_past(text: str, value: str, subject: str) -> None:
    assert _read(text).get(value) == (subject, True), _read(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I've lived in Valencia for six years", "Valencia"),
        ("been in Valencia six years now", "Valencia"),
        ("we moved to Derby in 2020", "Derby"),
        ("I work at Arup", "Arup"),
        ("I'm a paramedic", "paramedic"),
        ("I'm in Kraków this week", "Kraków"),
    ],
)
def test_a_present_perfect_or_a_move_still_holds(text: str, value: str) -> None:
    assert _read(text).get(value) == ("user", False), _read(text)
