"""A trigger decides before the step takes the engine's lock, holding no lock of
the declared order, and the memory it leaves is the one deciding inside made."""

from __future__ import annotations

import pytest

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.concurrency.lock_order import held_locks
from memory_lab.jobs import planning
from memory_lab.recipes import recipe
from memory_lab.triggers import (
    Compress,
    TriggerParams,
    WindowView,
    register,
)
from tests.helpers import T0, msg


class WatchParams(TriggerParams):
    pass


def _converse(engine: MemoryEngine, turns: int = 9) -> None:
    """Turns an hour apart on two threads, then a chat, a tick and a close.

    The worker finishes each step's work before the next step, so the order
    of its events and the step's is the same in every run.
    """
    for i in range(turns):
        thread = "main" if i % 3 else "side"
        text = f"turn {i}: " + "the garden needs water and the shed a new roof " * 3
        engine.ingest("t1", [msg(i, text, minutes=60)], thread=thread)
        assert engine.flush(timeout=60)
    engine.chat("t1", "what did I say?")
    assert engine.flush(timeout=60)
    engine.tick("t1")
    assert engine.flush(timeout=60)
    engine.close_session("t1")
    assert engine.flush(timeout=60)


@pytest.mark.parametrize("time_limited", [False, True], ids=["inline", "guarded"])
def test_a_plugin_trigger_decides_holding_no_lock(named, time_limited):
    held: list[list[str]] = []

    def watch(view: WindowView, params: WatchParams) -> Compress | None:
        held.append(held_locks())
        return Compress(2, "watched") if len(view) >= 3 else None

    name = f"WATCH_{'GUARDED' if time_limited else 'INLINE'}"
    named.append(name)
    register(name, WatchParams, watch, time_limited=time_limited)
    with MemoryEngine(
        config=MemoryConfig(recipe=recipe(name)), clock=ManualClock(T0)
    ) as engine:
        _converse(engine)
        fired = [e for e in engine.events.events("t1") if e.kind == "trigger_fired"]
    assert len(held) == 12, "one decision per step: none made again inside"
    assert held == [[]] * len(held), held
    assert fired and all("watched" in e.detail for e in fired)


@pytest.mark.parametrize("name", ["A", "B", "C", "A+B+C"])
def test_deciding_ahead_leaves_the_memory_deciding_inside_left(
    name, tmp_path, monkeypatch
):
    def snapshot(folder) -> str:
        config = MemoryConfig(recipe=recipe(name))
        with MemoryEngine(folder, config=config, clock=ManualClock(T0)) as engine:
            _converse(engine, turns=72)
            fired.append(
                [
                    e.detail
                    for e in engine.events.events("t1")
                    if e.kind == "trigger_fired"
                ]
            )
            return engine.memory_snapshot("t1").model_dump_json()

    fired: list[list[str]] = []
    ahead = snapshot(tmp_path / "ahead")
    monkeypatch.setattr(planning.DecidedAhead, "holds", lambda *_: False)
    inside = snapshot(tmp_path / "inside")
    assert fired[0], "the conversation makes the triggers fire"
    assert fired[0] == fired[1]
    assert ahead == inside
