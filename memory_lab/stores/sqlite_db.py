"""One SQLite file shared safely by threads and processes, plus column codecs.

The transcript, fact, event and job stores may all live in one file (for instance
`<data_dir>/memory.sqlite3`). Each opens its own connection, or they share one
`SqliteDatabase`, so that a caller can make several stores' writes one
transaction (a job's fact writes and its completion, for instance).

The stores' SQL is kept portable (`?` placeholders, `ON CONFLICT`, no PRAGMA
outside this file), so the same stores also run on a `PostgresDatabase`, the
other `Database`. Both make their tables by the same numbered migrations.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memory_lab.stores.migrations import migrate
from memory_lab.stores.schema import SQLITE
from memory_lab.stores.transactions import JoinedTransactions

MEMORY = ":memory:"
"""Path that opens a private, unshared in-memory database."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class SqliteDatabase(JoinedTransactions):
    """A connection to one SQLite file, serialised within the process.

    WAL lets readers in other processes proceed while one writes; `busy_timeout`
    makes a second writer wait instead of failing; every write runs in a
    `BEGIN IMMEDIATE` transaction so that read-then-write steps (allocating the
    next `seq`, checking for an existing id) cannot interleave across processes.
    Within a process one connection is guarded by a lock, which keeps `:memory:`
    databases usable from several threads.
    """

    integrity_errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)
    """What a write raises when a unique key refuses a row."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = 30_000,
        secure_delete: bool = False,
    ) -> None:
        """Open (creating if needed) the file, then bring its tables up to date.

        Args:
            path: File path, or ":memory:" for a private database.
            busy_timeout_ms: How long a writer waits for another's lock.
            secure_delete: Overwrite deleted rows with zeros, so a purge leaves
                no copy of them in free pages (SQLite otherwise only unlinks).
        """
        self.path = str(path)
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # Autocommit mode: transactions are opened explicitly, so their kind
        # (IMMEDIATE for writes) is ours to choose.
        self._conn = sqlite3.connect(
            self.path,
            isolation_level=None,
            check_same_thread=False,
            timeout=busy_timeout_ms / 1000,
        )
        self._conn.row_factory = sqlite3.Row
        self._start_transactions()
        with self._lock:
            self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL stays consistent after a crash and avoids an
            # fsync per commit.
            self._conn.execute("PRAGMA synchronous = NORMAL")
            if secure_delete:
                self._conn.execute("PRAGMA secure_delete = ON")
        # BEGIN IMMEDIATE: a second process opening a new file waits, then
        # finds the steps done.
        with self.write() as conn:
            migrate(conn, SQLITE, f"database {self.path!r}")

    def _begin(self, *, write: bool) -> None:
        # IMMEDIATE takes the file's write lock now, not at the first write, so
        # a read-then-write step cannot interleave with another process.
        self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    def _commit(self) -> None:
        self._conn.execute("COMMIT")

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")

    def _handle(self) -> sqlite3.Connection:
        return self._conn

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        with self._lock:
            self._conn.close()


def encode_time(value: datetime | None) -> str | None:
    """ISO-8601 text that keeps the offset, so a read-back compares equal."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetimes cannot be stored")
    return value.isoformat()


def time_key(value: datetime) -> int:
    """Microseconds since the epoch: sorts and filters correctly across offsets.

    ISO text with mixed offsets does not sort in time order, so ordered columns
    carry this integer beside the text.
    """
    return (value - _EPOCH) // _MICROSECOND


def encode_json(value: Any) -> str | None:
    """JSON text for a list or dict column; None stays SQL NULL."""
    if value is None:
        return None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def decode_json(text: str | None) -> Any:
    """The value `encode_json` stored."""
    return None if text is None else json.loads(text)
