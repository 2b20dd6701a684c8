"""One Postgres schema holding the transcript, facts, events and job ledger.

`PostgresDatabase` is a `Database` like `SqliteDatabase`: `read()` and `write()`
transactions that join an enclosing one on the same thread, so a job's results
and its completion still commit together. The stores' SQL is the same for both;
this module translates the placeholders.

Each engine keeps to one Postgres schema (its namespace). The tables there are
made and changed only by the numbered steps of `memory_lab.stores.schema`,
applied under a lock by `memory_lab.stores.migrations`, as on SQLite.

Writes are serialised per namespace by a transaction-scoped advisory lock: the
read-then-write steps (the next `seq`, an id's existence) then behave as under
SQLite's `BEGIN IMMEDIATE`, across every process and machine using the schema.
Reads run in `REPEATABLE READ` transactions, so each sees one snapshot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from memory_lab.stores.locations import DEFAULT_NAMESPACE, namespace_key, store_url
from memory_lab.stores.migrations import SchemaVersionError, migrate
from memory_lab.stores.schema import LATEST, POSTGRES, step_statements
from memory_lab.stores.transactions import JoinedTransactions

MIGRATIONS: tuple[tuple[str, ...], ...] = step_statements(POSTGRES)
"""Each step's statements in Postgres, from the one schema source."""

SCHEMA_VERSION = LATEST
"""The layout this code reads and writes."""

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "PostgresDatabase", "SchemaVersionError"]


class PostgresDatabase(JoinedTransactions):
    """A connection to one namespace (schema) of a Postgres database.

    One connection per instance, guarded by a lock within the process, as with
    `SqliteDatabase`; the stores of one engine share it.
    """

    def __init__(
        self,
        url: str,
        namespace: str = DEFAULT_NAMESPACE,
        *,
        connect_timeout_s: int = 10,
    ) -> None:
        """Connect, then bring the namespace's tables to `SCHEMA_VERSION`.

        Args:
            url: A `postgresql://user:password@host:port/database` URL.
            namespace: The schema this engine's tables live in (made if absent).
            connect_timeout_s: How long to wait for the server to answer.

        Raises:
            StoreURLError: for a URL that is not a Postgres one.
            SchemaVersionError: when the namespace was migrated by newer code.
            psycopg.OperationalError: when the server cannot be reached.
        """
        import psycopg

        self.integrity_errors: tuple[type[Exception], ...] = (
            psycopg.errors.IntegrityError,
        )
        self.schema = namespace_key(namespace)
        self._conn = psycopg.connect(
            store_url(url),
            autocommit=True,
            connect_timeout=connect_timeout_s,
            row_factory=_row_factory,
        )
        self._start_transactions()
        # Advisory lock keys: one for this namespace's writes, one for migrating.
        self._write_key = _lock_key(f"write:{self.schema}")
        self._migrate_key = _lock_key(f"migrate:{self.schema}")
        try:
            self._migrate()
        except BaseException:
            self._conn.close()
            raise

    def _migrate(self) -> None:
        conn = self._conn
        with conn.transaction():
            # Two processes opening a new namespace at once: one migrates, the
            # other waits here and then finds the work done.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (self._migrate_key,))
            conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            conn.execute(f'SET LOCAL search_path TO "{self.schema}"')
            migrate(
                _Connection(conn),
                POSTGRES,
                f"schema {self.schema!r}",
                # Read when called, so a test can stop at an older version.
                target=SCHEMA_VERSION,
            )
        conn.execute(f'SET search_path TO "{self.schema}"')

    def version(self) -> int:
        """The namespace's schema version."""
        with self.read() as conn:
            return int(
                conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
            )

    def _begin(self, *, write: bool) -> None:
        if not write:
            self._conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return
        self._conn.execute("BEGIN")
        self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (self._write_key,))

    def _commit(self) -> None:
        self._conn.execute("COMMIT")

    def _handle(self) -> _Connection:
        return _Connection(self._conn)

    def _rollback(self) -> None:
        import psycopg

        # A dropped connection cannot roll back; the server already has.
        try:
            self._conn.execute("ROLLBACK")
        except psycopg.Error:
            pass

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        with self._lock:
            self._conn.close()


class _Connection:
    """The part of `sqlite3.Connection` the stores use, with `?` placeholders."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(_placeholders(sql), tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        cursor = self._conn.cursor()
        rows = [tuple(r) for r in rows]
        if rows:
            cursor.executemany(_placeholders(sql), rows)
        return cursor


def _placeholders(sql: str) -> str:
    # The stores' SQL has no string literals holding `?` or `%`.
    return sql.replace("%", "%%").replace("?", "%s")


class _Row:
    """A result row readable by position and by column name, like `sqlite3.Row`."""

    __slots__ = ("_index", "_values")

    def __init__(self, values: Sequence[Any], index: dict[str, int]) -> None:
        self._values = values
        self._index = index

    def __getitem__(self, key: int | str) -> Any:
        if isinstance(key, str):
            return self._values[self._index[key]]
        return self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._index)


def _row_factory(cursor: Any):
    names = [c.name for c in cursor.description or ()]
    index = {name: i for i, name in enumerate(names)}

    def make(values: Sequence[Any]) -> _Row:
        return _Row(values, index)

    return make


def _lock_key(name: str) -> int:
    """A signed 64-bit advisory lock key for a name."""
    digest = hashlib.sha1(f"memory-lab:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)
