"""Roles the tagger reads as adjectives and roles said without a verb."""

from __future__ import annotations

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def read(text: str) -> set[tuple[str, str, str]]:
    return {(c.subject, c.key, c.value) for c in parse_candidates([msg(0, text)])}


def test_a_job_word_after_an_article_is_a_role() -> None:
    got = read("my uncle is a paramedic so he works nights")
    assert ("user's uncle", "is.paramedic", "paramedic") in got


def test_an_adjective_that_describes_a_noun_is_not_the_role() -> None:
    got = read("my brother is a tall guy")
    assert not any(k == "is.tall" for _, k, _ in got)


def test_a_feeling_is_no_role() -> None:
    assert not any(k.startswith("is.") for _, k, _ in read("I'm a bit tired today"))
