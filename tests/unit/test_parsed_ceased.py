"""A state denied with "anymore" or "no longer" has ended.

"I don't live in Denver anymore" ends the stored home in Denver; "I'm no
longer vegetarian" says the speaker was, and is not now. Without "anymore" a
denial states nothing, and a question or a supposition ends nothing.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def test_a_state_not_held_anymore_ends_the_stored_one() -> None:
    got = parse_candidates(
        [msg(0, "I live in Tucson"), msg(1, "I don't live in Tucson anymore")]
    )
    last = got[-1]
    assert (last.key, last.ends, last.subject) == ("home_city", True, "user")


def test_a_job_not_held_any_more_ends_it() -> None:
    got = parse_candidates(
        [
            msg(0, "I work at Lidl"),
            msg(1, "my knees gave out, I don't work at Lidl any more"),
        ]
    )
    assert any(c.ends and c.key == "employer" for c in got), got


def test_no_longer_with_nothing_stored_is_kept_as_past() -> None:
    got = parse_candidates([msg(0, "I'm no longer vegan")])
    assert got and all(c.past or c.ends for c in got), got


@pytest.mark.parametrize(
    "text",
    [
        "I don't live in Tucson",
        "do you not live in Tucson anymore?",
        "if I didn't live in Tucson anymore I'd be sad",
    ],
)
def test_a_plain_denial_a_question_or_a_supposition_ends_nothing(text: str) -> None:
    got = parse_candidates([msg(0, "I live in Tucson"), msg(1, text)])
    assert not any(c.ends or c.past for c in got), got
    assert len(got) == 1
