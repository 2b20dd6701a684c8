"""A data folder's SQLite file, read before any store opens it.

Opening the file as a store (`SqliteDatabase`) migrates its schema and turns on
WAL. The checks made before that (is a purge left running, does a purge
request select anything, which trashed items are past their window) must change
no byte of the folder and must read a file of any schema version, where a
table may be missing; so they read through a plain sqlite3 connection. The one
write here, `drop_trash_row`, is the trash emptier's, in a child process that
holds no store; it zeroes the deleted bytes, as a purge does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import datetime
from pathlib import Path

from memory_lab.stores.sqlite_db import time_key


def _tables(conn: sqlite3.Connection) -> set[str]:
    found = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {row[0] for row in found}


def any_running_purge(database: Path) -> bool:
    """Whether the database records a purge not finished (one query)."""
    if not database.is_file():
        return False
    with closing(sqlite3.connect(database, timeout=30)) as conn:
        return "purges" in _tables(conn) and bool(
            conn.execute(
                "SELECT 1 FROM purges WHERE status = 'running' LIMIT 1"
            ).fetchone()
        )


class HeldRecords:
    """What a tenant holds in a database file, asked one question at a time."""

    def __init__(self, conn: sqlite3.Connection, tenant: str) -> None:
        """Ask through `conn` about `tenant`."""
        self._conn = conn
        self._tenant = tenant
        self._tables = _tables(conn)

    def _count(self, table: str, where: str = "", *params: object) -> int:
        if table not in self._tables:
            return 0
        sql = f"SELECT COUNT(*) FROM {table} WHERE tenant = ?{where}"
        return int(self._conn.execute(sql, (self._tenant, *params)).fetchone()[0])

    def any(self) -> bool:
        """Whether the tenant holds any turn, fact, event or thread."""
        tables = ("messages", "facts", "events", "memory_threads")
        return any(self._count(t) for t in tables)

    def fact(self, fact_id: str) -> bool:
        """Whether the tenant holds this fact row."""
        return bool(self._count("facts", " AND id = ?", fact_id))

    def chat(self, chat: str) -> bool:
        """Whether a turn's session or thread, or a fact's session, is `chat`."""
        return bool(
            self._count("messages", " AND (session = ? OR thread = ?)", chat, chat)
            or self._count("facts", " AND session = ?", chat)
        )

    def episode(self, episode_id: str) -> bool:
        """Whether the tenant holds this committed episode."""
        return bool(self._count("memory_episodes", " AND id = ?", episode_id))

    def before(self, when: datetime) -> bool:
        """Whether a fact was made or a turn stamped before `when`."""
        conn, tenant = self._conn, self._tenant
        if (
            "facts" in self._tables
            and conn.execute(
                "SELECT 1 FROM facts WHERE tenant = ? AND created_key < ? LIMIT 1",
                (tenant, time_key(when)),
            ).fetchone()
        ):
            return True
        if "messages" not in self._tables:
            return False
        # Turns keep the offsets they were stamped with: compare instants, not text.
        stamps = conn.execute(
            "SELECT timestamp FROM messages WHERE tenant = ?", (tenant,)
        )
        return any(datetime.fromisoformat(s) < when for (s,) in stamps)


@contextmanager
def held_records(database: Path, tenant: str) -> Iterator[HeldRecords]:
    """The tenant's records in the file; nothing but reads is asked of it."""
    with closing(sqlite3.connect(database)) as conn:
        yield HeldRecords(conn, tenant)


TrashedRow = tuple[str, str, str, str]
"""(tenant, kind, item, trashed_at) of a trashed fact, episode or chat."""


def trashed_rows(database: Path) -> list[TrashedRow]:
    """Every trashed fact and episode, then every trashed chat (kind "chat").

    Facts and episodes come by tenant, kind and item; chats by tenant and
    thread. A file with neither table has none.
    """
    if not database.is_file():
        return []
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        tables = _tables(conn)
        items: list[TrashedRow] = []
        if "trash" in tables:
            items = conn.execute(
                "SELECT tenant, kind, item, trashed_at FROM trash"
                " ORDER BY tenant, kind, item"
            ).fetchall()
        chats: list[TrashedRow] = []
        if "chats" in tables:
            chats = conn.execute(
                "SELECT tenant, 'chat', thread, trashed_at FROM chats"
                " WHERE trashed_at IS NOT NULL ORDER BY tenant, thread"
            ).fetchall()
    return [(r[0], r[1], r[2], r[3]) for r in [*items, *chats]]


def fact_status(database: Path, tenant: str, fact_id: str) -> str | None:
    """The fact row's status ("active", ...), None when it is not held."""
    with closing(sqlite3.connect(database)) as conn:
        row = conn.execute(
            "SELECT status FROM facts WHERE tenant = ? AND id = ?", (tenant, fact_id)
        ).fetchone()
    return None if row is None else row[0]


def drop_trash_row(database: Path, tenant: str, kind: str, item: str) -> None:
    """Delete the trash (or trashed chat) row of an item, its bytes zeroed."""
    with closing(sqlite3.connect(database)) as conn, conn:
        conn.execute("PRAGMA secure_delete = ON")
        if kind == "chat":
            conn.execute(
                "DELETE FROM chats WHERE tenant = ? AND thread = ?", (tenant, item)
            )
        else:
            conn.execute(
                "DELETE FROM trash WHERE tenant = ? AND kind = ? AND item = ?",
                (tenant, kind, item),
            )
