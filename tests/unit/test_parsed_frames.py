"""The frames the parse reads beyond verbs and copulas, in this file's own phrasings."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_lab.brains.offline.parse.merge import merged_candidates
from memory_lab.types import Message


def read(text: str) -> set[tuple[str, str, str]]:
    message = Message(
        id="m1",
        tenant="t",
        session="s",
        role="user",
        content=text,
        timestamp=datetime(2026, 1, 5, tzinfo=UTC),
    )
    return {(c.subject, c.key, c.value) for c in merged_candidates([message])}


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("I'm 29.", "user", "29"),
        ("honestly I'm 52 years old and still learning", "user", "52"),
        ("My nephew turned four on Sunday.", "user's nephew", "four"),
    ],
)
def test_an_age_is_read_as_the_persons_age(text: str, subject: str, value: str) -> None:
    assert (subject, "age", value) in read(text)


@pytest.mark.parametrize(
    ("text", "relation", "name"),
    [
        ("My youngest daughter is called Noor.", "daughter", "Noor"),
        ("We named our puppy Pickle.", "puppy", "Pickle"),
        ("My boss's name is Greta.", "boss", "Greta"),
    ],
)
def test_a_name_given_by_a_verb_is_the_speakers_relation(
    text: str, relation: str, name: str
) -> None:
    found = read(text)
    assert any(
        s == "user" and k.startswith(f"{relation}.") and v == name for s, k, v in found
    ), found


def test_a_role_at_a_named_employer_gives_both() -> None:
    found = read("I'm a night porter at Hotel Ardent.")
    values = {v for s, _, v in found if s == "user"}
    assert any("porter" in v for v in values), found
    assert any("Ardent" in v for v in values), found


@pytest.mark.parametrize(
    "text", ["I'm really into kayaking.", "Lately I'm into ceramics."]
)
def test_being_into_something_is_a_liking(text: str) -> None:
    assert any(k.startswith("likes.") for _, k, _ in read(text)), read(text)


@pytest.mark.parametrize(
    "text",
    ["I'm exhausted.", "I'm so nervous about it.", "The bus was 20 minutes late."],
)
def test_moods_and_things_are_not_ages_or_classes(text: str) -> None:
    found = read(text)
    assert not any(k == "age" or k.startswith("is.") for _, k, _ in found), found


def test_a_diet_is_one_slot_and_a_people_a_class() -> None:
    assert ("user", "diet", "vegan") in read("I'm vegan.")
    assert any(k.startswith("is.") for _, k, _ in read("We're Basque, both of us."))


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        ("i'm a welder my wife is a midwife", "welder", "midwife"),
        ("we adopted a greyhound last spring she is a pharmacist", "greyhound", None),
        ("im 33 i work as a locksmith", "33", "locksmith"),
    ],
)
def test_a_clause_break_typed_without_punctuation_still_splits(
    text: str, first: str, second: str | None
) -> None:
    values = " | ".join(v for _, _, v in read(text))
    assert first in values, values
    if second:
        assert second in values, values


@pytest.mark.parametrize(
    "text",
    [
        "if the transfer goes through we might relocate to Turin",
        "maybe one day I'll learn Icelandic, who knows",
    ],
)
def test_a_conditional_or_a_wish_is_not_cut_into_a_statement(text: str) -> None:
    values = " | ".join(v for _, _, v in read(text))
    assert "Turin" not in values and "Icelandic" not in values, values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("we nearly bought a flat in Whitby", "Whitby"),
        ("I almost signed with Orbis", "Orbis"),
        ("apparently my landlord is a drummer", "drummer"),
        ("I'd really love to see Tasmania someday", "Tasmania"),
        ("I was going to enrol at Kingsmead but didn't", "Kingsmead"),
        ("my partner wants to move to Crete", "Crete"),
        ("we hope to settle in Lyon eventually", "Lyon"),
    ],
)
def test_what_did_not_happen_or_is_only_wanted_is_not_stored(
    text: str, value: str
) -> None:
    values = " | ".join(v for _, _, v in read(text))
    assert value not in values, values
