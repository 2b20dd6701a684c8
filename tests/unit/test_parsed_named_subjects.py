"""Whom a clause is about when its subject is a name the speaker ties to themself.

The small model's entity types miss many first names ("Maya" read as an
organisation, "kofi" typed in lower case as a noun), so a name is a person when
the sentence says whose relative it is ("Maya, my younger cousin", "my niece
Priyanka", "my grandad Stan") or when the speaker has already named that
person. Chat's "me and X" is the speaker as much as "X and I" is.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg
from tests.helpers import parsed as read


def _of(got: set[tuple[str, str, str]], subject: str) -> set[str]:
    return {v for s, _, v in got if s == subject}


def test_a_name_with_its_relation_in_apposition_is_that_person() -> None:
    got = read("Maya, my younger cousin, works for Deloitte")
    assert "Deloitte" in _of(got, "maya"), got
    assert "Deloitte" not in _of(got, "user"), got


def test_a_relation_before_a_name_makes_the_name_a_person() -> None:
    got = read("my niece Priyanka teaches yoga in Bath")
    assert "yoga" in _of(got, "priyanka"), got


def test_a_relation_read_as_part_of_the_name_is_still_the_relation() -> None:
    got = read("my grandad Stan is 92")
    assert ("user", "grandad.stan", "Stan") in got, got
    assert ("stan", "age", "92") in got, got


def test_me_and_a_partner_is_the_speaker() -> None:
    got = read("me and my girlfriend Lena live in Hamburg")
    assert "Hamburg" in _of(got, "user"), got


def test_a_named_person_typed_in_lower_case_later_is_still_them() -> None:
    got = parse_candidates(
        [msg(0, "my brother Kofi is a chef"), msg(1, "kofi just moved to Accra")]
    )
    assert ("kofi", "Accra") in {(c.subject, c.value) for c in got}, got


@pytest.mark.parametrize(
    "text",
    [
        "Maya, can you remind me about the dentist",
        "me and my girlfriend Lena might move to Hamburg",
        "did my niece Priyanka teach yoga in Bath?",
        "Maya, my younger cousin, says she works for Deloitte",
    ],
)
def test_an_address_a_supposition_or_a_question_is_no_ones_fact(text: str) -> None:
    got = read(text)
    values = {v for _, k, v in got if ".maya" not in k and ".lena" not in k}
    assert not values & {"Deloitte", "Hamburg", "yoga", "dentist"}, got
