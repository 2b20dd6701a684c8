"""SQL for the chat catalog's `chats` table: one row per (tenant, thread).

`chats.catalog.ChatCatalog` decides titles and the trash and holds the
transaction; these are its statements, in the stores' portable SQL, on the
connection it hands them. A purge's removal of rows is `stores.sql_erase`'s.
"""

from __future__ import annotations

from typing import Any

from memory_lab.stores.base import Connection

CHAT_COLUMNS = ("thread", "title", "titled_by", "created_at", "trashed_at")
"""A row's columns besides the tenant, in the table's order."""


def put_chat(conn: Connection, tenant: str, row: tuple[Any, ...]) -> None:
    """Insert a chat row (`CHAT_COLUMNS`), or overwrite its title and trash time."""
    conn.execute(
        "INSERT INTO chats (tenant, thread, title, titled_by, created_at,"
        " trashed_at) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (tenant, thread) DO UPDATE SET title = excluded.title,"
        " titled_by = excluded.titled_by, trashed_at = excluded.trashed_at",
        (tenant, *row),
    )


def chat_rows(conn: Connection, tenant: str) -> list[Any]:
    """Every chat row of the tenant (`CHAT_COLUMNS`, read by name)."""
    return conn.execute(
        "SELECT thread, title, titled_by, created_at, trashed_at FROM chats"
        " WHERE tenant = ?",
        (tenant,),
    ).fetchall()


def titled_by(conn: Connection, tenant: str, kinds: tuple[str, str]) -> list[Any]:
    """The tenant's rows (thread, title, titled_by) whose title came one of two ways."""
    return conn.execute(
        "SELECT thread, title, titled_by FROM chats WHERE tenant = ?"
        " AND titled_by IN (?, ?)",
        (tenant, *kinds),
    ).fetchall()


def retitle_chat(
    conn: Connection, tenant: str, thread: str, title: str, by: str
) -> int:
    """Set a chat's title and how it was made; how many rows changed."""
    return conn.execute(
        "UPDATE chats SET title = ?, titled_by = ? WHERE tenant = ? AND thread = ?",
        (title, by, tenant, thread),
    ).rowcount


def first_user_turn(conn: Connection, tenant: str, thread: str) -> str | None:
    """The text of the thread's first user turn, or None when it has none."""
    row = conn.execute(
        "SELECT content FROM messages WHERE tenant = ? AND thread = ?"
        " AND role = 'user' ORDER BY seq LIMIT 1",
        (tenant, thread),
    ).fetchone()
    return None if row is None else row["content"]


def has_turns(conn: Connection, tenant: str, thread: str) -> bool:
    """Whether the thread holds any turn."""
    return (
        conn.execute(
            "SELECT 1 FROM messages WHERE tenant = ? AND thread = ? LIMIT 1",
            (tenant, thread),
        ).fetchone()
        is not None
    )
