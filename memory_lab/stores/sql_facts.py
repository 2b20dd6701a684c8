"""Structured facts in SQL: rows are inserted or updated in place, never deleted."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Any, Unpack

from memory_lab.errors import require_tenant
from memory_lab.stores import revisions
from memory_lab.stores.base import Database, FactFilters, given_filters, insert_new
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import decode_json, encode_json, encode_time, time_key
from memory_lab.stores.tenancy import require_owned
from memory_lab.types import Fact

# Every Fact field; `created_key` is derived and never read back.
_FIELDS = tuple(Fact.model_fields)
_COLUMNS = ", ".join(_FIELDS)


class SqlFactStore:
    """Fact rows keyed by (tenant, id), ordered by creation time then id."""

    def __init__(self, path: str | Path | Database) -> None:
        """Open the store in `path` (a file, ":memory:", or a shared database)."""
        self._db = database_at(path)

    def transaction(self) -> AbstractContextManager:
        """One write transaction for a read-then-write (joined by the calls in it).

        It holds the database's write lock from its start, so another process's
        writer cannot change a key's rows between reading and replacing them.
        """
        return self._db.write()

    def insert(self, tenant: str, fact: Fact) -> None:
        """Store a new row.

        Raises:
            ValueError: when the tenant already has a row with this id; an insert
                never overwrites (that is what `update` is for).
        """
        tenant = require_owned(tenant, [fact])
        with self._db.write() as conn:
            insert_new(
                self._db,
                "facts",
                _encode(fact),
                f"fact {fact.id!r} for tenant {tenant!r}",
            )
            revisions.bump(conn, tenant, "facts")

    def update(self, tenant: str, fact: Fact) -> None:
        """Replace the tenant's row with the same id.

        Raises:
            KeyError: when the tenant has no row with this id.
        """
        tenant = require_owned(tenant, [fact])
        values = _encode(fact)
        del values["tenant"], values["id"]
        assignments = ", ".join(f"{name} = ?" for name in values)
        with self._db.write() as conn:
            cursor = conn.execute(
                f"UPDATE facts SET {assignments} WHERE tenant = ? AND id = ?",
                (*values.values(), tenant, fact.id),
            )
            if cursor.rowcount != 1:
                raise KeyError(f"no fact {fact.id!r} for tenant {tenant!r}")
            revisions.bump(conn, tenant, "facts")

    def revision(self, tenant: str) -> int:
        """A number every change to the tenant's rows moves, whoever made it.

        Readers that cache rows compare it before trusting the cache: another
        engine or process on the same database writes without telling them.
        """
        tenant = require_tenant(tenant)
        with self._db.read() as conn:
            return revisions.read(conn, tenant, "facts")

    def rows(self, tenant: str, **filters: Unpack[FactFilters]) -> list[Fact]:
        """Each filter given becomes one equality in the WHERE clause."""
        tenant = require_tenant(tenant)
        sql = f"SELECT {_COLUMNS} FROM facts WHERE tenant = ?"
        params: list[object] = [tenant]
        for name, value in given_filters(filters).items():
            sql += f" AND {name} = ?"
            params.append(value)
        with self._db.read() as conn:
            found = conn.execute(sql + " ORDER BY created_key, id", params).fetchall()
        return [_decode(row) for row in found]

    def get(self, tenant: str, fact_id: str) -> Fact | None:
        """The tenant's row with this id, or None."""
        tenant = require_tenant(tenant)
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM facts WHERE tenant = ? AND id = ?",
                (tenant, fact_id),
            ).fetchone()
        return None if row is None else _decode(row)

    def close(self) -> None:
        """Release the database connection."""
        self._db.close()


def _encode(fact: Fact) -> dict[str, Any]:
    values: dict[str, Any] = fact.model_dump()
    for name, value in values.items():
        if isinstance(value, datetime):
            values[name] = encode_time(value)
    values["turn_ids"] = encode_json(fact.turn_ids)
    values["created_key"] = time_key(fact.created_at)
    return values


def _decode(row: sqlite3.Row) -> Fact:
    data = dict(row)
    data["turn_ids"] = decode_json(data["turn_ids"])
    return Fact.model_validate(data)
