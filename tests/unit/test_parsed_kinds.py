"""The speaker's kind said as "<phrase> here": "dairy intolerant here, so ..."."""

from __future__ import annotations

from tests.helpers import parsed as read


def test_a_condition_or_a_diet_here_is_the_speakers() -> None:
    assert ("user", "is.intolerant", "wheat intolerant") in read(
        "wheat intolerant here, so no pasta for me"
    )
    assert ("user", "diet", "vegetarian") in read("vegetarian here, sadly")


def test_a_doer_here_is_the_speakers_role() -> None:
    assert ("user", "is.plumber", "plumber") in read("plumber here, ask away")


def test_what_the_place_is_like_is_no_kind() -> None:
    for text in ("same here!", "snow here, so no school", "busy day here"):
        assert not any(k.startswith("is.") for _, k, _ in read(text)), text
    assert not read("coffee here please")


def test_a_question_is_no_kind() -> None:
    assert not any(k.startswith("is.") for _, k, _ in read("plumber here?"))
