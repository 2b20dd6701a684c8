"""Roles the tagger reads as adjectives and roles said without a verb."""

from __future__ import annotations

from tests.helpers import parsed as read


def test_a_job_word_after_an_article_is_a_role() -> None:
    got = read("my uncle is a paramedic so he works nights")
    assert ("user's uncle", "is.paramedic", "paramedic") in got


def test_an_adjective_that_describes_a_noun_is_not_the_role() -> None:
    got = read("my brother is a tall guy")
    assert not any(k == "is.tall" for _, k, _ in got)


def test_a_feeling_is_no_role() -> None:
    assert not any(k.startswith("is.") for _, k, _ in read("I'm a bit tired today"))


def test_a_role_at_an_organisation_said_without_a_verb() -> None:
    got = read("got it!! junior auditor at KPMG from June")
    assert ("user", "is.auditor", "junior auditor") in got
    assert ("user", "employer", "KPMG") in got


def test_a_title_with_its_field_after_a_dash() -> None:
    got = read("I moved teams in May — now director of sales at Orbis Labs")
    assert ("user", "is.director", "director of sales") in got


def test_a_meal_or_an_owned_role_is_not_the_speakers_job() -> None:
    assert not any(k == "employer" for _, k, _ in read("dinner at Nandos tonight"))
    assert not any(k == "employer" for _, k, _ in read("late supper at Dishoom"))
    assert not any(k == "employer" for _, k, _ in read("my cousin, a teacher at Eton"))


def test_a_question_is_no_role() -> None:
    assert not any(k == "employer" for _, k, _ in read("senior designer at Figma?"))
