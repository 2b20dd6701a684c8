"""Relatives named by their informal kinship words are relatives too."""

from __future__ import annotations

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def read(text: str) -> set[tuple[str, str, str]]:
    return {(c.subject, c.key, c.value) for c in parse_candidates([msg(0, text)])}


def test_grandparents_said_informally_are_relatives() -> None:
    got = read("my nan Edith still plays bingo every Friday")
    assert ("user", "nan.edith", "Edith") in got
    assert ("edith", "play.bingo", "bingo") in got


def test_an_unnamed_grandparents_facts_are_not_the_speakers() -> None:
    got = read("my granddad is 88")
    assert ("user's granddad", "age", "88") in got
    assert ("user", "age", "88") not in got
