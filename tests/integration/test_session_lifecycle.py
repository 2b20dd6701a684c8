"""The session lifecycle on a data folder: states on the clock, extraction at close,
state kept across a reopen, and shown by `replay --json`."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from memlab_cli.main import main
from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.config import SessionConfig, WindowConfig
from tests.helpers import T0

# Extraction waits for a close (50 turns is never reached here), so facts that
# exist prove the close extracted.
CONFIG = MemoryConfig(
    window=WindowConfig(extract_every=50),
    sessions=SessionConfig(
        idle_after=timedelta(minutes=30), close_after=timedelta(hours=2)
    ),
)


def _engine(folder, clock):
    return MemoryEngine(folder, config=CONFIG, clock=clock)


def _values(engine):
    return {f.value for f in engine.facts.active("t1")}


def _kinds(step):
    return [e.kind for e in step.events if e.kind.startswith("session_")]


def test_a_session_goes_idle_closes_extracts_survives_a_reopen_and_resumes(tmp_path):
    clock = ManualClock(T0)
    engine = _engine(tmp_path, clock)
    first = engine.chat("t1", "My name is Ada Lovelace.")
    assert _kinds(first) == ["session_opened"]
    engine.chat("t1", "I live in Paris.")
    engine.flush()
    assert engine.session("t1").state == "open"
    assert engine.state("t1")["extracted_upto"] == -1 and _values(engine) == set()

    clock.advance(timedelta(minutes=45))
    idle = engine.tick("t1")
    assert _kinds(idle) == ["session_idle"]
    assert engine.session("t1").reason == "no turn for 45 min"
    engine.flush()
    assert _values(engine) == set()  # idle is not closed: nothing extracted yet

    clock.advance(timedelta(hours=1, minutes=15))
    closed = engine.tick("t1")
    assert _kinds(closed) == ["session_closed"]
    engine.flush()
    state = engine.state("t1")
    assert state["extracted_upto"] == state["last_seq"] == 3
    assert {"Ada Lovelace", "Paris"} <= _values(engine)
    record = engine.session("t1")
    assert (record.state, record.closed_at) == ("closed", clock.now())
    logged = [e for e in engine.events.events("t1") if e.kind == "session_closed"]
    assert logged and "no turn for 2 h" in logged[-1].detail
    engine.close()

    clock.advance(timedelta(days=1))
    again = _engine(tmp_path, clock)
    kept = again.session("t1")
    assert kept == record
    assert again.snapshot("t1")["session"]["state"] == "closed"
    resumed = again.chat("t1", "I work as an engineer.")
    assert _kinds(resumed) == ["session_resumed"]
    now = again.session("t1")
    assert (now.session, now.state, now.opened_at) == ("s1", "resumed", T0)
    assert [m.session for m in again.window("t1")][-2:] == ["s1", "s1"]
    again.close()


def test_an_explicit_close_extracts_and_moves_the_watermark(tmp_path):
    clock = ManualClock(T0)
    with _engine(tmp_path, clock) as engine:
        engine.chat("t1", "My favourite colour is green.")
        clock.advance(timedelta(minutes=5))
        step = engine.close_session("t1")
        assert _kinds(step) == ["session_closed"]
        assert step.state["close_session"] is True
        engine.flush()
        assert engine.state("t1")["extracted_upto"] == 1
        assert "green" in _values(engine)
        session = engine.snapshot("t1")["session"]
        assert (session["state"], session["reason"]) == ("closed", "closed on request")
        assert datetime.fromisoformat(session["closed_at"]) == clock.now()
        # A second close finds nothing to change.
        assert _kinds(engine.close_session("t1")) == []


def test_a_tick_on_a_thread_with_no_turn_records_no_session(tmp_path):
    with _engine(tmp_path, ManualClock(T0)) as engine:
        assert _kinds(engine.tick("t1")) == []
        assert engine.session("t1") is None
        assert engine.snapshot("t1")["session"] is None


def test_a_new_label_closes_the_old_session(tmp_path):
    clock = ManualClock(T0)
    with _engine(tmp_path, clock) as engine:
        engine.chat("t1", "I live in Oslo.")
        clock.advance(timedelta(minutes=1))
        step = engine.chat("t1", "Hello again.", session="s2")
        assert _kinds(step) == ["session_closed", "session_opened"]
        engine.flush()
        assert engine.session("t1").session == "s2"
        assert "Oslo" in _values(engine)


def test_replay_json_shows_the_session(monkeypatch, capsys):
    for name in list(os.environ):
        if name.startswith("MEMORY_LAB_"):
            monkeypatch.delenv(name)
    assert main(["replay", "--json", "--brain", "rule"]) == 0
    snapshot = json.loads(capsys.readouterr().out)
    session = snapshot["session"]
    assert session["state"] == "closed" and session["reason"] == "closed on request"
    assert session["closed_at"] == session["since"]
    assert session["opened_at"] <= session["last_turn_at"] <= session["closed_at"]
    kinds = [e["kind"] for e in snapshot["events"]]
    assert "session_opened" in kinds and kinds.count("session_closed") >= 1


@pytest.mark.parametrize("bad", [{"idle_after": 0}, {"close_after": 60}])
def test_a_bad_session_config_is_refused_before_an_engine_opens(tmp_path, bad):
    with pytest.raises(ValueError, match="idle_after"):
        MemoryEngine(tmp_path, config=MemoryConfig.model_validate({"sessions": bad}))
    assert not (tmp_path / "memory.sqlite3").exists()


@pytest.mark.xdist_group("servers")
def test_the_session_is_kept_on_postgres(postgres_url):
    from memory_lab.stores.locations import StoreSpec

    spec = StoreSpec(store=postgres_url, namespace=f"pg_{uuid.uuid4().hex[:12]}")
    clock = ManualClock(T0)
    with MemoryEngine(None, config=CONFIG, clock=clock, stores=spec) as engine:
        engine.chat("t1", "I live in Lisbon.")
        clock.advance(timedelta(hours=3))
        assert _kinds(engine.tick("t1")) == ["session_closed"]
        engine.flush()
        assert "Lisbon" in _values(engine)
        closed = engine.session("t1")
    with MemoryEngine(None, config=CONFIG, clock=clock, stores=spec) as again:
        assert again.session("t1") == closed
        assert _kinds(again.chat("t1", "Hello.")) == ["session_resumed"]


def test_a_close_whose_extraction_was_lost_is_settled_by_the_next_turn(tmp_path):
    clock = ManualClock(T0)
    with _engine(tmp_path, clock) as engine:
        engine.chat("t1", "I live in Bergen.")
        engine.flush()
        assert engine.state("t1")["extract_planned_upto"] == -1
        # The close committed, the plan asking for its extraction did not.
        opened = engine.session("t1")
        lost = replace(opened, state="closed", closed_at=T0, since=T0, reason="x")
        engine.deps.sessions.put("t1", "main", lost)
        clock.advance(timedelta(minutes=1))
        assert _kinds(engine.chat("t1", "Hello.")) == ["session_resumed"]
        engine.flush()
        assert "Bergen" in _values(engine)
        assert engine.state("t1")["extracted_upto"] >= 1
