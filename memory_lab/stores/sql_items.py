"""Key-value items in SQL: one row per (tenant, namespace, key), deleted for real.

`memory_lab.items.ItemStore` is the one caller: it embeds, caches and ranks,
and this module holds its SQL. A row keeps the value as JSON text, its two
times, and the vectors of its indexed texts packed as float32 beside the name
of the embedder that made them.

Every change moves the tenant's `items` counter in `memory_revisions` in the
same transaction, so a cache of the rows built at one counter knows when
another connection (another process, another engine on the folder) has
written since.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memory_lab.errors import require_tenant
from memory_lab.stores import revisions
from memory_lab.stores.base import Database
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import encode_time

Namespace = tuple[str, ...]

REVISION_KIND: revisions.RevisionKind = "items"
"""The row of `memory_revisions` that counts a tenant's item changes."""

_COLUMNS = "seq, namespace, key, value, created_at, updated_at, model, dims, vectors"
_INSERT = (
    "INSERT INTO items (tenant, seq, namespace, key, value, created_at,"
    " updated_at, model, dims, vectors) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_ONE_BY_ONE = 64
"""Up to this many keys, a write looks each up; past it, reads the tenant's keys."""


@dataclass(frozen=True)
class ItemRow:
    """One stored item as the table holds it."""

    seq: int
    """Order of the item's first put (kept when it is replaced)."""
    namespace: Namespace
    key: str
    value: str
    """The value as JSON text."""
    created_at: datetime
    updated_at: datetime
    model: str
    """The embedder that made `vectors`; '' when the item is not indexed."""
    vectors: np.ndarray | None
    """(texts, dims) float32, one row per indexed text; None when not indexed."""


@dataclass(frozen=True)
class ItemChange:
    """A put (with `value`) or a delete (`value` None) of one key."""

    namespace: Namespace
    key: str
    value: str | None
    model: str = ""
    vectors: np.ndarray | None = None


@dataclass(frozen=True)
class Applied:
    """What one `SqlItems.apply` did, for a cache of the tenant's rows."""

    before: int
    """The tenant's counter before the change."""
    after: int
    """The counter the change left (equal to `before` when nothing changed)."""
    written: list[ItemRow]
    deleted: list[tuple[Namespace, str]]
    """Keys whose rows were removed (keys not held are not listed)."""


def namespace_text(namespace: Namespace) -> str:
    """The column form of a namespace: labels joined by '.', which none holds."""
    return ".".join(namespace)


def namespace_of(text: str) -> Namespace:
    """The namespace `namespace_text` stored."""
    return tuple(text.split("."))


class SqlItems:
    """Item rows keyed by (tenant, namespace, key), numbered by first put."""

    def __init__(self, path: str | Path | Database) -> None:
        """Open the rows in `path` (a file, ":memory:", or a shared database)."""
        self._db = database_at(path)

    def transaction(self) -> AbstractContextManager[Any]:
        """One write transaction that `apply` and an event log's append join."""
        return self._db.write()

    def get(self, tenant: str, namespace: Namespace, key: str) -> ItemRow | None:
        """The tenant's row for the key, or None."""
        tenant = require_tenant(tenant)
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM items"
                " WHERE tenant = ? AND namespace = ? AND key = ?",
                (tenant, namespace_text(namespace), key),
            ).fetchone()
        return None if row is None else _decode(row)

    def revision(self, tenant: str) -> int:
        """The tenant's counter: it moves with every change to its items."""
        tenant = require_tenant(tenant)
        with self._db.read() as conn:
            return _revision(conn, tenant)

    def rows_since(
        self, tenant: str, revision: int | None
    ) -> tuple[int, list[ItemRow] | None]:
        """The counter, and every row of the tenant unless it still is `revision`.

        Both are read in one snapshot, so the rows are those of the counter.
        """
        tenant = require_tenant(tenant)
        with self._db.read() as conn:
            now = _revision(conn, tenant)
            if now == revision:
                return now, None
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM items WHERE tenant = ? ORDER BY seq",
                (tenant,),
            ).fetchall()
        return now, [_decode(r) for r in rows]

    def apply(
        self, tenant: str, changes: Sequence[ItemChange], at: datetime
    ) -> Applied:
        """Put and delete keys in one transaction (the caller's, if it has one).

        A put of a held key keeps its `seq` and `created_at`; a new key takes
        the next `seq`. The last change of a key wins.
        """
        tenant = require_tenant(tenant)
        last = {(c.namespace, c.key): c for c in changes}
        stamp = encode_time(at)
        assert stamp is not None  # `at` is a datetime
        with self._db.write() as conn:
            before = _revision(conn, tenant)
            held = _held(conn, tenant, list(last))
            top = conn.execute(
                "SELECT MAX(seq) FROM items WHERE tenant = ?", (tenant,)
            ).fetchone()[0]
            seq = 0 if top is None else int(top)
            inserts, updates, removals = [], [], []
            written: list[ItemRow] = []
            deleted: list[tuple[Namespace, str]] = []
            for (namespace, key), change in last.items():
                found = held.get((namespace_text(namespace), key))
                if change.value is None:
                    if found is not None:
                        removals.append((tenant, found[0]))
                        deleted.append((namespace, key))
                    continue
                vectors = change.vectors
                blob = None if vectors is None else _pack(vectors)
                dims = 0 if vectors is None else int(vectors.shape[1])
                if found is None:
                    seq += 1
                    row_seq, created = seq, stamp
                    inserts.append(
                        (
                            tenant,
                            row_seq,
                            namespace_text(namespace),
                            key,
                            change.value,
                            created,
                            stamp,
                            change.model,
                            dims,
                            blob,
                        )
                    )
                else:
                    row_seq, created = found
                    updates.append(
                        (change.value, stamp, change.model, dims, blob, tenant, row_seq)
                    )
                written.append(
                    ItemRow(
                        seq=row_seq,
                        namespace=namespace,
                        key=key,
                        value=change.value,
                        created_at=datetime.fromisoformat(created),
                        updated_at=at,
                        model=change.model,
                        vectors=vectors,
                    )
                )
            conn.executemany(_INSERT, inserts)
            conn.executemany(
                "UPDATE items SET value = ?, updated_at = ?, model = ?, dims = ?,"
                " vectors = ? WHERE tenant = ? AND seq = ?",
                updates,
            )
            conn.executemany("DELETE FROM items WHERE tenant = ? AND seq = ?", removals)
            after = before
            if inserts or updates or removals:
                _bump(conn, tenant)
                after = before + 1
        return Applied(before, after, written, deleted)

    def insert_rows(self, tenant: str, rows: Sequence[ItemRow]) -> None:
        """Insert rows as they were (seq, times, vectors): an import's write.

        For a tenant holding no items: a seq or key it holds is refused by the
        table's keys. Joins the caller's transaction, if it has one.
        """
        tenant = require_tenant(tenant)
        if not rows:
            return
        values = []
        for row in rows:
            vectors = row.vectors
            values.append(
                (
                    tenant,
                    row.seq,
                    namespace_text(row.namespace),
                    row.key,
                    row.value,
                    encode_time(row.created_at),
                    encode_time(row.updated_at),
                    row.model,
                    0 if vectors is None else int(vectors.shape[1]),
                    None if vectors is None else _pack(vectors),
                )
            )
        with self._db.write() as conn:
            conn.executemany(_INSERT, values)
            _bump(conn, tenant)

    def close(self) -> None:
        """Release the database connection."""
        self._db.close()


def _held(
    conn: Any, tenant: str, keys: list[tuple[Namespace, str]]
) -> dict[tuple[str, str], tuple[int, str]]:
    """(namespace text, key) -> (seq, created_at text) of the keys already held."""
    if len(keys) <= _ONE_BY_ONE:
        found = {}
        for namespace, key in keys:
            text = namespace_text(namespace)
            row = conn.execute(
                "SELECT seq, created_at FROM items"
                " WHERE tenant = ? AND namespace = ? AND key = ?",
                (tenant, text, key),
            ).fetchone()
            if row is not None:
                found[(text, key)] = (int(row[0]), row[1])
        return found
    rows = conn.execute(
        "SELECT namespace, key, seq, created_at FROM items WHERE tenant = ?",
        (tenant,),
    ).fetchall()
    return {(r[0], r[1]): (int(r[2]), r[3]) for r in rows}


def _revision(conn: Any, tenant: str) -> int:
    row = conn.execute(
        "SELECT revision FROM memory_revisions WHERE tenant = ? AND kind = ?",
        (tenant, REVISION_KIND),
    ).fetchone()
    return 0 if row is None else int(row[0])


def _bump(conn: Any, tenant: str) -> None:
    revisions.bump(conn, tenant, REVISION_KIND)


def _pack(vectors: np.ndarray) -> bytes:
    return np.ascontiguousarray(vectors, dtype="<f4").tobytes()


def _decode(row: Any) -> ItemRow:
    blob, dims = row["vectors"], int(row["dims"])
    vectors = None
    if blob is not None and dims:
        vectors = np.frombuffer(bytes(blob), dtype="<f4").reshape(-1, dims)
    return ItemRow(
        seq=int(row["seq"]),
        namespace=namespace_of(row["namespace"]),
        key=row["key"],
        value=row["value"],
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        model=row["model"],
        vectors=vectors,
    )
