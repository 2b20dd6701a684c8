"""Where each thread's current session is kept: one row per (tenant, thread).

`SqlSessionStore` lives in the engine's one database (a SQLite file or Postgres,
where migration step 8 makes the table), so a close and the extraction it asks for
can commit together. `InMemorySessionStore` is the plain-Python reference, for
memory held in the process. The SQL store's statements are `stores.sql_sessions`'s.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.errors import require_tenant
from memory_lab.sessions.lifecycle import SessionRecord
from memory_lab.stores import sql_sessions
from memory_lab.stores.base import Database
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import encode_time

_NAMES = tuple(f.name for f in fields(SessionRecord))
_TIMES = {"opened_at", "last_turn_at", "since", "closed_at"}


class SessionStore(Protocol):
    """Each thread's current session."""

    def get(self, tenant: str, thread: str) -> SessionRecord | None:
        """The thread's session, or None before its first turn."""
        ...

    def put(self, tenant: str, thread: str, record: SessionRecord) -> None:
        """Store the thread's session, replacing the one it had."""
        ...


class SqlSessionStore:
    """Session rows in a SQLite file, a shared database, or Postgres."""

    def __init__(self, path: str | Path | Database) -> None:
        """Open the store in `path` (a file, ":memory:", or a shared database)."""
        self._db = database_at(path)

    def get(self, tenant: str, thread: str) -> SessionRecord | None:
        """The thread's session, or None before its first turn."""
        tenant = require_tenant(tenant)
        with self._db.read() as conn:
            row = sql_sessions.read_session(conn, tenant, thread, _NAMES)
        return None if row is None else _decode(row)

    def rows(self, tenant: str) -> list[tuple[str, SessionRecord]]:
        """Every thread's session of the tenant, by thread (for an export)."""
        tenant = require_tenant(tenant)
        with self._db.read() as conn:
            rows = sql_sessions.session_rows(conn, tenant, _NAMES)
        return [(row["thread"], _decode(row)) for row in rows]

    def put(self, tenant: str, thread: str, record: SessionRecord) -> None:
        """Store the thread's session (inside the caller's transaction, if any)."""
        tenant = require_tenant(tenant)
        values = {
            n: encode_time(getattr(record, n)) if n in _TIMES else getattr(record, n)
            for n in _NAMES
        }
        with self._db.write() as conn:
            sql_sessions.write_session(conn, tenant, thread, values)


class InMemorySessionStore:
    """Session records in a dict: the reference the SQL store is tested against."""

    def __init__(self) -> None:
        """Start empty."""
        self._rows: dict[tuple[str, str], SessionRecord] = {}
        self._lock = named_lock("memory.sessions")  # guards `_rows`

    def get(self, tenant: str, thread: str) -> SessionRecord | None:
        """The thread's session, or None before its first turn."""
        with self._lock:
            return self._rows.get((require_tenant(tenant), thread))

    def put(self, tenant: str, thread: str, record: SessionRecord) -> None:
        """Store the thread's session, replacing the one it had."""
        with self._lock:
            self._rows[(require_tenant(tenant), thread)] = record


def _decode(row: Any) -> SessionRecord:
    values: dict[str, Any] = {
        name: datetime.fromisoformat(row[name])
        if name in _TIMES and row[name] is not None
        else row[name]
        for name in _NAMES
    }
    return SessionRecord(**values)
