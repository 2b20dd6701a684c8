"""Tombstones: the lasting record that a purge happened, and its progress.

A purge's row is written before anything is deleted (status `running`, with
the plan of ids to remove) and updated as each tier finishes (the counts of
that tier), in the same transaction as that tier's deletes where the tier is
in this database. Once every tier is done the plan is cleared and the status
set to `done`: what stays is the tenant, the selection (ids or a date), who
asked, when, and how many records each tier lost; never the content.

This is its own table rather than a row of the job ledger's `memory_jobs`:
those rows are spans of one thread's turns that the worker runs through the
memory graph under the configuration that recorded them, whereas a purge must
be finished before any store is read, by whichever process opens the folder
next, and its row must outlive it as the tombstone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory_lab.stores.base import Database
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import encode_time

RUNNING, DONE = "running", "done"


@dataclass(frozen=True)
class Tombstone:
    """One purge: what was asked, by whom, and what each finished tier removed."""

    id: int
    tenant: str
    selection: dict[str, Any]
    """`{"chat": id}`, `{"fact": id}`, `{"before": iso}` or `{"everything": true}`."""
    requested_by: str
    asked_at: datetime
    finished_at: datetime | None
    status: str
    counts: dict[str, dict[str, int]]
    """Per finished tier, how many records of each kind it removed or rewrote."""
    plan: dict[str, Any] | None
    """The ids still to remove while running; None once done."""
    cache_path: str | None
    """The LLM response cache searched for purged text (a path, no content)."""


class PurgeLog:
    """The `purges` table, in the memory's own database."""

    def __init__(self, db: Database) -> None:
        """Open (creating if needed) the table in `db`."""
        self.db = database_at(db)

    def start(
        self,
        tenant: str,
        selection: dict[str, Any],
        plan: dict[str, Any],
        *,
        requested_by: str,
        at: datetime,
        cache_path: str | None,
    ) -> int:
        """Record the intent before the first delete; returns the purge's id."""
        with self.db.write() as conn:
            row = conn.execute(
                "INSERT INTO purges (tenant, selection, requested_by, asked_at,"
                " status, counts, plan, cache_path) VALUES (?, ?, ?, ?, ?, '{}', ?, ?)"
                " RETURNING id",
                (
                    tenant,
                    json.dumps(selection),
                    requested_by,
                    encode_time(at),
                    RUNNING,
                    json.dumps(plan),
                    cache_path,
                ),
            ).fetchone()
        return int(row["id"])

    def tier_done(self, purge_id: int, tier: str, counts: dict[str, int]) -> None:
        """Record a finished tier (inside that tier's transaction, where it has one)."""
        with self.db.write() as conn:
            row = conn.execute(
                "SELECT counts FROM purges WHERE id = ?", (purge_id,)
            ).fetchone()
            done = {**json.loads(row["counts"]), tier: counts}
            conn.execute(
                "UPDATE purges SET counts = ? WHERE id = ?",
                (json.dumps(done), purge_id),
            )

    def finish(self, purge_id: int, at: datetime) -> None:
        """Mark the purge done and drop its plan."""
        with self.db.write() as conn:
            conn.execute(
                "UPDATE purges SET status = ?, finished_at = ?, plan = NULL"
                " WHERE id = ?",
                (DONE, encode_time(at), purge_id),
            )

    def get(self, purge_id: int) -> Tombstone:
        """One purge's row.

        Raises:
            KeyError: when there is none with this id.
        """
        found = self._select("WHERE id = ?", purge_id)
        if not found:
            raise KeyError(f"no purge {purge_id}")
        return found[0]

    def running(self) -> list[Tombstone]:
        """Purges not finished yet, oldest first."""
        return self._select("WHERE status = ?", RUNNING)

    def tombstones(self, tenant: str | None = None) -> list[Tombstone]:
        """Every purge (of one tenant, if given), oldest first."""
        if tenant is None:
            return self._select("")
        return self._select("WHERE tenant = ?", tenant)

    def _select(self, where: str, *params: object) -> list[Tombstone]:
        with self.db.read() as conn:
            rows = conn.execute(
                f"SELECT * FROM purges {where} ORDER BY id", params
            ).fetchall()
        return [
            Tombstone(
                id=r["id"],
                tenant=r["tenant"],
                selection=json.loads(r["selection"]),
                requested_by=r["requested_by"],
                asked_at=datetime.fromisoformat(r["asked_at"]),
                finished_at=(
                    datetime.fromisoformat(r["finished_at"])
                    if r["finished_at"]
                    else None
                ),
                status=r["status"],
                counts=json.loads(r["counts"]),
                plan=json.loads(r["plan"]) if r["plan"] else None,
                cache_path=r["cache_path"],
            )
            for r in rows
        ]
