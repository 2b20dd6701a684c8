"""The chat trash: restorable within its window, purged for real after it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory_lab.clock import ManualClock
from memory_lab.engine import MemoryEngine
from memory_lab.owner.disk import files_holding
from memory_lab.owner.empty_trash import REQUESTED_BY, DueItem, due
from memory_lab.owner.tombstones import PurgeLog
from memory_lab.stores.sqlite_db import SqliteDatabase
from tests.helpers import open_and_close_apart

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
SECRET = "Zanzibar-7731"
KEEP = timedelta(days=30)


def _open(data: Path, at: datetime) -> MemoryEngine:
    return MemoryEngine(data, clock=ManualClock(at), trash_keep=KEEP)


@pytest.mark.slow
def test_a_trashed_chat_is_restorable_in_its_window_and_gone_after(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with _open(data, T0) as engine:
        doomed = engine.chats.create("ana", T0)
        kept = engine.chats.create("ana", T0)
        engine.chat(
            "ana",
            f"My locker code is {SECRET}",
            thread=doomed.thread,
            session=doomed.thread,
        )
        engine.chat(
            "ana",
            "My favourite tea is genmaicha",
            thread=kept.thread,
            session=kept.thread,
        )
        engine.close_session("ana", thread=doomed.thread)
        engine.flush()
        engine.chats.trash("ana", doomed.thread, T0)
    assert files_holding(data, SECRET)

    # Inside the window nothing is purged and the chat comes back whole.
    inside = T0 + KEEP - timedelta(hours=1)
    assert due(data / "memory.sqlite3", inside, KEEP) == []
    with _open(data, inside) as engine:
        assert [c.thread for c in engine.chats.chats("ana", trashed=True)] == [
            doomed.thread
        ]
        assert len(engine.transcript.messages("ana", doomed.thread)) == 2

    # Past it, the next open purges the chat: turns, facts, row, bytes.
    past = T0 + KEEP + timedelta(hours=1)
    assert due(data / "memory.sqlite3", past, KEEP) == [
        DueItem("ana", "chat", doomed.thread)
    ]
    # The next open, by a new process as after a restart, purges it.
    open_and_close_apart(data, past, KEEP)
    assert files_holding(data, SECRET) == []
    with _open(data, past) as engine:
        assert engine.chats.chats("ana", trashed=True) == []
        assert engine.transcript.messages("ana", doomed.thread) == []
        assert all(SECRET not in f.value for f in engine.facts.rows("ana"))
        assert [c.thread for c in engine.chats.chats("ana")] == [kept.thread]
        assert len(engine.transcript.messages("ana", kept.thread)) == 2
    db = SqliteDatabase(data / "memory.sqlite3")
    try:
        [tombstone] = PurgeLog(db).tombstones()
    finally:
        db.close()
    assert tombstone.requested_by == REQUESTED_BY
    assert tombstone.selection == {"chat": doomed.thread}
    assert tombstone.status == "done" and SECRET not in repr(tombstone)


def test_an_empty_trashed_chat_past_its_window_just_leaves_the_list(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with _open(data, T0) as engine:
        empty = engine.chats.create("ana", T0, title="Never used")
        engine.chat("ana", "hello", thread="main")
        engine.chats.trash("ana", empty.thread, T0)
    with _open(data, T0 + KEEP * 2) as engine:
        assert engine.chats.chats("ana", trashed=True) == []
        assert [c.thread for c in engine.chats.chats("ana")] == ["main"]
