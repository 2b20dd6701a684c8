"""The memory event log in SQL: append-only, read oldest first."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from memory_lab.errors import require_tenant
from memory_lab.stores.base import Database, check_limit
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import decode_json, encode_json, encode_time, time_key
from memory_lab.stores.tenancy import require_owned
from memory_lab.types import MemoryEvent

_COLUMNS = "tenant, id, at, kind, detail, refs, undo"


class SqlEventLog:
    """Events ordered by time, then by the order they were appended.

    Re-appending an event id the tenant already logged changes nothing, so a
    replayed step does not double its events.
    """

    def __init__(self, path: str | Path | Database) -> None:
        """Open the log in `path` (a file, ":memory:", or a shared database)."""
        self._db = database_at(path)

    def append(self, tenant: str, events: Sequence[MemoryEvent]) -> None:
        """Store events in order."""
        tenant = require_owned(tenant, events)
        rows = [
            (
                tenant,
                e.id,
                encode_time(e.at),
                time_key(e.at),
                e.kind,
                e.detail,
                encode_json(e.refs),
                encode_json(e.undo),
            )
            for e in events
        ]
        with self._db.write() as conn:
            conn.executemany(
                "INSERT INTO events"
                " (tenant, id, at, at_key, kind, detail, refs, undo)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                rows,
            )

    def events(
        self, tenant: str, *, since: datetime | None = None, limit: int | None = None
    ) -> list[MemoryEvent]:
        """Read newest first so that SQL's LIMIT keeps the last ones, then reversed."""
        tenant = require_tenant(tenant)
        check_limit(limit)
        sql = f"SELECT {_COLUMNS} FROM events WHERE tenant = ?"
        params: list[object] = [tenant]
        if since is not None:
            sql += " AND at_key >= ?"
            params.append(time_key(since))
        sql += " ORDER BY at_key DESC, pos DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with self._db.read() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [_decode(row) for row in reversed(rows)]

    def close(self) -> None:
        """Release the database connection."""
        self._db.close()


def _decode(row: sqlite3.Row) -> MemoryEvent:
    data = dict(row)
    data["refs"] = decode_json(data["refs"])
    data["undo"] = decode_json(data["undo"])
    return MemoryEvent.model_validate(data)
