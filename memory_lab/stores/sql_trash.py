"""The `trash` table: which facts and episodes their owner deleted, and when.

A row hides its item from every read until it is restored (the row goes) or
purged (the row goes with it). Episode rows move the `episodes` revision, so
every engine on the database reads the committed episodes again. Trashed
chats are rows of the chat catalog, read here for the trash emptier.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memory_lab.stores import revisions
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import encode_time

TrashRow = tuple[str, str, str, datetime]
"""(kind, item, label, trashed_at) of one trashed fact or episode."""


class SqlTrashRows:
    """The trash table of one database (a SQLite file or Postgres)."""

    def __init__(self, database: Any) -> None:
        """Write through `database` (an open `Database`, a file or a URL)."""
        self.db = database_at(database)

    def rows(self, tenant: str) -> list[TrashRow]:
        """The tenant's trashed facts and episodes, in no particular order."""
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT kind, item, label, trashed_at FROM trash WHERE tenant = ?",
                (tenant,),
            ).fetchall()
        return [
            (r["kind"], r["item"], r["label"], datetime.fromisoformat(r["trashed_at"]))
            for r in rows
        ]

    def items(self, tenant: str, kind: str) -> set[str]:
        """Ids of the tenant's trashed items of one kind."""
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT item FROM trash WHERE tenant = ? AND kind = ?", (tenant, kind)
            ).fetchall()
        return {r["item"] for r in rows}

    def put(self, tenant: str, kind: str, item: str, label: str, at: datetime) -> None:
        """Trash an item (again: its label and time are replaced)."""
        with self.db.write() as conn:
            conn.execute(
                "INSERT INTO trash (tenant, kind, item, label, trashed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant, kind, item)"
                " DO UPDATE SET label = excluded.label,"
                " trashed_at = excluded.trashed_at",
                (tenant, kind, item, label, encode_time(at)),
            )
            if kind == "episode":
                revisions.bump(conn, tenant, "episodes")

    def remove(self, tenant: str, kind: str, item: str) -> None:
        """Remove an item's row (restored, or purged); a chat's from the catalog."""
        with self.db.write() as conn:
            if kind == "chat":
                conn.execute(
                    "DELETE FROM chats WHERE tenant = ? AND thread = ?", (tenant, item)
                )
                return
            conn.execute(
                "DELETE FROM trash WHERE tenant = ? AND kind = ? AND item = ?",
                (tenant, kind, item),
            )
            if kind == "episode":
                # Reads see the episode again, in every engine on this database.
                revisions.bump(conn, tenant, "episodes")

    def trashed(self, tenant: str) -> list[tuple[str, str, str]]:
        """(kind, item, trashed_at) of every trashed chat, fact and episode."""
        with self.db.read() as conn:
            chats = conn.execute(
                "SELECT thread, trashed_at FROM chats"
                " WHERE tenant = ? AND trashed_at IS NOT NULL",
                (tenant,),
            ).fetchall()
            items = conn.execute(
                "SELECT kind, item, trashed_at FROM trash WHERE tenant = ?", (tenant,)
            ).fetchall()
        found = [("chat", r["thread"], r["trashed_at"]) for r in chats]
        return found + [(r["kind"], r["item"], r["trashed_at"]) for r in items]
