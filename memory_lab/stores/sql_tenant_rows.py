"""SQL for what the stores offer no call for: a tenant's rows read and written whole.

The transcript hands out messages without their thread and appends with new
seqs; the ledger has no list of a tenant's threads or jobs. An export must read
those rows as they are and an import write them back as they were (the same
seq, even where a purge left gaps), so this module does, in the stores'
portable SQL (`?` placeholders), inside the caller's transaction. Rows are read
into, and written from, the record model the caller names: its fields other
than `tenant` are the table's columns (`owner.tables` names the models).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

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

MESSAGE_COLUMNS = (
    "seq",
    "id",
    "thread",
    "session",
    "role",
    "content",
    "timestamp",
    "speaker",
    "restated",
)
"""The columns of a message row an export carries, in the table's order."""


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


def read_messages(conn: Any, tenant: str, model: type[_R]) -> list[_R]:
    """Every message of the tenant, with its thread, in seq order."""
    rows = conn.execute(
        f"SELECT {', '.join(MESSAGE_COLUMNS)} FROM messages WHERE tenant = ?"
        " ORDER BY seq",
        (tenant,),
    ).fetchall()
    return [
        model.model_validate(
            {**dict(r), "tenant": tenant, "restated": decode_json(r["restated"])}
        )
        for r in rows
    ]


def write_messages(conn: Any, tenant: str, messages: Sequence[Record]) -> None:
    """Insert messages with their own seqs and threads."""

    def cell(message: Record, column: str) -> Any:
        value = getattr(message, column)
        if column == "restated":
            return encode_json(value)
        return encode_time(value) if column == "timestamp" else value

    conn.executemany(
        f"INSERT INTO messages (tenant, {', '.join(MESSAGE_COLUMNS)})"
        f" VALUES ({', '.join('?' * (len(MESSAGE_COLUMNS) + 1))})",
        [(tenant, *(cell(m, c) for c in MESSAGE_COLUMNS)) for m in messages],
    )


def read_records(
    conn: Any, table: str, model: type[_R], tenant: str, order: str
) -> list[_R]:
    """The tenant's rows of a table whose columns are the model's fields."""
    columns = [f for f in model.model_fields if f != "tenant"]
    rows = conn.execute(
        f"SELECT {', '.join(columns)} FROM {table} WHERE tenant = ? ORDER BY {order}",
        (tenant,),
    ).fetchall()
    return [model.model_validate({**dict(r), "tenant": tenant}) for r in rows]


def write_records(
    conn: Any,
    table: str,
    tenant: str,
    records: Sequence[Record],
    *,
    one_by_one: bool = False,
) -> None:
    """Insert records as they were, times as the stores encode them.

    `one_by_one` for a table the database numbers (jobs), so the numbers follow
    the records' order on every database.
    """
    if not records:
        return
    columns = [f for f in type(records[0]).model_fields if f != "tenant"]

    def cell(value: Any) -> Any:
        return encode_time(value) if isinstance(value, datetime) else value

    sql = (
        f"INSERT INTO {table} (tenant, {', '.join(columns)})"
        f" VALUES ({', '.join('?' * (len(columns) + 1))})"
    )
    rows = [(tenant, *(cell(getattr(r, n)) for n in columns)) for r in records]
    if one_by_one:
        for row in rows:
            conn.execute(sql, row)
    else:
        conn.executemany(sql, rows)
