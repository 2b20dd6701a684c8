"""An event the speaker has on a date is kept with its date in one value.

In this file's own phrasings, none from the statement sets.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def readings(text: str) -> list[tuple[str, str, str]]:
    return [(c.subject, c.key, c.value) for c in parse_candidates([msg(0, text)])]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("I've got the optician on Monday at 11:15", ("optician", "Monday")),
        ("we have a viewing for the flat on Saturday morning", ("viewing", "Saturday")),
        ("my smear test is booked for the 2nd of July", ("test", "July")),
        ("sports day at the twins' school is next Friday", ("sports day", "Friday")),
        ("we're going to Nadia's christening on 6 April", ("christening", "April")),
        ("I'm flying to Tbilisi on the 19th", ("Tbilisi", "19th")),
    ],
)
def test_the_event_and_its_date_are_one_value(
    text: str, words: tuple[str, str]
) -> None:
    found = readings(text)
    assert any(
        s == "user" and all(w.lower() in v.lower() for w in words) for s, _, v in found
    ), found


@pytest.mark.parametrize(
    "text",
    [
        "if I pass the interview in May I'll celebrate",
        "I don't have the physio on Tuesday any more",
        "my brother's gig is on Friday",
        "I went to the gym today",
    ],
)
def test_an_event_supposed_denied_or_someone_elses_is_not_read(text: str) -> None:
    dated = [
        v
        for s, _, v in readings(text)
        if s == "user" and any(d in v for d in ("May", "Tuesday", "Friday", "today"))
    ]
    assert dated == [], readings(text)


def test_the_parts_of_an_event_are_not_kept_beside_it() -> None:
    found = readings("I have a call with the bank on Thursday at 2pm")
    values = [v for s, _, v in found if s == "user"]
    assert any("call with the bank on Thursday" in v for v in values), found
    assert "call" not in values and "bank" not in values, found
