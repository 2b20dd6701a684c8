"""Where a person is, said with "be in" or "based in", also when the model
takes the place's name for a person's ("I'm still in Kraków")."""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("I'm still in Kraków and it's freezing", "Kraków"),
        ("I'm based in Utrecht these days", "Utrecht"),
    ],
)
def test_being_in_a_named_place_is_living_there(text: str, place: str) -> None:
    assert ("user", "home_city", place) in read(text), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm in love with Sam",
        "I'm in Jessica's class",
        "I'm in Year 10",
        "are you in Kraków?",
    ],
)
def test_being_in_a_person_a_group_or_a_question_is_no_place(text: str) -> None:
    assert not any(k == "home_city" for _, k, _ in read(text)), read(text)
