"""Links between facts in SQL: rows are inserted or end-dated, never removed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from memory_lab.errors import require_tenant
from memory_lab.stores.base import Database, insert_new
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import encode_time, time_key
from memory_lab.stores.tenancy import require_owned
from memory_lab.types import FactLink

_FIELDS = tuple(FactLink.model_fields)
_COLUMNS = ", ".join(_FIELDS)


class SqlFactLinkStore:
    """Link rows keyed by (tenant, id), read in creation order."""

    def __init__(self, path: str | Path | Database) -> None:
        """Open the store in `path` (a file, ":memory:", or a shared database)."""
        self._db = database_at(path)

    def insert(self, tenant: str, link: FactLink) -> None:
        """Store a new link.

        Raises:
            ValueError: when the tenant already has a link with this id.
        """
        tenant = require_owned(tenant, [link])
        insert_new(
            self._db,
            "fact_links",
            _encode(link),
            f"link {link.id!r} for tenant {tenant!r}",
        )

    def end(self, tenant: str, link: FactLink) -> None:
        """Record the end date `link` carries on the stored row.

        Raises:
            KeyError: when the tenant has no link with this id.
        """
        tenant = require_owned(tenant, [link])
        with self._db.write() as conn:
            cursor = conn.execute(
                "UPDATE fact_links SET ended_at = ? WHERE tenant = ? AND id = ?",
                (encode_time(link.ended_at), tenant, link.id),
            )
            if cursor.rowcount != 1:
                raise KeyError(f"no link {link.id!r} for tenant {tenant!r}")

    def links(self, tenant: str, fact_id: str | None = None) -> list[FactLink]:
        """The tenant's links (those touching `fact_id`, either end, if given)."""
        tenant = require_tenant(tenant)
        sql = f"SELECT {_COLUMNS} FROM fact_links WHERE tenant = ?"
        params: tuple = (tenant,)
        if fact_id is not None:
            sql += " AND (source = ? OR target = ?)"
            params += (fact_id, fact_id)
        with self._db.read() as conn:
            rows = conn.execute(sql + " ORDER BY created_key, id", params).fetchall()
        return [_decode(r) for r in rows]

    def close(self) -> None:
        """Release the database connection."""
        self._db.close()


def _encode(link: FactLink) -> dict[str, Any]:
    values: dict[str, Any] = link.model_dump()
    values["created_at"] = encode_time(link.created_at)
    values["ended_at"] = encode_time(link.ended_at)
    values["created_key"] = time_key(link.created_at)
    return values


def _decode(row: sqlite3.Row) -> FactLink:
    return FactLink.model_validate(dict(row))
