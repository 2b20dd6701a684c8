"""One Postgres schema holding the transcript, facts, events and job ledger.

`PostgresDatabase` offers what the SQL stores use of `SqliteDatabase`: `read()` and
`write()` transactions that join an enclosing one on the same thread, so a job's
results and its completion still commit together. The stores' SQL is the same
for both; this module translates the placeholders and numbers the schema.

Each engine keeps to one Postgres schema (its namespace). The tables there are
made and changed only by the numbered `MIGRATIONS`, applied in order under a lock
and recorded in `schema_version`, so every process sharing a namespace agrees on
its layout, and a newer layout is refused rather than misread.

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
from memory_lab.stores.transactions import JoinedTransactions

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the tables of the SQLite stores and ledger, with Postgres types (BIGINT
    # for seqs and microsecond keys, DOUBLE PRECISION so floats round-trip).
    (
        """
        CREATE TABLE messages (
            tenant    TEXT   NOT NULL,
            seq       BIGINT NOT NULL,
            id        TEXT   NOT NULL,
            thread    TEXT   NOT NULL,
            session   TEXT   NOT NULL,
            role      TEXT   NOT NULL,
            content   TEXT   NOT NULL,
            timestamp TEXT   NOT NULL,
            speaker   TEXT   NOT NULL,
            PRIMARY KEY (tenant, seq),
            UNIQUE (tenant, id)
        )
        """,
        "CREATE INDEX messages_thread ON messages (tenant, thread, seq)",
        """
        CREATE TABLE facts (
            tenant            TEXT             NOT NULL,
            id                TEXT             NOT NULL,
            subject           TEXT             NOT NULL,
            category          TEXT             NOT NULL,
            key               TEXT             NOT NULL,
            value             TEXT             NOT NULL,
            confidence        DOUBLE PRECISION NOT NULL,
            importance        DOUBLE PRECISION NOT NULL,
            source            TEXT             NOT NULL,
            session           TEXT             NOT NULL,
            turn_ids          TEXT             NOT NULL,
            evidence          TEXT             NOT NULL,
            valid_from        TEXT             NOT NULL,
            valid_until       TEXT,
            superseded_by     TEXT,
            expires_at        TEXT,
            last_confirmed_at TEXT             NOT NULL,
            created_at        TEXT             NOT NULL,
            created_key       BIGINT           NOT NULL,
            status            TEXT             NOT NULL,
            conflicts_with    TEXT,
            PRIMARY KEY (tenant, id)
        )
        """,
        "CREATE INDEX facts_lookup ON facts (tenant, subject, category, key)",
        """
        CREATE TABLE events (
            pos    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tenant TEXT   NOT NULL,
            id     TEXT   NOT NULL,
            at     TEXT   NOT NULL,
            at_key BIGINT NOT NULL,
            kind   TEXT   NOT NULL,
            detail TEXT   NOT NULL,
            refs   TEXT   NOT NULL,
            undo   TEXT,
            UNIQUE (tenant, id)
        )
        """,
        "CREATE INDEX events_time ON events (tenant, at_key, pos)",
        """
        CREATE TABLE memory_threads (
            tenant               TEXT   NOT NULL,
            thread               TEXT   NOT NULL,
            decided_upto         BIGINT NOT NULL,
            planned_upto         BIGINT NOT NULL,
            compressed_upto      BIGINT NOT NULL,
            extract_planned_upto BIGINT NOT NULL,
            extracted_upto       BIGINT NOT NULL,
            summary              TEXT   NOT NULL,
            session              TEXT   NOT NULL,
            PRIMARY KEY (tenant, thread)
        )
        """,
        """
        CREATE TABLE memory_jobs (
            id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tenant    TEXT    NOT NULL,
            thread    TEXT    NOT NULL,
            kind      TEXT    NOT NULL,
            first_seq BIGINT  NOT NULL,
            last_seq  BIGINT  NOT NULL,
            trigger   TEXT    NOT NULL,
            asked_at  TEXT    NOT NULL,
            status    TEXT    NOT NULL,
            attempts  INTEGER NOT NULL DEFAULT 0,
            error     TEXT,
            owner     TEXT    NOT NULL DEFAULT '',
            UNIQUE (tenant, thread, kind, first_seq)
        )
        """,
        "CREATE INDEX memory_jobs_open ON memory_jobs (status, owner, id)",
        """
        CREATE TABLE memory_episodes (
            tenant    TEXT   NOT NULL,
            id        TEXT   NOT NULL,
            thread    TEXT   NOT NULL,
            first_seq BIGINT NOT NULL,
            last_seq  BIGINT NOT NULL,
            record    TEXT   NOT NULL,
            PRIMARY KEY (tenant, id)
        )
        """,
        "CREATE INDEX memory_episodes_seq ON memory_episodes (tenant, first_seq)",
    ),
    # 2: record-time end of a fact (bitemporal facts); rows ended before it
    # existed were ended on the one axis they had.
    (
        "ALTER TABLE facts ADD COLUMN ended_at TEXT",
        "UPDATE facts SET ended_at = valid_until WHERE status != 'active'",
    ),
    # 3: the chat catalog (titles and trash; `memory_lab.chats`).
    (
        """
        CREATE TABLE chats (
            tenant     TEXT NOT NULL,
            thread     TEXT NOT NULL,
            title      TEXT NOT NULL,
            titled_by  TEXT NOT NULL,
            created_at TEXT NOT NULL,
            trashed_at TEXT,
            PRIMARY KEY (tenant, thread)
        )
        """,
    ),
    # 4: spans of a reply that restate memory (`Message.restated`); turns
    # stored before restated nothing.
    ("ALTER TABLE messages ADD COLUMN restated TEXT NOT NULL DEFAULT '[]'",),
    # 5: a fact's longer text beside its one-line summary ('' on older rows:
    # the evidence is the detail), and typed links between facts.
    (
        "ALTER TABLE facts ADD COLUMN body TEXT NOT NULL DEFAULT ''",
        """
        CREATE TABLE fact_links (
            tenant      TEXT   NOT NULL,
            id          TEXT   NOT NULL,
            type        TEXT   NOT NULL,
            source      TEXT   NOT NULL,
            target      TEXT   NOT NULL,
            origin      TEXT   NOT NULL,
            created_at  TEXT   NOT NULL,
            created_key BIGINT NOT NULL,
            ended_at    TEXT,
            PRIMARY KEY (tenant, id)
        )
        """,
        "CREATE INDEX fact_links_source ON fact_links (tenant, source)",
        "CREATE INDEX fact_links_target ON fact_links (tenant, target)",
    ),
    # 6: the trash of facts and episodes (`memory_lab.owner.trash_bin`).
    (
        """
        CREATE TABLE trash (
            tenant     TEXT NOT NULL,
            kind       TEXT NOT NULL,
            item       TEXT NOT NULL,
            label      TEXT NOT NULL,
            trashed_at TEXT NOT NULL,
            PRIMARY KEY (tenant, kind, item)
        )
        """,
    ),
    # 7: tombstones of purges (`memory_lab.owner.tombstones`): retention runs
    # the purge's tiers on a store of any kind.
    (
        """
        CREATE TABLE purges (
            id           BIGSERIAL PRIMARY KEY,
            tenant       TEXT NOT NULL,
            selection    TEXT NOT NULL,
            requested_by TEXT NOT NULL,
            asked_at     TEXT NOT NULL,
            finished_at  TEXT,
            status       TEXT NOT NULL,
            counts       TEXT NOT NULL,
            plan         TEXT,
            cache_path   TEXT
        )
        """,
    ),
    # 8: the lifecycle of each thread's session (`memory_lab.sessions`).
    (
        """
        CREATE TABLE memory_sessions (
            tenant       TEXT NOT NULL,
            thread       TEXT NOT NULL,
            session      TEXT NOT NULL,
            state        TEXT NOT NULL,
            opened_at    TEXT NOT NULL,
            last_turn_at TEXT NOT NULL,
            since        TEXT NOT NULL,
            closed_at    TEXT,
            reason       TEXT NOT NULL,
            PRIMARY KEY (tenant, thread)
        )
        """,
    ),
)
"""Schema changes in order; entry N (from 1) brings a schema to version N.

Append, never edit: a deployed database has already run the old entries.
"""

SCHEMA_VERSION = len(MIGRATIONS)
"""The layout this code reads and writes."""


class SchemaVersionError(RuntimeError):
    """The database's schema is newer than this code knows how to use."""


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
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            if current > SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"schema {self.schema!r} is at version {current}; this code "
                    f"knows up to {SCHEMA_VERSION}: upgrade memory-lab"
                )
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[version - 1]:
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_version (version) VALUES (%s)", (version,)
                )
        conn.execute(f'SET search_path TO "{self.schema}"')

    def version(self) -> int:
        """The namespace's schema version."""
        with self.read() as conn:
            return int(
                conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
            )

    def ensure(self, schema: Sequence[str]) -> None:
        """Nothing to do: `MIGRATIONS` made every store's tables at connect."""

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
