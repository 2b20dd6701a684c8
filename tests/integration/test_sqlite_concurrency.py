"""Threads and processes writing one SQLite file: nothing lost, nothing doubled."""

from __future__ import annotations

import multiprocessing
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory_lab.stores import (
    SqlEventLog,
    SqlFactStore,
    SqlTranscriptStore,
)
from memory_lab.types import Fact, MemoryEvent, Message

T0 = datetime(2024, 5, 8, 13, 56, tzinfo=UTC)
TENANT = "acme"
SHARED_IDS = [f"shared-{i}" for i in range(10)]
BATCHES = 15


def _msg(id: str, writer: str) -> Message:
    return Message(
        id=id,
        tenant=TENANT,
        session="s1",
        role="user",
        content=f"{id} from {writer}",
        timestamp=T0,
    )


def _write(path: str, writer: str, store: SqlTranscriptStore | None = None) -> None:
    """Append this writer's own messages in small batches, each with a shared id.

    Every writer also tries the same shared ids, so idempotent ingest is raced
    as well as seq allocation.
    """
    own = store is None
    transcripts = store or SqlTranscriptStore(path)
    log = SqlEventLog(path)
    for n in range(BATCHES):
        batch = [_msg(f"{writer}-{n}-{k}", writer) for k in range(2)]
        batch.append(_msg(SHARED_IDS[n % len(SHARED_IDS)], writer))
        transcripts.append(TENANT, writer, batch)
        log.append(
            TENANT,
            [
                MemoryEvent(
                    id=f"{writer}-ev-{n}",
                    tenant=TENANT,
                    at=T0 + timedelta(seconds=n),
                    kind="trigger_fired",
                    detail=writer,
                )
            ],
        )
    if own:
        transcripts.close()
    log.close()


def _check(path: Path, writers: list[str]) -> None:
    transcripts = SqlTranscriptStore(path)
    stored = transcripts.messages(TENANT)
    ids = [m.id for m in stored]
    expected = {f"{w}-{n}-{k}" for w in writers for n in range(BATCHES) for k in (0, 1)}
    assert len(ids) == len(set(ids)), "a message was stored twice"
    assert set(ids) == expected | set(SHARED_IDS), "a message was lost"
    assert [m.seq for m in stored] == list(range(len(stored)))
    assert transcripts.count(TENANT) == len(stored)
    for writer in writers:
        # Each writer's own batches keep the order they were appended in.
        mine = [m.id for m in transcripts.messages(TENANT, writer)]
        own = [i for i in mine if i.startswith(f"{writer}-")]
        assert own == [f"{writer}-{n}-{k}" for n in range(BATCHES) for k in (0, 1)]
    events = SqlEventLog(path).events(TENANT)
    assert sorted(e.id for e in events) == sorted(
        f"{w}-ev-{n}" for w in writers for n in range(BATCHES)
    )
    transcripts.close()


def test_threads_lose_and_double_nothing(tmp_path):
    path = tmp_path / "memory.sqlite3"
    shared = SqlTranscriptStore(path)
    # Two threads share one store object; three open their own connections.
    plan = [("t0", shared), ("t1", shared), ("t2", None), ("t3", None), ("t4", None)]
    threads = [
        threading.Thread(target=_write, args=(str(path), name, store))
        for name, store in plan
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    shared.close()
    _check(path, [name for name, _ in plan])


def test_two_processes_lose_and_double_nothing(tmp_path):
    path = tmp_path / "memory.sqlite3"
    # Created up front so both processes start on an existing WAL file, as a
    # second process attaching to a running app would.
    SqlFactStore(path).close()
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_write, args=(str(path), name)) for name in ("p0", "p1")
    ]
    for worker in workers:
        worker.start()
    # The parent writes too, through a third connection.
    _write(str(path), "parent")
    for worker in workers:
        worker.join(timeout=300)
    assert [w.exitcode for w in workers] == [0, 0]
    _check(path, ["p0", "p1", "parent"])


@pytest.mark.slow
def test_fact_updates_from_threads_keep_every_row(tmp_path):
    path = tmp_path / "memory.sqlite3"
    SqlFactStore(path).insert(TENANT, _fact("f1", 0.5))

    def confirm(n: int) -> None:
        store = SqlFactStore(path)
        for i in range(10):
            store.insert(TENANT, _fact(f"t{n}-{i}", 0.5))
            store.update(TENANT, _fact("f1", (n * 10 + i) / 100))
        store.close()

    threads = [threading.Thread(target=confirm, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = SqlFactStore(path).rows(TENANT)
    assert len(rows) == 41
    assert len({f.id for f in rows}) == 41


def _fact(id: str, confidence: float) -> Fact:
    return Fact(
        id=id,
        tenant=TENANT,
        subject="user",
        category="preference",
        key="drink",
        value="tea",
        confidence=confidence,
        importance=0.5,
        source="explicit",
        session="s1",
        turn_ids=[],
        valid_from=T0,
        last_confirmed_at=T0,
        created_at=T0,
    )
