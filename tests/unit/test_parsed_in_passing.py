"""Facts told in passing: in a relative clause, or an "-ing" clause after
"since" or "after".

"my sister, who lives in Oslo, is visiting" tells where the sister lives;
"since moving to Hull I've ..." tells the move; "after leaving Arup I ..." tells
that the speaker left Arup. A relative clause about someone who is not the
speaker's own, a denied one, or one under a modal states nothing.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg
from tests.helpers import parsed as read


def test_a_relative_clause_tells_of_the_relative() -> None:
    got = read("my sister, who lives in Oslo, is visiting next week")
    assert ("user's sister", "home_city", "Oslo") in got, got


def test_a_relative_the_speaker_has_is_theirs() -> None:
    got = read("I've got a brother who works at Spotify")
    assert ("user's brother", "employer", "Spotify") in got, got


def test_an_ing_clause_after_since_is_told() -> None:
    got = read("since moving to Hull last spring I've joined a choir")
    assert ("user", "home_city", "Hull") in got, got


def test_an_ending_after_after_is_past() -> None:
    got = parse_candidates([msg(0, "after leaving Arup I started my own studio")])
    assert any(c.value == "Arup" and c.past for c in got), got


@pytest.mark.parametrize(
    "text",
    [
        "the guy who lives next door in Oslo is a DJ",
        "my sister, who doesn't live in Oslo, is visiting",
        "I have a friend who might move to Oslo",
        "thinking about moving to Oslo",
    ],
)
def test_a_stranger_a_denial_or_a_supposition_tells_nothing(text: str) -> None:
    assert not any(v == "Oslo" for _, _, v in read(text)), read(text)
