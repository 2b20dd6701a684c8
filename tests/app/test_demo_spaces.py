"""Demo mode's sessions: a memory each, deleted when the session ends or idles."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime

import pytest

from app_ui import demo
from memory_lab.config import MemoryConfig
from memory_lab.types import Message


class Ticker:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _open(space: demo.DemoSpace, now: float):
    return space.open("demo", MemoryConfig(), now)


def _say(memory, text: str) -> None:
    turn = Message(
        id=f"t-{time.monotonic_ns()}",
        tenant="demo",
        session="chat-1",
        role="user",
        content=text,
        timestamp=datetime.now(UTC),
    )
    memory.add("demo", [turn])
    memory.close_session("demo")
    assert memory.flush(timeout=60)


def test_two_sessions_never_share_a_fact_and_each_folder_goes_with_its_session(
    tmp_path,
):
    ticker = Ticker()
    spaces = demo.DemoSpaces(tmp_path / "demo", idle_s=3600, monotonic=ticker)
    first, second = spaces.new(), spaces.new()
    folder_a, memory_a, _, reset = _open(first, ticker())
    folder_b, memory_b, _, _ = _open(second, ticker())
    assert not reset and folder_a != folder_b
    assert folder_a.parent == folder_b.parent == tmp_path / "demo"
    _say(memory_a, "My favourite colour is teal.")
    held = {f.value.lower() for f in memory_a.facts("demo")}
    assert any("teal" in v for v in held), held
    assert not any("teal" in f.value.lower() for f in memory_b.facts("demo"))
    assert spaces.live() == 2
    spaces.release(first)
    assert not folder_a.exists() and folder_b.exists() and spaces.live() == 1
    spaces.release(second)
    assert not folder_b.exists()


def test_an_idle_session_loses_its_memory_and_is_told_on_its_next_run(tmp_path):
    ticker = Ticker()
    spaces = demo.DemoSpaces(tmp_path / "demo", idle_s=60, monotonic=ticker)
    idle, busy = spaces.new(), spaces.new()
    old_folder, memory, _, _ = _open(idle, ticker())
    _say(memory, "My favourite colour is teal.")
    _open(busy, ticker())
    ticker.t += 45
    busy_folder, _, _, _ = _open(busy, ticker())  # a rerun keeps it alive
    assert spaces.sweep() == []
    ticker.t += 30  # idle 75 s, busy 30 s
    assert spaces.sweep() == [idle.id]
    assert not old_folder.exists() and busy_folder.exists()
    new_folder, memory, _, reset = _open(idle, ticker())
    assert reset and new_folder != old_folder
    assert memory.facts("demo") == []
    assert not _open(idle, ticker())[3]  # said once
    spaces.release(idle)
    spaces.release(busy)


def test_folders_no_session_owns_are_swept_once_as_old_as_the_limit(tmp_path):
    spaces = demo.DemoSpaces(tmp_path, idle_s=60)
    stale = tmp_path / f"{demo.PREFIX}left-by-a-killed-server"
    fresh = tmp_path / f"{demo.PREFIX}just-made"
    stale.mkdir()
    fresh.mkdir()
    past = time.time() - 120
    os.utime(stale, (past, past))
    spaces.sweep()
    assert not stale.exists() and fresh.exists()


def test_the_idle_limit_must_be_a_positive_number(monkeypatch):
    monkeypatch.delenv(demo.IDLE_ENV, raising=False)
    assert demo.idle_seconds() == demo.IDLE_S
    monkeypatch.setenv(demo.IDLE_ENV, "90")
    assert demo.idle_seconds() == 90.0
    for bad in ("0", "-3", "an hour"):
        monkeypatch.setenv(demo.IDLE_ENV, bad)
        with pytest.raises(ValueError, match=demo.IDLE_ENV):
            demo.idle_seconds()
