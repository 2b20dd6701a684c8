"""Options still being weighed are not what was chosen.

"we're still deciding between a beagle and a whippet" and "I'm torn between
Leeds and York" name options, neither of which holds; "we decided on a beagle"
says what was chosen. "in the end" is a phrase of time, not a value.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


@pytest.mark.parametrize(
    "text",
    [
        "we're still deciding between a beagle and a whippet",
        "I'm torn between Leeds and York for uni",
        "I'm choosing between the Kia and the Skoda",
    ],
)
def test_options_between_are_not_facts(text: str) -> None:
    got = read(text)
    options = {"beagle", "whippet", "Leeds", "York", "Kia", "Skoda"}
    assert not options & {v for _, _, v in got}, got


def test_what_was_chosen_is_a_fact() -> None:
    assert any(v == "beagle" for _, _, v in read("we decided on a beagle"))


def test_in_the_end_is_no_value() -> None:
    got = read("went with a Skoda in the end")
    assert not any(v == "end" for _, _, v in got), got
