"""Chat leaves out its "I"; the parse writes it back where the speaker is meant.

In this file's own phrasings: a line that opens with a past-tense verb taking
an object or a complement is the speaker's own statement, also when the parse
hangs it under a later word ("joined a club, so excited"); a line that says how
something went ("went fine", "looked lovely") has a dropped "it" and stays
unread. And a number inside a role ("a grade 4 carer") keeps the role whole.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.dropped_subjects import dropped_subjects
from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.brains.offline.parse.pipeline import parse_many
from tests.helpers import msg


def values(text: str) -> list[str]:
    return [c.value for c in parse_candidates([msg(0, text)]) if c.subject == "user"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("joined a running club in Didsbury, so excited", "running club"),
        ("passed my driving test, so relieved", "driving test"),
        ("flew out to Reykjavik on monday, still jetlagged", "Reykjavik"),
    ],
)
def test_a_line_without_its_i_is_the_speakers(text: str, value: str) -> None:
    found = values(text)
    assert any(value.lower() in v.lower() for v in found), found


@pytest.mark.parametrize(
    "text",
    ["Went fine in the end, thanks.", "Looked lovely!", "Seemed quiet today."],
)
def test_how_something_went_writes_in_no_subject(text: str) -> None:
    (doc,) = parse_many([text])
    assert dropped_subjects(doc) == []


def test_a_line_with_its_subject_is_left_as_it_is() -> None:
    (doc,) = parse_many(["My brother flew out to Oslo on Monday."])
    assert dropped_subjects(doc) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm a grade 4 carer at a home in Luton.", "grade 4 carer"),
        ("i'm a level 2 apprentice, first year", "level 2 apprentice"),
    ],
)
def test_a_number_inside_a_role_keeps_the_role_whole(text: str, value: str) -> None:
    assert any(v.startswith(value) for v in values(text)), values(text)
