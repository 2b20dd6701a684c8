"""Events add to the record; states hold one value; a person who went moved nothing.

In this file's own phrasings: what happened once ("we drove to the coast") is
kept beside what happened before, however alike, while a stated change of a
state or a thing's value still replaces the old one.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.clock import ManualClock
from memory_lab.config import MemoryConfig
from memory_lab.engine import MemoryEngine
from tests.helpers import T0, msg


def candidates(text: str):
    return parse_candidates([msg(0, text)])


@pytest.mark.parametrize(
    "text",
    [
        "Last weekend we drove out to the coast.",
        "I went to a ceramics fair on Saturday.",
        "I've climbed Snowdon twice.",
    ],
)
def test_a_past_occurrence_is_an_event_that_states_no_change(text: str) -> None:
    found = candidates(text)
    assert found, text
    assert all(c.event and not c.changes for c in found), found


@pytest.mark.parametrize(
    "text",
    [
        "Our landlord pushed the rent up to 1,250 a month.",
        "The gym membership went up to 45 a month.",
        "I switched to a standing desk.",
    ],
)
def test_a_things_value_moving_is_a_change_not_an_event(text: str) -> None:
    found = candidates(text)
    assert found, text
    assert any(c.changes for c in found), found
    assert not any(c.event for c in found), found


@pytest.mark.parametrize(
    "text",
    ["I live in Dundee.", "I adore sea swimming.", "I started at Kestrel Labs in May."],
)
def test_a_state_is_no_event(text: str) -> None:
    assert not any(c.event for c in candidates(text))


def test_alike_events_both_stand_and_neither_replaces_the_other() -> None:
    clock = ManualClock(T0)
    engine = MemoryEngine(config=MemoryConfig(extractor="parse"), clock=clock)
    said = [
        "We went to a folk concert at the library.",
        "On Friday we went to a jazz gig at the town hall.",
        "Lately I've been really into bouldering.",
    ]
    try:
        for i, text in enumerate(said):
            clock.advance(timedelta(days=3))
            engine.ingest("t1", [msg(i, text, at=clock.now())])
        engine.close_session("t1")
        assert engine.flush(timeout=60)
        active = [r for r in engine.facts.rows("t1") if r.is_active(clock.now())]
        values = " | ".join(r.value for r in active)
        assert "folk concert" in values, values
        assert "jazz gig" in values, values
        assert not any(
            r.status == "superseded" and ("concert" in r.value or "gig" in r.value)
            for r in engine.facts.rows("t1")
        )
    finally:
        engine.close()
