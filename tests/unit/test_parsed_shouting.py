"""Turns typed in capitals are read as if typed in ordinary case."""

from __future__ import annotations

from memory_lab.brains.offline.parse.shouting import unshouted
from tests.helpers import parsed as read


def test_a_shouted_turn_is_read() -> None:
    got = read("MY SISTER LIVES IN BRIGHTON")
    assert any(s == "user's sister" and v.lower() == "brighton" for s, _, v in got), got


def test_a_shouted_run_is_lowered_and_a_lone_acronym_kept() -> None:
    assert unshouted("GOT TICKETS for Wet Leg") == "Got tickets for Wet Leg"
    assert unshouted("my son has ADHD") == "my son has ADHD"
    assert unshouted("I LOVE IT, I'm at the NHS") == "I love it, I'm at the NHS"


def test_a_shouted_denial_is_still_denied() -> None:
    assert not read("I DON'T LIVE IN BRIGHTON")
