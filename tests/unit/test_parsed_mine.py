""" "mine" answering another speaker's relative is the speaker's own relative.

"my brother is a chef" from one friend, "mine is a plumber" from the other:
the plumber is the second friend's brother. With no relative spoken of by the
other speaker, "mine" names no one.
"""

from __future__ import annotations

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def _read(*turns: tuple[str, str]) -> set[tuple[str, str]]:
    messages = [msg(i, text, speaker=who) for i, (who, text) in enumerate(turns)]
    return {(c.subject, c.value) for c in parse_candidates(messages)}


def test_mine_is_the_speakers_own_of_the_relation_just_named() -> None:
    got = _read(
        ("Ines", "my brother is a chef"), ("Omar", "oh nice, mine is a plumber")
    )
    assert ("omar's brother", "plumber") in got, got


def test_mine_with_no_relation_spoken_of_names_no_one() -> None:
    got = _read(("Ines", "I love this song"), ("Omar", "mine is a plumber"))
    assert not any(v == "plumber" for _, v in got), got


def test_the_speakers_own_relation_is_not_answered_by_their_mine() -> None:
    got = _read(("Ines", "my brother is a chef"), ("Ines", "mine is a plumber"))
    assert not any(v == "plumber" for _, v in got), got
