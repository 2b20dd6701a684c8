"""A change someone else makes to the speaker's own value is the speaker's."""

from __future__ import annotations

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg
from tests.helpers import parsed as read


def test_a_value_of_the_speakers_moved_by_someone_else() -> None:
    assert ("user", "rent", "1,300") in read("my landlord raised my rent to 1,300")
    assert ("user", "sertraline", "100mg") in read(
        "the psychiatrist upped my sertraline to 100mg"
    )


def test_the_new_value_replaces_the_old_one() -> None:
    got = parse_candidates(
        [msg(0, "I'm on 5mg of ramipril"), msg(1, "my GP upped my ramipril to 10mg")]
    )
    assert [(c.key, c.value) for c in got if c.subject == "user"][-1] == (
        "ramipril",
        "10mg",
    )


def test_someone_elses_value_and_a_denial_stay_theirs_or_nothing() -> None:
    got = read("my sister raised her rent to 900")
    assert not any(s == "user" and v == "900" for s, _, v in got)
    assert not read("the landlord didn't raise my rent to 1,300")
