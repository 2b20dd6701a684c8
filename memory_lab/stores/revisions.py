"""Per-tenant revision counters: how a cache learns another writer changed its rows.

Engines cache what they read (active facts, the excerpt index). Another engine
on the same database, or another process, writes without telling them, so each
kind of cached record has a counter, moved in the transaction that changes the
rows; a reader compares it with the one its cache was built at.
"""

from __future__ import annotations

from typing import Any, Literal

RevisionKind = Literal["facts", "episodes", "items"]


def bump(conn: Any, tenant: str, kind: RevisionKind) -> None:
    """Move the tenant's counter, inside the transaction that changed its rows."""
    conn.execute(
        "INSERT INTO memory_revisions (tenant, kind, revision) VALUES (?, ?, 1)"
        " ON CONFLICT (tenant, kind) DO UPDATE"
        " SET revision = memory_revisions.revision + 1",
        (tenant, kind),
    )


def read(conn: Any, tenant: str, kind: RevisionKind) -> int:
    """The tenant's counter (0 before any change was counted)."""
    row = conn.execute(
        "SELECT revision FROM memory_revisions WHERE tenant = ? AND kind = ?",
        (tenant, kind),
    ).fetchone()
    return 0 if row is None else int(row[0])
