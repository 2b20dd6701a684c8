"""What a person is on: a medicine or a regimen, keyed by what is taken."""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def read(text: str, speaker: str = "") -> set[tuple[str, str, str]]:
    found = parse_candidates([msg(0, text, speaker=speaker)])
    return {(c.subject, c.key, c.value) for c in found}


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        (
            "I'm on lisinopril for my blood pressure",
            "lisinopril",
            "lisinopril for my blood pressure",
        ),
        ("I'm on 75mg of venlafaxine now", "venlafaxine", "75mg of venlafaxine"),
    ],
)
def test_what_the_speaker_is_on_is_read(text: str, key: str, value: str) -> None:
    assert ("user", key, value) in read(text)


def test_what_a_relative_is_on_is_theirs() -> None:
    assert ("user's dad", "warfarin", "warfarin") in read("my dad is on warfarin")


@pytest.mark.parametrize(
    "text",
    [
        "I'm on holiday until Monday",
        "I'm on the bus",
        "I'm on my way",
        "I'm on call this weekend",
        "I'm on nights this week",
        "if I was on lithium I'd feel flat",
        "are you on propranolol?",
        "I'm not on statins",
    ],
)
def test_a_place_a_state_or_an_unasserted_clause_is_not_taken(text: str) -> None:
    assert not any(key != "age" for _, key, _ in read(text)), read(text)
