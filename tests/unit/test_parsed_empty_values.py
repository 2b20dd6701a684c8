"""Clause readings whose value names nothing are not facts; the thing beside them is."""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def values(text: str) -> set[tuple[str, str]]:
    return {(c.subject, c.value) for c in parse_candidates([msg(0, text)])}


@pytest.mark.parametrize(
    ("text", "empty", "kept"),
    [
        ("we live about forty minutes outside Lyon", "minutes", "Lyon"),
        ("I've done 6 years at the Tate Modern", "years", "Tate Modern"),
        ("I'm up to 8 kilometres on my morning runs", "8 kilometres", None),
        ("I've been crocheting loads lately", "loads", None),
        ("I spent my entire childhood in Accra", "entire childhood", "Accra"),
    ],
)
def test_a_time_or_a_measure_alone_is_not_a_value(
    text: str, empty: str, kept: str | None
) -> None:
    got = values(text)
    assert ("user", empty) not in got
    if kept is not None:
        assert ("user", kept) in got


def test_a_measured_thing_stays_a_value() -> None:
    assert ("user", "nursing degree") in values("I finished my nursing degree")


@pytest.mark.parametrize(
    ("text", "empty"),
    [
        ("I finally cleared my overdraft", "overdraft"),
        ("I handed in my resignation letter", None),
        ("we renewed our mortgage", "mortgage"),
    ],
)
def test_a_bare_noun_the_context_holds_names_nothing(
    text: str, empty: str | None
) -> None:
    got = {v for _, v in values(text)}
    if empty is not None:
        assert empty not in got
    else:
        assert "resignation letter" in got


def test_an_object_that_says_which_one_is_kept() -> None:
    assert ("user", "Gibson Les Paul") in values("I bought a Gibson Les Paul")
    assert ("user", "cello") in values("I play cello in an orchestra")
    assert ("user", "harp") in values("I've been learning the harp")


@pytest.mark.parametrize(
    "text",
    ["my sister just landed a job at the BBC", "I paint for a living"],
)
def test_a_job_or_a_living_alone_is_not_a_value(text: str) -> None:
    got = {v for _, v in values(text)}
    assert "job" not in got
    assert "living" not in got


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("we left Chile when I was nine", "nine"),
        ("I've loved horses since I was 6", "6"),
        ("I've been a Spurs fan since I was a boy", "boy"),
    ],
)
def test_a_past_state_that_dates_another_clause_is_not_a_fact(
    text: str, wrong: str
) -> None:
    assert wrong not in {v for _, v in values(text)}


def test_a_present_state_in_a_time_clause_is_still_read() -> None:
    got = {(c.key, c.value) for c in parse_candidates([msg(0, "I'm 41 now")])}
    assert ("age", "41") in got


def test_a_rating_is_not_an_age() -> None:
    got = {(c.key, c.value) for c in parse_candidates([msg(0, "I'm 1850 on FIDE")])}
    assert ("age", "1850") not in got


def test_the_only_one_is_no_age() -> None:
    got = parse_candidates([msg(0, "I feel like I'm the only one not married")])
    assert not any(c.key == "age" for c in got), got
