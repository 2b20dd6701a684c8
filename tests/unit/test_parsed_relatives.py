"""Relatives named by their informal kinship words are relatives too."""

from __future__ import annotations

from tests.helpers import parsed as read


def test_grandparents_said_informally_are_relatives() -> None:
    got = read("my nan Edith still plays bingo every Friday")
    assert ("user", "nan.edith", "Edith") in got
    assert ("edith", "play.bingo", "bingo") in got


def test_an_unnamed_grandparents_facts_are_not_the_speakers() -> None:
    got = read("my granddad is 88")
    assert ("user's granddad", "age", "88") in got
    assert ("user", "age", "88") not in got
