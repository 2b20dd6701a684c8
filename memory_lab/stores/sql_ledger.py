"""SQL for the job ledger's three tables: thread marks, jobs and committed episodes.

`jobs.ledger.JobLedger` decides what to read and write and holds the transaction;
these functions are its statements, in the stores' portable SQL (`?`
placeholders, `ON CONFLICT`, `RETURNING`), run on the connection the ledger
hands them. The tables are made by the migrations (`stores.schema`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from memory_lab.stores.base import Connection, upsert_row

PAGE = 900
"""Ids per `IN (...)`: under SQLite's limit on bound variables."""


# --- thread marks ----------------------------------------------------------------


def read_marks(conn: Connection, tenant: str, thread: str) -> Any | None:
    """The thread's row of `memory_threads`, or None for a thread not seen yet."""
    return conn.execute(
        "SELECT * FROM memory_threads WHERE tenant = ? AND thread = ?",
        (tenant, thread),
    ).fetchone()


def marked_threads(conn: Connection, tenant: str) -> list[str]:
    """The tenant's threads that have a row of marks, by name."""
    rows = conn.execute(
        "SELECT thread FROM memory_threads WHERE tenant = ? ORDER BY thread",
        (tenant,),
    ).fetchall()
    return [row["thread"] for row in rows]


def write_marks(
    conn: Connection, tenant: str, thread: str, marks: Mapping[str, Any]
) -> None:
    """Insert or overwrite the thread's marks (column name to value)."""
    upsert_row(conn, "memory_threads", {"tenant": tenant, "thread": thread}, marks)


# --- jobs ------------------------------------------------------------------------


def insert_jobs(
    conn: Connection,
    tenant: str,
    thread: str,
    jobs: Sequence[tuple[str, int, int, str]],
    asked_at: str | None,
    owner: str,
) -> None:
    """Record pending (kind, first_seq, last_seq, trigger) jobs; a repeat is ignored."""
    conn.executemany(
        "INSERT INTO memory_jobs (tenant, thread, kind, first_seq,"
        " last_seq, trigger, asked_at, status, owner) VALUES (?, ?, ?, ?, ?,"
        " ?, ?, 'pending', ?) ON CONFLICT DO NOTHING",
        [
            (tenant, thread, kind, first, last, trigger, asked_at, owner)
            for kind, first, last, trigger in jobs
        ],
    )


def pending_jobs(conn: Connection, owner: str | None, limit: int) -> list[Any]:
    """Rows of the pending jobs (of `owner`, if given), oldest first."""
    sql, params = "SELECT * FROM memory_jobs WHERE status = 'pending'", []
    if owner is not None:
        sql += " AND owner = ?"
        params.append(owner)
    return conn.execute(sql + " ORDER BY id LIMIT ?", (*params, limit)).fetchall()


def count_jobs(conn: Connection, status: str, tenant: str | None) -> int:
    """How many jobs (of one tenant, if given) have `status`."""
    sql, params = "SELECT COUNT(*) FROM memory_jobs WHERE status = ?", [status]
    if tenant is not None:
        sql += " AND tenant = ?"
        params.append(tenant)
    return int(conn.execute(sql, params).fetchone()[0])


def job_status(conn: Connection, tenant: str, job_id: int) -> str | None:
    """The job's status, or None for no such job."""
    row = conn.execute(
        "SELECT status FROM memory_jobs WHERE tenant = ? AND id = ?",
        (tenant, job_id),
    ).fetchone()
    return None if row is None else row["status"]


def mark_job_done(conn: Connection, tenant: str, job_id: int) -> None:
    """Set the job's status to done."""
    conn.execute(
        "UPDATE memory_jobs SET status = 'done' WHERE tenant = ? AND id = ?",
        (tenant, job_id),
    )


def count_failed_attempt(
    conn: Connection, tenant: str, job_id: int, error: str, max_attempts: int
) -> str | None:
    """Add one attempt and its error; failed at `max_attempts`. The new status."""
    row = conn.execute(
        "UPDATE memory_jobs SET attempts = attempts + 1, error = ?,"
        " status = CASE WHEN attempts + 1 >= ? THEN 'failed' ELSE status END"
        " WHERE tenant = ? AND id = ? RETURNING status",
        (error, max_attempts, tenant, job_id),
    ).fetchone()
    return None if row is None else row["status"]


# --- committed episodes ----------------------------------------------------------


def insert_episodes(
    conn: Connection, tenant: str, rows: Sequence[tuple[str, str, int, int, str]]
) -> None:
    """Record (id, thread, first_seq, last_seq, record) rows; a known id is kept."""
    conn.executemany(
        "INSERT INTO memory_episodes (tenant, id, thread, first_seq,"
        " last_seq, record) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [(tenant, *row) for row in rows],
    )


def episode_records(
    conn: Connection, tenant: str, ids: Sequence[str] | None
) -> list[str]:
    """The stored records (JSON) of the tenant's episodes, or of those in `ids`."""
    sql = "SELECT record FROM memory_episodes WHERE tenant = ?"
    if ids is None:
        rows = conn.execute(sql, (tenant,)).fetchall()
    else:
        rows = _in_pages(conn, sql, tenant, ids)
    return [r["record"] for r in rows]


def episode_ids(conn: Connection, tenant: str, ids: Sequence[str]) -> set[str]:
    """Which of `ids` the tenant has in `memory_episodes`."""
    rows = _in_pages(
        conn, "SELECT id FROM memory_episodes WHERE tenant = ?", tenant, ids
    )
    return {r["id"] for r in rows}


def count_episodes(conn: Connection, tenant: str) -> int:
    """How many committed episodes the tenant has."""
    return int(
        conn.execute(
            "SELECT COUNT(*) FROM memory_episodes WHERE tenant = ?", (tenant,)
        ).fetchone()[0]
    )


def episode_tenants(conn: Connection) -> list[str]:
    """Tenants with at least one committed episode."""
    rows = conn.execute("SELECT DISTINCT tenant FROM memory_episodes").fetchall()
    return [r["tenant"] for r in rows]


def _in_pages(conn: Connection, sql: str, tenant: str, ids: Sequence[str]) -> list[Any]:
    rows: list[Any] = []
    for start in range(0, len(ids), PAGE):
        chunk = ids[start : start + PAGE]
        rows += conn.execute(
            f"{sql} AND id IN ({', '.join('?' * len(chunk))})", (tenant, *chunk)
        ).fetchall()
    return rows
