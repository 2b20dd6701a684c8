"""A relation noun said like a name, with no "my", is the speaker's relative."""

from __future__ import annotations

from tests.helpers import parsed as read


def test_a_bare_relation_noun_is_the_speakers_relative() -> None:
    got = read("dad's a plumber")
    assert ("user's dad", "is.plumber", "plumber") in got
    assert not any(s == "user" and v == "plumber" for s, _, v in got)


def test_a_bare_relation_subject_keeps_its_doings() -> None:
    got = read("sister just moved to Glasgow for uni")
    assert any(s == "user's sister" and v == "Glasgow" for s, _, v in got)
    assert not any(s == "user" and v == "Glasgow" for s, _, v in got)


def test_an_article_or_a_plural_is_no_one_in_particular() -> None:
    assert not any(s.startswith("user") for s, _, _ in read("a friend is a plumber"))
    assert not any(
        s.startswith("user") for s, _, _ in read("the neighbour is a dentist")
    )
