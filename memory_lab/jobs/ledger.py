"""The job ledger: what memory work is owed, what is done, and what is compressed.

Everything here lives in the same database (a SQLite file, or Postgres) as the
transcript, facts and events, so a job row is written in the transaction that
asks for it, and a job's results are written in the transaction that marks it
done. Three tables:

- `memory_threads`: per thread, how far each kind of work has been asked for and
  committed, plus the running summary. The window is derived, never stored: it
  is the thread's turns past `compressed_upto`.
- `memory_jobs`: one row per job, unique per (tenant, thread, kind, first_seq), so
  asking twice for the same work records it once.
- `memory_episodes`: every committed episode, in full. It is the truth about what
  is compressed; the Chroma collection is a search index over it.

The statements themselves are `stores.sql_ledger`'s; this module decides what to
read and write, and in which transaction.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Literal

from memory_lab.errors import require_tenant
from memory_lab.stores import revisions, sql_ledger
from memory_lab.stores.base import Database
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import encode_time
from memory_lab.stores.tenancy import require_owned
from memory_lab.types import Episode

JobKind = Literal["compress", "extract", "retention"]

MAX_ATTEMPTS = 3
"""A job that raised this many times is marked failed instead of retried forever."""

EPISODES_DECODED_KEPT = 8_192
"""Decoded episodes remembered per ledger: every probe of an eval reads them all
(what the memory stores), and decoding each again grew with the history."""


@dataclass(frozen=True)
class ThreadMarks:
    """How far each kind of work on one thread has been asked for and done.

    All values are transcript seqs (per tenant); -1 means none yet.
    """

    decided_upto: int = -1
    """Every turn up to here went through a trigger decision."""
    planned_upto: int = -1
    """Compression jobs cover the turns up to here (done or not)."""
    compressed_upto: int = -1
    """Committed episodes cover the turns up to here: the window starts after it."""
    extract_planned_upto: int = -1
    """Extraction jobs cover the turns up to here (done or not)."""
    extracted_upto: int = -1
    """Extraction has committed the facts of the turns up to here."""
    summary: str = ""
    """The running summary of everything compressed."""
    session: str = ""
    """The session of the last decided turn (a change flushes extraction)."""


@dataclass(frozen=True)
class Job:
    """One unit of memory work over a thread's turns first_seq..last_seq.

    A retention job is tenant-wide: its first_seq and last_seq both hold the
    number of the retention period it was asked in (one job per period).
    """

    id: int
    tenant: str
    thread: str
    kind: JobKind
    first_seq: int
    last_seq: int
    trigger: str
    """Which triggers asked for a compression ('' for extraction)."""
    asked_at: datetime
    """The clock when the turn asked for it: the work's own 'now', so the result
    does not depend on when the worker gets to it."""
    attempts: int = 0


class JobLedger:
    """Jobs, thread watermarks and committed episodes in one SQL database."""

    def __init__(self, path: str | Path | Database) -> None:
        """Open the ledger in `path` (a file, ":memory:", or a shared database)."""
        self.db = database_at(path)
        # Keyed by the stored record, so an episode rewritten in any way is
        # decoded afresh; an `Episode` is frozen, so one can be handed out twice.
        self._episode_of = functools.lru_cache(maxsize=EPISODES_DECODED_KEPT)(
            Episode.model_validate_json
        )

    # --- threads -----------------------------------------------------------------

    def marks(self, tenant: str, thread: str) -> ThreadMarks:
        """The thread's watermarks (all -1 for a new thread)."""
        tenant = require_tenant(tenant)
        with self.db.read() as conn:
            row = sql_ledger.read_marks(conn, tenant, thread)
        if row is None:
            return ThreadMarks()
        return ThreadMarks(**{f.name: row[f.name] for f in fields(ThreadMarks)})

    def threads(self, tenant: str) -> list[str]:
        """The tenant's threads with marks (a step has run on each), by name."""
        tenant = require_tenant(tenant)
        with self.db.read() as conn:
            return sql_ledger.marked_threads(conn, tenant)

    def save_marks(self, tenant: str, thread: str, marks: ThreadMarks) -> None:
        """Store the thread's watermarks (inside the caller's transaction, if any)."""
        tenant = require_tenant(tenant)
        names = [f.name for f in fields(ThreadMarks)]
        with self.db.write() as conn:
            sql_ledger.write_marks(
                conn, tenant, thread, {n: getattr(marks, n) for n in names}
            )

    # --- jobs --------------------------------------------------------------------

    def add_jobs(
        self,
        tenant: str,
        thread: str,
        jobs: Sequence[tuple[JobKind, int, int, str]],
        asked_at: datetime,
        *,
        owner: str = "",
    ) -> None:
        """Record (kind, first_seq, last_seq, trigger) jobs; a repeat is ignored.

        `owner` names the configuration that must run them (see `pending`).
        """
        tenant = require_tenant(tenant)
        when = encode_time(asked_at)
        with self.db.write() as conn:
            sql_ledger.insert_jobs(conn, tenant, thread, jobs, when, owner)

    def pending(self, owner: str | None = None, limit: int = 64) -> list[Job]:
        """Jobs still owed, oldest first (the order they must run in per thread).

        With `owner`, only the jobs that configuration recorded: an engine with
        another recipe or brain on the same folder must not do them its way.
        This is the worker's read across tenants; each job names its tenant, and
        every later call on it is scoped to that tenant.
        """
        with self.db.read() as conn:
            rows = sql_ledger.pending_jobs(conn, owner, limit)
        return [_job(row) for row in rows]

    def count(self, tenant: str | None = None, *, status: str = "pending") -> int:
        """How many jobs (of one tenant, if given) have `status`."""
        tenant = None if tenant is None else require_tenant(tenant)
        with self.db.read() as conn:
            return sql_ledger.count_jobs(conn, status, tenant)

    def claim(self, job: Job) -> bool:
        """Whether the job is still owed; call inside the transaction that finishes it.

        Two workers (two processes on one folder) may both do a job; only the first
        to commit keeps its result.
        """
        tenant = require_tenant(job.tenant)
        with self.db.read() as conn:
            return sql_ledger.job_status(conn, tenant, job.id) == "pending"

    def finish(self, job: Job) -> None:
        """Mark the job done (inside the transaction that stores its result)."""
        tenant = require_tenant(job.tenant)
        with self.db.write() as conn:
            sql_ledger.mark_job_done(conn, tenant, job.id)

    def record_failure(self, job: Job, error: str) -> bool:
        """Count a failed attempt; returns whether the job is now given up."""
        tenant = require_tenant(job.tenant)
        with self.db.write() as conn:
            status = sql_ledger.count_failed_attempt(
                conn, tenant, job.id, error[:2000], MAX_ATTEMPTS
            )
        return status == "failed"

    # --- committed episodes ------------------------------------------------------

    def commit_episodes(self, tenant: str, episodes: Sequence[Episode]) -> int:
        """Record episodes as committed; an id already recorded is kept as it was.

        Returns the tenant's episode revision after this commit (see
        `episodes_revision`).
        """
        tenant = require_owned(tenant, episodes)
        with self.db.write() as conn:
            revisions.bump(conn, tenant, "episodes")
            sql_ledger.insert_episodes(
                conn,
                tenant,
                [
                    (e.id, e.thread, e.first_seq, e.last_seq, e.model_dump_json())
                    for e in episodes
                ],
            )
            return revisions.read(conn, tenant, "episodes")

    def episodes_revision(self, tenant: str) -> int:
        """A number every change to the tenant's committed episodes moves.

        Commits, trash moves and purges move it, through any engine or process,
        so a cache built from the episodes (the excerpt index) sees a change it
        was not told about.
        """
        tenant = require_tenant(tenant)
        with self.db.read() as conn:
            return revisions.read(conn, tenant, "episodes")

    def episodes(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """Committed episodes (those named by `ids`, if given), in seq order."""
        tenant = require_tenant(tenant)
        wanted = None if ids is None else list(dict.fromkeys(ids))
        with self.db.read() as conn:
            records = sql_ledger.episode_records(conn, tenant, wanted)
        found = [self._episode_of(r) for r in records]
        return sorted(found, key=lambda e: (e.first_seq, e.last_seq, e.id))

    def committed_ids(self, tenant: str, ids: Sequence[str]) -> set[str]:
        """Which of `ids` are committed episodes of the tenant."""
        tenant = require_tenant(tenant)
        with self.db.read() as conn:
            return sql_ledger.episode_ids(conn, tenant, list(dict.fromkeys(ids)))

    def episode_count(self, tenant: str) -> int:
        """How many committed episodes the tenant has."""
        with self.db.read() as conn:
            return sql_ledger.count_episodes(conn, require_tenant(tenant))

    def episode_tenants(self) -> list[str]:
        """Tenants with at least one committed episode (the index check at open)."""
        with self.db.read() as conn:
            return sql_ledger.episode_tenants(conn)


def _job(row: sqlite3.Row) -> Job:
    return Job(
        id=row["id"],
        tenant=row["tenant"],
        thread=row["thread"],
        kind=row["kind"],
        first_seq=row["first_seq"],
        last_seq=row["last_seq"],
        trigger=row["trigger"],
        asked_at=datetime.fromisoformat(row["asked_at"]),
        attempts=row["attempts"],
    )
