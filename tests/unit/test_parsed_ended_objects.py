"""What an ending verb ends is stored as past, even when nothing stored held it.

"sold my Vespa" says the speaker had a Vespa and has it no more: with no known
fact to close, the object is kept as a fact that held until now, not as a
current one.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def _read(text: str) -> dict[str, tuple[str, bool]]:
    """value -> (subject, past) for the candidates of one turn."""
    return {c.value: (c.subject, c.past) for c in parse_candidates([msg(0, text)])}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("sold my Vespa in the spring", "Vespa"),
        ("I quit the rowing club last month", "rowing club"),
        ("we've cancelled our Netflix subscription", "Netflix subscription"),
        ("finally left Brightwave Media after six years", "Brightwave Media"),
    ],
)
def test_an_ended_object_is_past(text: str, value: str) -> None:
    got = _read(text)
    assert got.get(value) == ("user", True), got


def test_someone_elses_ending_is_theirs() -> None:
    got = _read("my brother Omar sold his van")
    assert got.get("van") == ("omar", True), got


@pytest.mark.parametrize(
    "text",
    [
        "I'm selling my Vespa next month",
        "I might quit the rowing club",
        "did you sell the Vespa?",
        "I didn't sell the Vespa in the end",
        "if I sold the Vespa I could afford it",
    ],
)
def test_a_plan_a_doubt_or_a_denial_ends_nothing(text: str) -> None:
    got = parse_candidates([msg(0, text)])
    assert not any(c.past for c in got), [(c.key, c.value) for c in got]


def test_an_ending_of_a_known_fact_still_closes_it() -> None:
    got = parse_candidates(
        [msg(0, "I sing with the Hollow Oak Choir"), msg(1, "I quit the choir in May")]
    )
    assert got[-1].ends and not got[-1].past
