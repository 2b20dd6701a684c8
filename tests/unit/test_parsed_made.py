"""What a fact makes the speaker: "so that makes me a homeowner"."""

from __future__ import annotations

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg
from tests.helpers import parsed as read


def test_what_makes_the_speaker_something_is_theirs() -> None:
    assert ("user", "is.landlord", "landlord") in read(
        "bought a flat, which makes me a landlord"
    )


def test_a_new_diet_made_so_replaces_the_old_one() -> None:
    got = parse_candidates(
        [msg(0, "I'm vegetarian"), msg(1, "that makes me a vegan now, no more cheese")]
    )
    assert [(c.key, c.value) for c in got if c.key == "diet"][-1] == ("diet", "vegan")


def test_a_denial_a_question_or_someone_else_is_nothing() -> None:
    assert not read("that doesn't make me a bad person")
    assert not read("does that make me a hipster?")
    assert not any(k == "is.grandad" for _, k, _ in read("that makes him a grandad"))
