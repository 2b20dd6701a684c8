"""A "'s" that chat meant as "is" or "has" is read as the verb, not a possessive.

In this file's own phrasings: "my cousin's a dentist" says what the cousin is;
"my brother's van is blue" is still a possessive.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.contractions import misread_contractions
from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.brains.offline.parse.pipeline import parse_many
from tests.helpers import msg


def readings(text: str) -> list[tuple[str, str]]:
    return [(c.subject, c.value) for c in parse_candidates([msg(0, text)])]


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("my cousin's a dentist so he's always busy", "user's cousin", "dentist"),
        ("my stepdad's a retired postman", "user's stepdad", "postman"),
        ("my aunt's 71 on Sunday", "user's aunt", "71"),
    ],
)
def test_an_is_read_as_a_possessive_is_read_as_is(
    text: str, subject: str, value: str
) -> None:
    found = readings(text)
    assert any(s == subject and value in v for s, v in found), found


def test_a_has_read_as_a_possessive_is_read_as_has() -> None:
    (doc,) = parse_many(["the council's raised the parking charge to 4 pounds"])
    assert [words for _, _, words in misread_contractions(doc)] == [" has"]


@pytest.mark.parametrize(
    "text", ["My brother's van is blue.", "Priya's dog barks at everyone."]
)
def test_a_possessive_stays_a_possessive(text: str) -> None:
    (doc,) = parse_many([text])
    assert misread_contractions(doc) == []
