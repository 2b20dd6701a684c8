"""The session lifecycle: pure transitions, their events, the stores, the config."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from memory_lab.config import MemoryConfig, SessionConfig
from memory_lab.sessions import (
    InMemorySessionStore,
    SessionRecord,
    SqlSessionStore,
    Turn,
    advance,
)
from memory_lab.sessions.lifecycle import describe_span
from memory_lab.sessions.tracking import transition_events
from tests.helpers import T0

CONFIG = SessionConfig(idle_after=timedelta(minutes=30), close_after=timedelta(hours=4))


def _opened(at=T0, session="s1"):
    return advance(None, at, CONFIG, turns=[Turn(session, at)]).record


def test_the_first_turn_opens_the_session():
    step = advance(None, T0, CONFIG, turns=[Turn("s1", T0)])
    assert [(t.before, t.after.state) for t in step.transitions] == [(None, "open")]
    assert step.record.opened_at == step.record.last_turn_at == T0
    assert step.record.closed_at is None and not step.closed


def test_a_turn_in_a_live_session_only_moves_its_last_turn():
    later = T0 + timedelta(minutes=10)
    step = advance(_opened(), later, CONFIG, turns=[Turn("s1", later)])
    assert step.transitions == []
    assert step.record.state == "open" and step.record.last_turn_at == later


@pytest.mark.parametrize(
    ("gap", "state"),
    [
        (timedelta(minutes=29, seconds=59), "open"),
        (timedelta(minutes=30), "idle"),
        (timedelta(hours=3, minutes=59), "idle"),
        (timedelta(hours=4), "closed"),
    ],
)
def test_silence_moves_the_session_at_the_configured_gaps(gap, state):
    step = advance(_opened(), T0 + gap, CONFIG)
    assert step.record.state == state
    assert len(step.transitions) == (state != "open")


def test_a_long_silence_closes_straight_away_with_its_length_as_the_reason():
    now = T0 + timedelta(hours=5, minutes=15)
    step = advance(_opened(), now, CONFIG)
    (t,) = step.transitions
    assert (t.before, t.after.state) == ("open", "closed")
    assert t.after.reason == "no turn for 5 h 15 min"
    assert t.after.closed_at == t.after.since == now and step.closed


def test_an_idle_session_closes_later_and_a_closed_one_stays_closed():
    idle = advance(_opened(), T0 + timedelta(hours=1), CONFIG).record
    closed = advance(idle, T0 + timedelta(hours=4), CONFIG)
    assert [(t.before, t.after.state) for t in closed.transitions] == [
        ("idle", "closed")
    ]
    again = advance(closed.record, T0 + timedelta(days=2), CONFIG)
    assert again.transitions == [] and again.record == closed.record


def test_an_explicit_close_closes_once():
    step = advance(_opened(), T0 + timedelta(minutes=5), CONFIG, close=True)
    assert [t.after.reason for t in step.transitions] == ["closed on request"]
    assert advance(step.record, T0 + timedelta(minutes=6), CONFIG, close=True) == (
        type(step)(step.record, [])
    )


def test_closing_nothing_records_nothing():
    assert advance(None, T0, CONFIG, close=True).record is None


@pytest.mark.parametrize("gap", [timedelta(hours=1), timedelta(hours=6)])
def test_a_turn_after_silence_resumes_the_same_session(gap):
    silent = advance(_opened(), T0 + gap, CONFIG).record
    at = T0 + gap + timedelta(minutes=1)
    step = advance(silent, at, CONFIG, turns=[Turn("s1", at)])
    (t,) = step.transitions
    assert (t.before, t.after.state, t.after.session) == (silent.state, "resumed", "s1")
    assert t.after.opened_at == T0 and t.after.last_turn_at == at


def test_a_turn_after_a_gap_nobody_ticked_closes_then_resumes():
    at = T0 + timedelta(hours=5)
    step = advance(_opened(), at, CONFIG, turns=[Turn("s1", at)])
    assert [t.after.state for t in step.transitions] == ["closed", "resumed"]
    assert step.record.closed_at == at and not step.closed


def test_a_new_label_closes_the_old_session_and_opens_the_new_one():
    at = T0 + timedelta(minutes=5)
    step = advance(_opened(), at, CONFIG, turns=[Turn("s2", at)])
    assert [(t.after.session, t.after.state) for t in step.transitions] == [
        ("s1", "closed"),
        ("s2", "open"),
    ]
    assert step.transitions[0].after.reason == "session s2 began"
    assert step.record.opened_at == at


def test_each_transition_is_one_event_at_its_time_with_its_reason():
    at = T0 + timedelta(hours=5)
    step = advance(_opened(), at, CONFIG, turns=[Turn("s1", at)])
    events = transition_events("t1", "main", step.transitions)
    assert [e.kind for e in events] == ["session_closed", "session_resumed"]
    assert all(e.at == at and e.refs == ["main", "s1"] for e in events)
    assert "no turn for 5 h" in events[0].detail
    assert len({e.id for e in events}) == 2


@pytest.mark.parametrize(
    ("span", "said"),
    [
        (timedelta(seconds=20), "0 min"),
        (timedelta(minutes=45), "45 min"),
        (timedelta(hours=4), "4 h"),
        (timedelta(days=2, hours=3, minutes=5), "2 d 3 h"),
    ],
)
def test_spans_read_as_people_say_them(span, said):
    assert describe_span(span) == said


@pytest.fixture(params=["sqlite", "memory"])
def store(request, tmp_path: Path):
    if request.param == "memory":
        return InMemorySessionStore()
    return SqlSessionStore(tmp_path / "memory.sqlite3")


def test_a_store_keeps_one_session_per_thread_and_tenant(store):
    first = _opened()
    assert store.get("t1", "main") is None
    store.put("t1", "main", first)
    closed = advance(first, T0 + timedelta(hours=9), CONFIG).record
    store.put("t1", "main", closed)
    store.put("t1", "other", first)
    assert store.get("t1", "main") == closed
    assert store.get("t1", "other") == first
    assert store.get("t2", "main") is None
    assert isinstance(store.get("t1", "main"), SessionRecord)


def test_the_sql_store_reads_back_what_another_connection_wrote(tmp_path: Path):
    record = advance(_opened(), T0 + timedelta(hours=9), CONFIG).record
    SqlSessionStore(tmp_path / "m.sqlite3").put("t1", "main", record)
    assert SqlSessionStore(tmp_path / "m.sqlite3").get("t1", "main") == record


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"idle_after": timedelta(0)}, "idle_after must be > 0"),
        ({"idle_after": timedelta(minutes=-5)}, "idle_after must be > 0"),
        (
            {"idle_after": timedelta(hours=2), "close_after": timedelta(hours=1)},
            "close_after .* must be >= idle_after",
        ),
    ],
)
def test_bad_session_gaps_are_refused_by_name(fields, named):
    with pytest.raises(ValidationError, match=named):
        SessionConfig(**fields)
    with pytest.raises(ValidationError, match=named):
        MemoryConfig.model_validate({"sessions": fields})


def test_equal_gaps_are_allowed_and_skip_idle():
    same = SessionConfig(idle_after=timedelta(hours=1), close_after=timedelta(hours=1))
    step = advance(_opened(), T0 + timedelta(hours=1), same)
    assert step.record.state == "closed"
