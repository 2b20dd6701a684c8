"""A trigger decides while no write transaction is open, and what it decided over
is still what the turn's plan records."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.concurrency import lock_order
from memory_lab.recipes import recipe
from memory_lab.triggers import (
    Compress,
    TriggerParams,
    WindowView,
    register,
)
from tests.helpers import T0, msg


class PeekParams(TriggerParams):
    pass


@pytest.mark.parametrize("time_limited", [False, True], ids=["inline", "guarded"])
def test_a_plugin_trigger_sees_no_open_transaction(named, time_limited):
    """The database's connection is outside any transaction while it decides or cuts."""
    seen: list[tuple[bool, list[str]]] = []
    connection: list[sqlite3.Connection] = []

    def peek(view: WindowView, params: PeekParams) -> Compress | None:
        held = lock_order.CHECKER.held() if lock_order.CHECKER else []
        seen.append((connection[0].in_transaction, held))
        return Compress(2, "peeked") if len(view) >= 3 else None

    def peek_cut(before, after, params: PeekParams) -> bool:
        cuts.append(connection[0].in_transaction)
        return False

    cuts: list[bool] = []
    name = f"PEEK_{'GUARDED' if time_limited else 'INLINE'}"
    named.append(name)
    register(name, PeekParams, peek, splits=peek_cut, time_limited=time_limited)
    config = MemoryConfig(recipe=recipe(name))
    with MemoryEngine(config=config, clock=ManualClock(T0)) as engine:
        with engine.jobs.db.read() as conn:
            connection.append(conn)
        for i in range(4):
            engine.ingest("t1", [msg(i, f"turn {i}", tenant="t1")])
            # The worker shares the connection: let it finish the last turn's
            # work, so an open transaction can only be the deciding turn's own.
            assert engine.flush(timeout=60)
        fired = [e for e in engine.events.events("t1") if e.kind == "trigger_fired"]
    assert isinstance(connection[0], sqlite3.Connection)
    assert [in_transaction for in_transaction, _ in seen] == [False] * 4
    assert all("database" not in held for _, held in seen), seen
    assert len(fired) == 1 and "peeked" in fired[0].detail
    assert cuts and not any(cuts), "the compression asks where to cut, outside"


def test_a_decision_over_marks_another_writer_moved_is_made_again(named):
    """Planning between the decision and its transaction sends it back to decide."""
    windows: list[int] = []
    engines: list[MemoryEngine] = []

    def other_writer_plans_first(view: WindowView, params: PeekParams) -> None:
        windows.append(len(view))
        if len(windows) == 2:  # the second turn's first decision
            jobs = engines[0].jobs
            jobs.save_marks(
                "t1", "main", replace(jobs.marks("t1", "main"), decided_upto=1)
            )
        return None

    named.append("OTHER")
    register("OTHER", PeekParams, other_writer_plans_first, time_limited=False)
    config = MemoryConfig(recipe=recipe("OTHER"))
    with MemoryEngine(config=config, clock=ManualClock(T0)) as engine:
        engines.append(engine)
        engine.ingest("t1", [msg(0, "first", tenant="t1")])
        engine.ingest("t1", [msg(1, "second", tenant="t1")])
        marks = engine.jobs.marks("t1", "main")
    assert windows == [1, 2, 2]
    assert marks.decided_upto == 1
