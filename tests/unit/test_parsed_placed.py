"""What the speaker is put on by someone else: the one placed is the object."""

from __future__ import annotations

from tests.helpers import parsed as read


def test_the_speaker_put_on_a_medicine_is_on_it() -> None:
    assert ("user", "metformin", "metformin") in read(
        "the GP started me on metformin in May"
    )
    assert ("user", "ramipril", "ramipril") in read(
        "my consultant put me on ramipril last week"
    )


def test_someone_else_put_on_something_is_not_the_speaker() -> None:
    got = read("the vet put him on antibiotics")
    assert not any(s == "user" and v == "antibiotics" for s, _, v in got)


def test_a_denial_a_supposition_or_an_idiom_is_nothing_taken() -> None:
    assert not read("they didn't put me on steroids")
    assert not any(v == "statins" for _, _, v in read("if they put me on statins"))
    assert not any(v == "hold" for _, _, v in read("the bank put me on hold"))
