"""The purge's SQL: the deletes and rewrites the stores themselves never do.

The stores keep rows (a fact is end-dated, a turn appended for good), and a
contract test holds them to it; a purge is the one path that removes rows, so
its statements live here, in the stores' portable SQL (`?` placeholders),
inside the caller's transaction on the memory's database.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from memory_lab.stores import revisions
from memory_lab.stores.sql_tenant_rows import TENANT_TABLES
from memory_lab.types import Episode

ROW_TABLES = {
    "turns": "messages",
    "facts": "facts",
    "events": "events",
    "episodes": "memory_episodes",
}
"""Tables whose rows a purge deletes one by one, by the kind of record they hold."""

CACHED: dict[str, revisions.RevisionKind] = {"facts": "facts", "episodes": "episodes"}
"""Kinds engines cache, by the revision counter that tells them of a change."""


def delete_rows(conn: Any, kind: str, tenant: str, ids: Sequence[str]) -> int:
    """Delete the tenant's rows of one kind by id; returns how many were held."""
    table = ROW_TABLES[kind]
    sql = f"DELETE FROM {table} WHERE tenant = ? AND id = ?"
    removed = _each(conn, sql, [(tenant, i) for i in dict.fromkeys(ids)])
    if kind in CACHED:
        # Engines caching these rows read them again.
        revisions.bump(conn, tenant, CACHED[kind])
    return removed


def delete_trash(conn: Any, tenant: str, kind: str, ids: Sequence[str]) -> int:
    """Delete the trash rows of purged facts or episodes (their label quotes them)."""
    sql = "DELETE FROM trash WHERE tenant = ? AND kind = ? AND item = ?"
    return _each(conn, sql, [(tenant, kind, i) for i in dict.fromkeys(ids)])


def _each(conn: Any, sql: str, params: Sequence[tuple]) -> int:
    """Run one statement per parameter row; how many rows it touched in all."""
    return sum(conn.execute(sql, p).rowcount for p in params)


def relabel_trash(
    conn: Any, tenant: str, kind: str, ids: Sequence[str], label: str
) -> None:
    """Replace the label of trashed items whose text a purge removed."""
    conn.executemany(
        "UPDATE trash SET label = ? WHERE tenant = ? AND kind = ? AND item = ?",
        [(label, tenant, kind, i) for i in dict.fromkeys(ids)],
    )


def delete_links(conn: Any, tenant: str, fact_ids: Sequence[str]) -> int:
    """Delete the tenant's links with a purged fact at either end.

    A link holds only ids, but one left behind would point at nothing and say
    that something was there.
    """
    sql = "DELETE FROM fact_links WHERE tenant = ? AND (source = ? OR target = ?)"
    return _each(conn, sql, [(tenant, i, i) for i in dict.fromkeys(fact_ids)])


def threads(conn: Any, tenant: str) -> list[str]:
    """The tenant's threads that have watermarks."""
    rows = conn.execute(
        "SELECT thread FROM memory_threads WHERE tenant = ? ORDER BY thread",
        (tenant,),
    ).fetchall()
    return [r["thread"] for r in rows]


def replace_episodes(conn: Any, tenant: str, episodes: Sequence[Episode]) -> None:
    """Overwrite committed episodes in place (their summaries were removed)."""
    revisions.bump(conn, tenant, "episodes")
    conn.executemany(
        "UPDATE memory_episodes SET first_seq = ?, last_seq = ?, record = ?"
        " WHERE tenant = ? AND id = ?",
        [
            (e.first_seq, e.last_seq, e.model_dump_json(), tenant, e.id)
            for e in episodes
        ],
    )


def rewind(conn: Any, tenant: str, upto: int, marks: Sequence[str]) -> None:
    """Bring the tenant's `marks` (watermark columns) and jobs past `upto` back.

    `upto` is the tenant's newest turn left.

    The transcript numbers a tenant's next turn after its newest one, so once
    the newest turns are purged their seqs are given again. Marks past `upto`
    would pass those new turns over as already decided or compressed, and job
    rows past it would refuse their jobs as asked for twice. Retention jobs
    number periods, not turns, and are left alone.
    """
    cases = ", ".join(f"{n} = CASE WHEN {n} > ? THEN ? ELSE {n} END" for n in marks)
    conn.execute(
        f"UPDATE memory_threads SET {cases} WHERE tenant = ?",
        (*[upto, upto] * len(marks), tenant),
    )
    conn.execute(
        "DELETE FROM memory_jobs WHERE tenant = ? AND first_seq > ?"
        " AND kind != 'retention'",
        (tenant, upto),
    )
    conn.execute(
        "UPDATE memory_jobs SET last_seq = ? WHERE tenant = ?"
        " AND status = 'pending' AND last_seq > ? AND kind != 'retention'",
        (upto, tenant, upto),
    )


def clear_errors(conn: Any, tenant: str, seqs: Collection[int]) -> int:
    """Drop the error text of jobs over any of `seqs`: it may quote those turns."""
    failed = conn.execute(
        "SELECT id, first_seq, last_seq FROM memory_jobs WHERE tenant = ?"
        " AND error IS NOT NULL AND kind != 'retention'",
        (tenant,),
    ).fetchall()
    hit = [
        (tenant, r["id"])
        for r in failed
        if any(r["first_seq"] <= s <= r["last_seq"] for s in seqs)
    ]
    conn.executemany(
        "UPDATE memory_jobs SET error = NULL WHERE tenant = ? AND id = ?", hit
    )
    return len(hit)


def drop_tenant(conn: Any, tenant: str) -> int:
    """Delete every row of the tenant in the database, tombstones excepted.

    The revision counters stay and move, so an engine holding the tenant's
    facts or episodes in a cache drops it (a counter starting again from zero
    could come back to the value a cache was built at).
    """
    removed = sum(
        conn.execute(f"DELETE FROM {table} WHERE tenant = ?", (tenant,)).rowcount
        for table in TENANT_TABLES
    )
    for kind in (*CACHED.values(), "items"):
        revisions.bump(conn, tenant, kind)
    return removed


def delete_chats(conn: Any, tenant: str, thread: str | None = None) -> int:
    """Remove the tenant's catalog rows (of one chat, if named); how many."""
    if thread is None:
        return conn.execute("DELETE FROM chats WHERE tenant = ?", (tenant,)).rowcount
    return conn.execute(
        "DELETE FROM chats WHERE tenant = ? AND thread = ?", (tenant, thread)
    ).rowcount
