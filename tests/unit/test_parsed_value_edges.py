"""A value ends on what it names, not on an adverb of direction after it.

"my aunt is a GP up in Orkney" gives "GP", not "GP up".
"""

from __future__ import annotations

from tests.helpers import parsed as read


def test_a_trailing_direction_is_trimmed() -> None:
    got = read("Hanna, my aunt, is a GP up in Orkney and loves it")
    assert ("hanna", "is.gp", "GP") in got, got


def test_a_direction_before_a_place_is_trimmed_too() -> None:
    got = read("my brother Sami is a diver out in Malta, he loves his job abroad")
    assert ("sami", "is.diver", "diver") in got, got
