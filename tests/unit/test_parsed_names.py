"""A thing the speaker owns and names, in this file's own phrasings."""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def named(text: str) -> set[tuple[str, str]]:
    return {
        (c.key.split(".")[0], c.value)
        for c in parse_candidates([msg(0, text)])
        if c.subject == "user" and c.category == "identity"
    }


@pytest.mark.parametrize(
    ("text", "noun", "name"),
    [
        ("my cockatiel Pip keeps whistling the same four notes", "cockatiel", "Pip"),
        ("Our camper van Bertha broke down outside Oban again.", "van", "Bertha"),
        ("Mochi (my rabbit) chewed through the charger cable.", "rabbit", "Mochi"),
        ("our collie Fern herded the grandkids all afternoon", "collie", "Fern"),
    ],
)
def test_an_owned_thing_named_beside_it_is_the_speakers(
    text: str, noun: str, name: str
) -> None:
    assert (noun, name) in named(text)


@pytest.mark.parametrize(
    "text",
    [
        "I finally replaced my Nike trainers.",
        "My March trip got cancelled.",
        "Our neighbours' dog Rufus barks all night.",
    ],
)
def test_a_brand_a_date_or_someone_elses_thing_names_nothing_of_the_speakers(
    text: str,
) -> None:
    assert not any(v in {"Nike", "March", "Rufus"} for _, v in named(text))


def test_a_name_typed_in_lower_case_after_called_is_the_name() -> None:
    got = parse_candidates([msg(0, "my cat is called biscuit")])
    assert ("user", "cat.biscuit", "biscuit") in {
        (c.subject, c.key, c.value) for c in got
    }
