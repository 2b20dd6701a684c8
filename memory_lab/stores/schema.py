"""Every SQL table the engine keeps, declared once and rendered for each dialect.

The transcript, facts, links, events, job ledger, sessions, chats, trash,
purge tombstones and key-value items share one database, a SQLite file or a
Postgres schema. Their layout is the numbered `STEPS` below, replayed in order by
`memory_lab.stores.migrations` on both: step N brings a database to version N.
A column added after its table was made is declared with its table (in the
order it takes there) and named again by the `AddColumn` of the step that
added it; a table made in step N holds only the columns no later step adds.

A dialect differs only in how it spells a column type and how it lists its
tables and columns, so this is a small DDL source with those hooks rather than
SQLAlchemy (which is installed, but
only as another package's dependency, and would spell identities, defaults and
autoincrement its own way): the rendered statements make the very tables the
stores have always made.

Append steps, never edit them: a deployed database has already run the old ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ColumnType = Literal["text", "integer", "bigint", "real", "blob", "identity", "serial"]
"""`bigint` holds seqs and microsecond keys; `blob` raw bytes (packed float32
vectors); `identity` and `serial` number rows (Postgres makes the first
`GENERATED ALWAYS`, the second a `BIGSERIAL`)."""


@dataclass(frozen=True)
class Dialect:
    """How one SQL database spells each column type and lists what it holds."""

    name: str
    types: dict[ColumnType, str]
    tables_sql: str
    """Names of the tables in the database (or the current schema)."""
    columns_sql: str
    """Names of the columns of the table given as the one parameter."""


SQLITE = Dialect(
    "sqlite",
    {
        "text": "TEXT",
        "integer": "INTEGER",
        "bigint": "INTEGER",
        "real": "REAL",
        "blob": "BLOB",
        "identity": "INTEGER PRIMARY KEY AUTOINCREMENT",
        "serial": "INTEGER PRIMARY KEY AUTOINCREMENT",
    },
    tables_sql="SELECT name FROM sqlite_master WHERE type = 'table'",
    columns_sql="SELECT name FROM pragma_table_info(?)",
)
POSTGRES = Dialect(
    "postgres",
    {
        "text": "TEXT",
        "integer": "INTEGER",
        "bigint": "BIGINT",
        # Floats round-trip exactly only in double precision.
        "real": "DOUBLE PRECISION",
        "blob": "BYTEA",
        "identity": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        "serial": "BIGSERIAL PRIMARY KEY",
    },
    tables_sql="SELECT table_name FROM information_schema.tables"
    " WHERE table_schema = current_schema()",
    columns_sql="SELECT column_name FROM information_schema.columns"
    " WHERE table_schema = current_schema() AND table_name = ?",
)


@dataclass(frozen=True)
class Column:
    """One column: its type, whether it may be NULL, and its SQL default."""

    name: str
    type: ColumnType = "text"
    nullable: bool = False
    default: str | None = None
    """A SQL literal, e.g. `'[]'` or `0`."""

    def ddl(self, dialect: Dialect) -> str:
        """The column's definition in a CREATE TABLE or ADD COLUMN."""
        parts = [self.name, dialect.types[self.type]]
        if self.type not in ("identity", "serial") and not self.nullable:
            parts.append("NOT NULL")
        if self.default is not None:
            parts.append(f"DEFAULT {self.default}")
        return " ".join(parts)


def _col(name: str, type: ColumnType = "text", default: str | None = None) -> Column:
    return Column(name, type, default=default)


def _opt(name: str, type: ColumnType = "text") -> Column:
    return Column(name, type, nullable=True)


@dataclass(frozen=True)
class Table:
    """A table's columns and its key constraints."""

    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()
    unique: tuple[str, ...] = ()

    def column(self, name: str) -> Column:
        """The column called `name`."""
        return next(c for c in self.columns if c.name == name)


@dataclass(frozen=True)
class Index:
    """A secondary index (made only where absent)."""

    name: str
    table: str
    columns: tuple[str, ...]


@dataclass(frozen=True)
class CreateTable:
    """Make a table where it is absent, without the columns later steps add."""

    table: Table


@dataclass(frozen=True)
class AddColumn:
    """Add a column where it is absent, then fill it in for the rows already held."""

    table: Table
    column: str
    backfill: str | None = None


@dataclass(frozen=True)
class CreateIndex:
    """Make an index where it is absent."""

    index: Index


Operation = CreateTable | AddColumn | CreateIndex

# --- tables -------------------------------------------------------------------

MESSAGES = Table(
    "messages",
    (
        _col("tenant"),
        _col("seq", "bigint"),
        _col("id"),
        _col("thread"),
        _col("session"),
        _col("role"),
        _col("content"),
        _col("timestamp"),
        _col("speaker"),
        _col("restated", default="'[]'"),
    ),
    primary_key=("tenant", "seq"),
    unique=("tenant", "id"),
)
FACTS = Table(
    "facts",
    (
        _col("tenant"),
        _col("id"),
        _col("subject"),
        _col("category"),
        _col("key"),
        _col("value"),
        _col("confidence", "real"),
        _col("importance", "real"),
        _col("source"),
        _col("session"),
        _col("turn_ids"),
        _col("evidence"),
        _col("valid_from"),
        _opt("valid_until"),
        _opt("superseded_by"),
        _opt("expires_at"),
        _col("last_confirmed_at"),
        _col("created_at"),
        _col("created_key", "bigint"),
        _col("status"),
        _opt("conflicts_with"),
        _opt("ended_at"),
        _col("body", default="''"),
    ),
    primary_key=("tenant", "id"),
)
EVENTS = Table(
    "events",
    (
        # `pos` records append order, which breaks ties between events logged
        # at the same instant.
        _col("pos", "identity"),
        _col("tenant"),
        _col("id"),
        _col("at"),
        _col("at_key", "bigint"),
        _col("kind"),
        _col("detail"),
        _col("refs"),
        _opt("undo"),
    ),
    unique=("tenant", "id"),
)
MEMORY_THREADS = Table(
    "memory_threads",
    (
        _col("tenant"),
        _col("thread"),
        _col("decided_upto", "bigint"),
        _col("planned_upto", "bigint"),
        _col("compressed_upto", "bigint"),
        _col("extract_planned_upto", "bigint"),
        _col("extracted_upto", "bigint"),
        _col("summary"),
        _col("session"),
    ),
    primary_key=("tenant", "thread"),
)
MEMORY_JOBS = Table(
    "memory_jobs",
    (
        _col("id", "identity"),
        _col("tenant"),
        _col("thread"),
        _col("kind"),
        _col("first_seq", "bigint"),
        _col("last_seq", "bigint"),
        _col("trigger"),
        _col("asked_at"),
        _col("status"),
        _col("attempts", "integer", default="0"),
        _opt("error"),
        _col("owner", default="''"),
    ),
    unique=("tenant", "thread", "kind", "first_seq"),
)
MEMORY_EPISODES = Table(
    "memory_episodes",
    (
        _col("tenant"),
        _col("id"),
        _col("thread"),
        _col("first_seq", "bigint"),
        _col("last_seq", "bigint"),
        _col("record"),
    ),
    primary_key=("tenant", "id"),
)
CHATS = Table(
    "chats",
    (
        _col("tenant"),
        _col("thread"),
        _col("title"),
        _col("titled_by"),
        _col("created_at"),
        _opt("trashed_at"),
    ),
    primary_key=("tenant", "thread"),
)
FACT_LINKS = Table(
    "fact_links",
    (
        _col("tenant"),
        _col("id"),
        _col("type"),
        _col("source"),
        _col("target"),
        _col("origin"),
        _col("created_at"),
        _col("created_key", "bigint"),
        _opt("ended_at"),
    ),
    primary_key=("tenant", "id"),
)
TRASH = Table(
    "trash",
    (
        _col("tenant"),
        _col("kind"),
        _col("item"),
        _col("label"),
        _col("trashed_at"),
    ),
    primary_key=("tenant", "kind", "item"),
)
PURGES = Table(
    "purges",
    (
        _col("id", "serial"),
        _col("tenant"),
        _col("selection"),
        _col("requested_by"),
        _col("asked_at"),
        _opt("finished_at"),
        _col("status"),
        _col("counts"),
        _opt("plan"),
        _opt("cache_path"),
    ),
)
MEMORY_REVISIONS = Table(
    "memory_revisions",
    (_col("tenant"), _col("kind"), _col("revision", "bigint")),
    primary_key=("tenant", "kind"),
)
MEMORY_SESSIONS = Table(
    "memory_sessions",
    (
        _col("tenant"),
        _col("thread"),
        _col("session"),
        _col("state"),
        _col("opened_at"),
        _col("last_turn_at"),
        _col("since"),
        _opt("closed_at"),
        _col("reason"),
    ),
    primary_key=("tenant", "thread"),
)
ITEMS = Table(
    "items",
    (
        _col("tenant"),
        # Order of first put: what a search without a query lists by.
        _col("seq", "bigint"),
        # The labels joined by '.', which no label may contain.
        _col("namespace"),
        _col("key"),
        _col("value"),
        _col("created_at"),
        _col("updated_at"),
        # The embedder that made `vectors` ('' when the item is not indexed).
        _col("model", default="''"),
        _col("dims", "integer", default="0"),
        # One float32 row of `dims` per indexed text, packed.
        _opt("vectors", "blob"),
    ),
    primary_key=("tenant", "seq"),
    unique=("tenant", "namespace", "key"),
)

# --- history --------------------------------------------------------------------

STEPS: tuple[tuple[Operation, ...], ...] = (
    # 1: the transcript, facts, events and job ledger.
    (
        CreateTable(MESSAGES),
        CreateIndex(Index("messages_thread", "messages", ("tenant", "thread", "seq"))),
        CreateTable(FACTS),
        CreateIndex(
            Index("facts_lookup", "facts", ("tenant", "subject", "category", "key"))
        ),
        CreateTable(EVENTS),
        CreateIndex(Index("events_time", "events", ("tenant", "at_key", "pos"))),
        CreateTable(MEMORY_THREADS),
        CreateTable(MEMORY_JOBS),
        CreateIndex(
            Index("memory_jobs_open", "memory_jobs", ("status", "owner", "id"))
        ),
        CreateTable(MEMORY_EPISODES),
        CreateIndex(
            Index("memory_episodes_seq", "memory_episodes", ("tenant", "first_seq"))
        ),
    ),
    # 2: record-time end of a fact (bitemporal facts); rows ended before it
    # existed were ended on the one axis they had.
    (
        AddColumn(
            FACTS,
            "ended_at",
            backfill="UPDATE facts SET ended_at = valid_until WHERE status != 'active'",
        ),
    ),
    # 3: the chat catalog (titles and trash; `memory_lab.chats`).
    (CreateTable(CHATS),),
    # 4: spans of a reply that restate memory (`Message.restated`); turns
    # stored before restated nothing.
    (AddColumn(MESSAGES, "restated"),),
    # 5: a fact's longer text beside its one-line summary ('' on older rows:
    # the evidence is the detail), and typed links between facts.
    (
        AddColumn(FACTS, "body"),
        CreateTable(FACT_LINKS),
        CreateIndex(Index("fact_links_source", "fact_links", ("tenant", "source"))),
        CreateIndex(Index("fact_links_target", "fact_links", ("tenant", "target"))),
    ),
    # 6: the trash of facts and episodes (`memory_lab.owner.trash_bin`).
    (CreateTable(TRASH),),
    # 7: tombstones of purges (`memory_lab.owner.tombstones`).
    (CreateTable(PURGES),),
    # 8: the lifecycle of each thread's session (`memory_lab.sessions`).
    (CreateTable(MEMORY_SESSIONS),),
    # 9: counters per tenant and kind of record, moved by every change, so a
    # reader caching them sees another connection's writes
    # (`memory_lab.stores.revisions`).
    (CreateTable(MEMORY_REVISIONS),),
    # 10: key-value items searched by meaning (`memory_lab.items`, the
    # LangGraph store adapter).
    (CreateTable(ITEMS),),
)
"""Schema changes in order; entry N (from 1) brings a database to version N."""

LATEST = len(STEPS)
"""The layout this code reads and writes."""

TABLES: tuple[Table, ...] = tuple(
    op.table for step in STEPS for op in step if isinstance(op, CreateTable)
)
"""Every table, in the order the steps make them."""


def _added_after(version: int) -> set[tuple[str, str]]:
    return {
        (op.table.name, op.column)
        for step in STEPS[version:]
        for op in step
        if isinstance(op, AddColumn)
    }


def render(op: Operation, dialect: Dialect, version: int) -> list[str]:
    """The statements of one operation of step `version`, in `dialect`."""
    if isinstance(op, CreateIndex):
        index = op.index
        return [
            f"CREATE INDEX IF NOT EXISTS {index.name} "
            f"ON {index.table} ({', '.join(index.columns)})"
        ]
    if isinstance(op, AddColumn):
        column = op.table.column(op.column).ddl(dialect)
        statements = [f"ALTER TABLE {op.table.name} ADD COLUMN {column}"]
        return statements + ([op.backfill] if op.backfill else [])
    table, later = op.table, _added_after(version)
    lines = [
        column.ddl(dialect)
        for column in table.columns
        if (table.name, column.name) not in later
    ]
    if table.primary_key:
        lines.append(f"PRIMARY KEY ({', '.join(table.primary_key)})")
    if table.unique:
        lines.append(f"UNIQUE ({', '.join(table.unique)})")
    body = ",\n    ".join(lines)
    return [f"CREATE TABLE {table.name} (\n    {body}\n)"]


def step_statements(dialect: Dialect) -> tuple[tuple[str, ...], ...]:
    """Every step's statements in `dialect`, as run on a new database."""
    return tuple(
        tuple(sql for op in step for sql in render(op, dialect, version))
        for version, step in enumerate(STEPS, 1)
    )
