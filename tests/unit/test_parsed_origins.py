"""Where a person was born and grew up, also in chat's subjectless participles."""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


def test_born_raised_and_living_are_three_slots() -> None:
    got = read("born in Cairo, raised in Leeds, live in Dubai now")
    assert ("user", "birthplace", "Cairo") in got
    assert ("user", "hometown", "Leeds") in got
    assert ("user", "home_city", "Dubai") in got


def test_growing_up_somewhere_is_the_hometown() -> None:
    assert ("user", "hometown", "Dundee") in read("I grew up in Dundee")


def test_a_participle_clause_takes_its_head_clauses_subject() -> None:
    got = read("raised in Galway, my brother has lived in Berlin for years")
    assert ("user's brother", "hometown", "Galway") in got
    assert not any(s == "user" and v == "Galway" for s, _, v in got)


@pytest.mark.parametrize(
    "text",
    [
        "book a hotel in Madrid for me",
        "if I'd been born in Rome I'd speak Italian",
        "were you raised in Bristol?",
    ],
)
def test_a_request_a_supposition_or_a_question_is_not_an_origin(text: str) -> None:
    assert not any(s == "user" for s, _, _ in read(text)), read(text)


def test_a_common_place_keeps_the_named_place_it_is_near() -> None:
    got = read("grew up in a small village outside Dundee")
    assert ("user", "hometown", "small village outside Dundee") in got, got


def test_a_place_on_the_companion_lived_with_is_the_home() -> None:
    got = read("I live with my boyfriend in Derby")
    assert ("user", "home_city", "Derby") in got, got
