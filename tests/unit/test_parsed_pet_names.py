"""A name given through a pronoun goes to the animal the speaker just got.

In this file's own phrasings, none from the statement sets.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def named(text: str) -> list[tuple[str, str, str]]:
    return [
        (c.subject, c.key, c.value)
        for c in parse_candidates([msg(0, text)])
        if c.category == "identity"
    ]


@pytest.mark.parametrize(
    ("text", "animal", "name"),
    [
        (
            "we brought home a lurcher on Sunday, his name's Bramble",
            "lurcher",
            "Bramble",
        ),
        (
            "my partner bought me a tortoise and we named it Dumpling",
            "tortoise",
            "Dumpling",
        ),
        ("rescued a guinea pig yesterday, calling him Waffle", "pig", "Waffle"),
        ("we got a hamster last week, she's called Pickle", "hamster", "Pickle"),
        ("took in a stray cat and he's called Whiskers now", "cat", "Whiskers"),
    ],
)
def test_the_name_goes_to_the_animal_just_got(
    text: str, animal: str, name: str
) -> None:
    found = named(text)
    assert any(s == "user" and animal in k and v == name for s, k, v in found), found


def test_a_pronoun_after_a_person_names_no_animal() -> None:
    found = named("we visited my grandma on Sunday and named her Nana Rose")
    assert not any("grandma" in k for _, k, _ in found if "rose" in k.lower()), found


def test_a_subject_pronoun_after_a_person_names_no_animal() -> None:
    found = named("we visited my grandma and she's called Rose by everyone")
    assert not any(v == "Rose" and "grandma" not in k for _, k, v in found), found


def test_a_person_met_is_named_as_no_pet() -> None:
    found = named("I met a girl at the climbing wall, she's called Amy")
    assert not any(v == "Amy" for _, _, v in found), found
