"""Where a person is from or lives, said without a verb: "originally from Cork".

Chat drops "I'm" before a place as it does before a job: "still in Leeds",
"from Glasgow originally but living in London", "Boulder now". A part of the
sentence with no verb of its own, opening on "from" or "in" and a place, is
the speaker's. A visit ("in Rome for the weekend"), a question or a part
with a verb of its own is not read so.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


@pytest.mark.parametrize(
    ("text", "key", "place"),
    [
        ("originally from Limerick", "hometown", "Limerick"),
        ("from Glasgow originally but living in London", "hometown", "Glasgow"),
        ("still in Swansea, still at the bank", "home_city", "Swansea"),
        ("nope, Tucson now, since last fall", "home_city", "Tucson"),
    ],
)
def test_a_verbless_place_is_the_speakers(text: str, key: str, place: str) -> None:
    assert ("user", key, place) in read(text), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "in Rome for the weekend",
        "from Glasgow?",
        "in Swansea next week for a wedding",
        "Tucson or Phoenix?",
        "the flight from Limerick was delayed",
    ],
)
def test_a_visit_a_question_or_a_clause_is_no_home(text: str) -> None:
    got = read(text)
    assert not any(k in {"home_city", "hometown"} for _, k, _ in got), got
