"""SQL for what the stores offer no call for: rows read and written whole.

The transcript hands out messages without their thread and appends with new
seqs; the ledger has no list of a tenant's threads or jobs. An export must read
those rows as they are and an import write them back as they were (the same
seq, even where a purge left gaps), so this module does, in the stores' portable
SQL (`?` placeholders), inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from memory_lab.owner.records import (
    ChatRow,
    JobRow,
    ThreadState,
    TranscriptRow,
    TrashRow,
)
from memory_lab.stores.sqlite_db import decode_json, encode_json, encode_time
from memory_lab.types import Record

_R = TypeVar("_R", bound=Record)

TENANT_TABLES = (
    "messages",
    "facts",
    "fact_links",
    "events",
    "memory_threads",
    "memory_jobs",
    "memory_episodes",
    "chats",
    "trash",
    "memory_sessions",
    "items",
)
"""Every table with a row per tenant record."""

_MESSAGE_COLUMNS = ("seq", "id", "thread", "session", "role", "content", "timestamp")
_THREAD_COLUMNS = tuple(f for f in ThreadState.model_fields if f != "tenant")
_JOB_COLUMNS = tuple(f for f in JobRow.model_fields if f != "tenant")


def held_rows(conn: Any, tenant: str) -> dict[str, int]:
    """How many rows of the tenant each table holds (those holding any)."""
    counts = {
        table: int(
            conn.execute(
                f"SELECT COUNT(*) FROM {table} WHERE tenant = ?", (tenant,)
            ).fetchone()[0]
        )
        for table in TENANT_TABLES
    }
    return {table: n for table, n in counts.items() if n}


def read_messages(conn: Any, tenant: str) -> list[TranscriptRow]:
    """Every message of the tenant, with its thread, in seq order."""
    columns = ", ".join((*_MESSAGE_COLUMNS, "speaker", "restated"))
    rows = conn.execute(
        f"SELECT {columns} FROM messages WHERE tenant = ? ORDER BY seq", (tenant,)
    ).fetchall()
    return [
        TranscriptRow.model_validate(
            {**dict(r), "tenant": tenant, "restated": decode_json(r["restated"])}
        )
        for r in rows
    ]


def write_messages(conn: Any, tenant: str, messages: Sequence[TranscriptRow]) -> None:
    """Insert messages with their own seqs and threads."""
    columns = (*_MESSAGE_COLUMNS, "speaker", "restated")
    conn.executemany(
        f"INSERT INTO messages (tenant, {', '.join(columns)})"
        f" VALUES ({', '.join('?' * (len(columns) + 1))})",
        [
            (
                tenant,
                m.seq,
                m.id,
                m.thread,
                m.session,
                m.role,
                m.content,
                encode_time(m.timestamp),
                m.speaker,
                encode_json(m.restated),
            )
            for m in messages
        ],
    )


def read_threads(conn: Any, tenant: str) -> list[ThreadState]:
    """Every thread's watermarks and running summary, by thread name."""
    rows = conn.execute(
        f"SELECT {', '.join(_THREAD_COLUMNS)} FROM memory_threads"
        " WHERE tenant = ? ORDER BY thread",
        (tenant,),
    ).fetchall()
    return [ThreadState.model_validate({**dict(r), "tenant": tenant}) for r in rows]


def write_threads(conn: Any, tenant: str, threads: Sequence[ThreadState]) -> None:
    """Insert thread states."""
    conn.executemany(
        f"INSERT INTO memory_threads (tenant, {', '.join(_THREAD_COLUMNS)})"
        f" VALUES ({', '.join('?' * (len(_THREAD_COLUMNS) + 1))})",
        [(tenant, *(getattr(t, c) for c in _THREAD_COLUMNS)) for t in threads],
    )


def read_jobs(conn: Any, tenant: str) -> list[JobRow]:
    """Every job of the tenant in the order it was recorded."""
    rows = conn.execute(
        f"SELECT {', '.join(_JOB_COLUMNS)} FROM memory_jobs"
        " WHERE tenant = ? ORDER BY id",
        (tenant,),
    ).fetchall()
    return [JobRow.model_validate({**dict(r), "tenant": tenant}) for r in rows]


def write_jobs(conn: Any, tenant: str, jobs: Sequence[JobRow]) -> None:
    """Insert jobs in order; the database numbers them."""
    rows = [
        tuple(
            encode_time(j.asked_at) if c == "asked_at" else getattr(j, c)
            for c in _JOB_COLUMNS
        )
        for j in jobs
    ]
    # One by one, so the numbers follow the file's order on every database.
    for row in rows:
        conn.execute(
            f"INSERT INTO memory_jobs (tenant, {', '.join(_JOB_COLUMNS)})"
            f" VALUES ({', '.join('?' * (len(_JOB_COLUMNS) + 1))})",
            (tenant, *row),
        )


def _read_records(
    conn: Any, table: str, model: type[_R], tenant: str, order: str
) -> list[_R]:
    """The tenant's rows of a table whose columns are the model's fields."""
    columns = [f for f in model.model_fields if f != "tenant"]
    rows = conn.execute(
        f"SELECT {', '.join(columns)} FROM {table} WHERE tenant = ? ORDER BY {order}",
        (tenant,),
    ).fetchall()
    return [model.model_validate({**dict(r), "tenant": tenant}) for r in rows]


def _write_records(
    conn: Any, table: str, tenant: str, records: Sequence[Record]
) -> None:
    """Insert records as they were, times as the stores encode them."""
    if not records:
        return
    columns = [f for f in type(records[0]).model_fields if f != "tenant"]

    def cell(value: Any) -> Any:
        return encode_time(value) if isinstance(value, datetime) else value

    conn.executemany(
        f"INSERT INTO {table} (tenant, {', '.join(columns)})"
        f" VALUES ({', '.join('?' * (len(columns) + 1))})",
        [(tenant, *(cell(getattr(r, n)) for n in columns)) for r in records],
    )


def read_chats(conn: Any, tenant: str) -> list[ChatRow]:
    """The tenant's chat catalog rows (titles, trash), by thread."""
    return _read_records(conn, "chats", ChatRow, tenant, "thread")


def write_chats(conn: Any, tenant: str, chats: Sequence[ChatRow]) -> None:
    """Insert chat catalog rows as they were."""
    _write_records(conn, "chats", tenant, chats)


def read_trash(conn: Any, tenant: str) -> list[TrashRow]:
    """The tenant's trashed facts and episodes, by kind and id."""
    return _read_records(conn, "trash", TrashRow, tenant, "kind, item")


def write_trash(conn: Any, tenant: str, rows: Sequence[TrashRow]) -> None:
    """Insert trash rows as they were."""
    _write_records(conn, "trash", tenant, rows)
