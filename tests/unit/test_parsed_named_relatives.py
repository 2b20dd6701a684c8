"""Once a relative of whom there is one is named, what is said of them is the name's.

"My wife's called Ines." then "She's a dentist." (or "my wife is a dentist"):
both are about Ines, the subject a named third party gets. Relations a person
has many of ("my friend", "my sister") are not joined to the last name given,
since the next "my friend" may be another friend.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def _read(*turns: str) -> set[tuple[str, str]]:
    got = parse_candidates([msg(i, t) for i, t in enumerate(turns)])
    return {(c.subject, c.value) for c in got}


@pytest.mark.parametrize(
    "turns",
    [
        ("My wife's called Ines.", "She's a dentist."),
        ("my wife Ines loves opera", "my wife is a dentist"),
        ("My wife's called Ines. She's a dentist.",),
    ],
)
def test_a_named_spouse_is_the_subject_by_name(turns: tuple[str, ...]) -> None:
    got = _read(*turns)
    assert ("ines", "dentist") in got, got
    assert ("user's wife", "dentist") not in got, got


def test_a_relation_one_has_many_of_keeps_its_relation() -> None:
    got = _read("my friend Ola is a baker", "my friend is a dentist")
    assert ("user's friend", "dentist") in got, got


@pytest.mark.parametrize(
    "turns",
    [
        ("My wife's called Ines.", "is she a dentist?"),
        ("My wife's called Ines.", "my wife says she might become a dentist"),
    ],
)
def test_a_question_or_a_supposition_about_her_is_nothing(
    turns: tuple[str, ...],
) -> None:
    got = _read(*turns)
    assert not any(v == "dentist" for _, v in got), got
