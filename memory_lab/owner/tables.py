"""A tenant's rows the stores offer no call for, as the export file's records.

Messages with their thread, thread states, jobs, chats and trash rows are read
and written whole by `stores.sql_tenant_rows`, inside the caller's
transaction; this module names the record model each table maps to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory_lab.owner.records import (
    ChatRow,
    JobRow,
    ThreadState,
    TranscriptRow,
    TrashRow,
)
from memory_lab.stores import sql_tenant_rows as rows
from memory_lab.stores.sql_tenant_rows import TENANT_TABLES, held_rows

__all__ = [
    "TENANT_TABLES",
    "held_rows",
    "read_chats",
    "read_jobs",
    "read_messages",
    "read_threads",
    "read_trash",
    "write_chats",
    "write_jobs",
    "write_messages",
    "write_threads",
    "write_trash",
]


def read_messages(conn: Any, tenant: str) -> list[TranscriptRow]:
    """Every message of the tenant, with its thread, in seq order."""
    return rows.read_messages(conn, tenant, TranscriptRow)


def write_messages(conn: Any, tenant: str, messages: Sequence[TranscriptRow]) -> None:
    """Insert messages with their own seqs and threads."""
    rows.write_messages(conn, tenant, messages)


def read_threads(conn: Any, tenant: str) -> list[ThreadState]:
    """Every thread's watermarks and running summary, by thread name."""
    return rows.read_records(conn, "memory_threads", ThreadState, tenant, "thread")


def write_threads(conn: Any, tenant: str, threads: Sequence[ThreadState]) -> None:
    """Insert thread states."""
    rows.write_records(conn, "memory_threads", tenant, threads)


def read_jobs(conn: Any, tenant: str) -> list[JobRow]:
    """Every job of the tenant in the order it was recorded."""
    return rows.read_records(conn, "memory_jobs", JobRow, tenant, "id")


def write_jobs(conn: Any, tenant: str, jobs: Sequence[JobRow]) -> None:
    """Insert jobs in order; the database numbers them."""
    rows.write_records(conn, "memory_jobs", tenant, jobs, one_by_one=True)


def read_chats(conn: Any, tenant: str) -> list[ChatRow]:
    """The tenant's chat catalog rows (titles, trash), by thread."""
    return rows.read_records(conn, "chats", ChatRow, tenant, "thread")


def write_chats(conn: Any, tenant: str, chats: Sequence[ChatRow]) -> None:
    """Insert chat catalog rows as they were."""
    rows.write_records(conn, "chats", tenant, chats)


def read_trash(conn: Any, tenant: str) -> list[TrashRow]:
    """The tenant's trashed facts and episodes, by kind and id."""
    return rows.read_records(conn, "trash", TrashRow, tenant, "kind, item")


def write_trash(conn: Any, tenant: str, rows_: Sequence[TrashRow]) -> None:
    """Insert trash rows as they were."""
    rows.write_records(conn, "trash", tenant, rows_)
