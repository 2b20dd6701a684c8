"""A parting said with the partner beside the speaker ends the tie to them."""

from __future__ import annotations

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def test_partner_and_i_broke_up_ends_the_partner() -> None:
    got = parse_candidates(
        [
            msg(0, "my girlfriend's called Mia, we've been together a year"),
            msg(1, "Mia and I broke up last week."),
        ]
    )
    last = got[-1]
    assert (last.key, last.ends) == ("girlfriend.mia", True)
    assert "Mia" in last.value


def test_leaving_together_ends_no_one() -> None:
    got = parse_candidates(
        [msg(0, "my sister Ana is a vet"), msg(1, "Ana and I left early")]
    )
    assert not any(c.ends for c in got)
