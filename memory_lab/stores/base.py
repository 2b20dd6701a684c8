"""Store protocols, and the SQL `Database` the persistent stores run on.

Every store method names a tenant; implementations fail closed without one.

Each store protocol has a persistent implementation (SQL, ChromaDB) and a
plain-Python reference; one contract suite in tests/contracts runs over every
database backend and the reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Protocol, TypedDict, Unpack, cast

from memory_lab.types import Episode, Fact, FactLink, MemoryEvent, Message


class Connection(Protocol):
    """What the stores run SQL through: `?` placeholders, rows read by name."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any:
        """Run one statement; the result has `fetchone`, `fetchall`, `rowcount`."""
        ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]], /) -> Any:
        """Run one statement once per row of parameters."""
        ...


class Database(Protocol):
    """One SQL database the SQL stores share (a SQLite file, a Postgres schema).

    Its tables are made and migrated when it opens. Transactions nest by
    joining: a `write` inside another on the same thread is part of it, so
    several stores' writes commit together.
    """

    integrity_errors: tuple[type[Exception], ...]
    """What a write raises when a unique key refuses a row."""

    def read(self) -> AbstractContextManager[Connection]:
        """A read transaction: all its queries see one snapshot."""
        ...

    def write(self) -> AbstractContextManager[Connection]:
        """A write transaction holding the database's write lock from its start."""
        ...

    def close(self) -> None:
        """Release the connection; the stores on it are unusable afterwards."""
        ...


def insert_new(db: Database, table: str, values: dict[str, Any], taken: str) -> None:
    """Insert one row that must be new; a key already held is never overwritten.

    Overwriting is what an update is for; facts and links both refuse it.

    Raises:
        ValueError: `taken` (which row, whose) when a unique key refuses the row.
    """
    names, marks = ", ".join(values), ", ".join("?" for _ in values)
    with db.write() as conn:
        try:
            conn.execute(
                f"INSERT INTO {table} ({names}) VALUES ({marks})",
                tuple(values.values()),
            )
        except db.integrity_errors as exc:
            raise ValueError(f"{taken} already exists") from exc


def upsert_row(
    conn: Connection, table: str, key: Mapping[str, Any], values: Mapping[str, Any]
) -> None:
    """Insert a row, or replace the `values` columns of the row `key` names.

    For tables of one current row per key (a thread's watermarks, its session),
    where a later write is meant to overwrite; `key` must be the table's unique
    key. The SQL is portable: SQLite and Postgres both take `ON CONFLICT`.
    """
    names = [*key, *values]
    conn.execute(
        f"INSERT INTO {table} ({', '.join(names)})"
        f" VALUES ({', '.join('?' * len(names))})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET "
        + ", ".join(f"{n} = excluded.{n}" for n in values),
        (*key.values(), *values.values()),
    )


class SeqSpan(TypedDict, total=False):
    """Which messages to read by seq; both ends are included."""

    first_seq: int
    last_seq: int | None


def seq_bounds(span: SeqSpan) -> tuple[int, int | None]:
    """(first_seq, last_seq) with their defaults: from the first message, no end.

    Raises:
        TypeError: for a bound named otherwise; ignoring it would read every message.
    """
    if unknown := set(span) - set(SeqSpan.__annotations__):
        raise TypeError(f"no message span bound named {', '.join(sorted(unknown))}")
    return span.get("first_seq", 0), span.get("last_seq")


def check_limit(limit: int | None) -> None:
    """Raises ValueError for a negative `limit`; a negative slice would read wrongly."""
    if limit is not None and limit < 0:
        raise ValueError("limit cannot be negative")


class FactFilters(TypedDict, total=False):
    """Which fact rows to read; a filter left out or None matches every row."""

    subject: str | None
    category: str | None
    key: str | None
    status: str | None


def given_filters(filters: FactFilters) -> dict[str, str]:
    """The filters that constrain anything, in column order.

    Raises:
        TypeError: for a filter no fact has; ignoring it would read every row.
    """
    if unknown := set(filters) - set(FactFilters.__annotations__):
        raise TypeError(f"no fact filter named {', '.join(sorted(unknown))}")
    given = cast("Mapping[str, str | None]", filters)
    return {
        name: value
        for name in FactFilters.__annotations__
        if (value := given.get(name)) is not None
    }


class TranscriptStore(Protocol):
    """Append-only record of every ingested message: the source of truth."""

    def append(
        self, tenant: str, thread: str, messages: Sequence[Message]
    ) -> list[Message]:
        """Store messages in order and return them with `seq` set.

        A message whose id is already stored for the tenant is not stored again
        (ingest is idempotent); the stored copy is returned in its place.
        """
        ...

    def messages(
        self, tenant: str, thread: str | None = None, **span: Unpack[SeqSpan]
    ) -> list[Message]:
        """Messages of a tenant (optionally one thread) in a seq range, in seq order.

        Returns those with first_seq <= seq <= last_seq.
        """
        ...

    def count(self, tenant: str, thread: str | None = None) -> int:
        """How many messages a tenant (or one of its threads) has."""
        ...


class EpisodeStore(Protocol):
    """Compressed spans of turns, searchable by meaning."""

    def add(self, tenant: str, episodes: Sequence[Episode]) -> None:
        """Store episodes; re-adding an id already stored changes nothing."""
        ...

    def get(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """Episodes by id (all of the tenant's when `ids` is None), in seq order."""
        ...

    def search(
        self, tenant: str, query: str, *, top_k: int, max_distance: float
    ) -> list[tuple[Episode, float]]:
        """Nearest episodes by cosine distance, closest first, within `max_distance`."""
        ...

    def count(self, tenant: str) -> int:
        """How many episodes a tenant has."""
        ...

    def remove(self, tenant: str, ids: Sequence[str]) -> int:
        """Delete these episodes and their vectors for good; how many were held.

        A purge and retention call it: nothing removed may be found again,
        by id or by search. Ids the tenant does not hold are ignored.
        """
        ...

    def drop(self, tenant: str) -> None:
        """Delete every episode of the tenant; a tenant with none is left as is.

        How an import that failed after writing episodes takes them back.
        """
        ...

    def close(self) -> None:
        """Release the index (a client, files); the store is unusable afterwards."""
        ...


class FactStore(Protocol):
    """Rows of structured facts. Rows are inserted or updated, never deleted."""

    def insert(self, tenant: str, fact: Fact) -> None:
        """Store a new row."""
        ...

    def update(self, tenant: str, fact: Fact) -> None:
        """Replace a stored row with the same id (status, validity, confidence)."""
        ...

    def rows(self, tenant: str, **filters: Unpack[FactFilters]) -> list[Fact]:
        """Rows matching every filter given, ordered by creation time then id."""
        ...

    def get(self, tenant: str, fact_id: str) -> Fact | None:
        """One row, or None (including when it belongs to another tenant)."""
        ...

    def revision(self, tenant: str) -> int:
        """A number that moves with every change to the tenant's rows."""
        ...


class FactLinkStore(Protocol):
    """Typed links between facts. Links are inserted or end-dated, never deleted."""

    def insert(self, tenant: str, link: FactLink) -> None:
        """Store a new link; an id the tenant already holds raises ValueError."""
        ...

    def end(self, tenant: str, link: FactLink) -> None:
        """Store the end date of a held link; an unknown id raises KeyError."""
        ...

    def links(self, tenant: str, fact_id: str | None = None) -> list[FactLink]:
        """Links touching `fact_id` at either end (all, if None), oldest first."""
        ...


class EventLog(Protocol):
    """Append-only log of memory events."""

    def append(self, tenant: str, events: Sequence[MemoryEvent]) -> None:
        """Store events in order."""
        ...

    def events(
        self, tenant: str, *, since: datetime | None = None, limit: int | None = None
    ) -> list[MemoryEvent]:
        """Events at or after `since`, oldest first; only the last `limit` if given.

        Raises:
            ValueError: when `limit` is negative.
        """
        ...
