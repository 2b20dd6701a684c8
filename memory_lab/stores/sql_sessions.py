"""SQL for `memory_sessions`: one row per (tenant, thread), its current session.

`sessions.store.SqlSessionStore` encodes and decodes the record and holds the
transaction; these are its statements, in the stores' portable SQL, run on the
connection it hands them. Migration step 8 makes the table (`stores.schema`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from memory_lab.stores.base import Connection, upsert_row


def read_session(
    conn: Connection, tenant: str, thread: str, columns: Sequence[str]
) -> Any | None:
    """The thread's row (`columns` of it), or None before its first turn."""
    return conn.execute(
        f"SELECT {', '.join(columns)} FROM memory_sessions"
        " WHERE tenant = ? AND thread = ?",
        (tenant, thread),
    ).fetchone()


def session_rows(conn: Connection, tenant: str, columns: Sequence[str]) -> list[Any]:
    """Every row of the tenant (`thread` and `columns`), by thread."""
    return conn.execute(
        f"SELECT thread, {', '.join(columns)} FROM memory_sessions"
        " WHERE tenant = ? ORDER BY thread",
        (tenant,),
    ).fetchall()


def write_session(
    conn: Connection, tenant: str, thread: str, values: Mapping[str, Any]
) -> None:
    """Insert or overwrite the thread's row (column name to encoded value)."""
    upsert_row(conn, "memory_sessions", {"tenant": tenant, "thread": thread}, values)
