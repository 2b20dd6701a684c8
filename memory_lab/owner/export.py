"""Everything held about a tenant, read from its stores into one `TenantExport`.

What is read is what the memory holds, not what an engine would show at one
moment: every fact row (superseded, forgotten, expired and flagged ones too),
every thread, every job. The SQL rows are read in one transaction, so a writer
in another process cannot make the file disagree with itself; the daily and
weekly summaries are read from their Chroma collection after it.

Store items are read in the order they were first put (the order a search
without a query lists them in), without their vectors.

Episodes are read from the ledger, which holds every committed episode in full;
the Chroma index is a search copy of them, and anything it holds beyond them
(a compression that crashed before committing) is memory no reader sees and a
retried job writes again.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.owner import tables
from memory_lab.owner.holdings import Holdings
from memory_lab.owner.records import (
    SessionRow,
    StoreItemRow,
    TenantExport,
    new_export,
)
from memory_lab.sessions.store import SqlSessionStore
from memory_lab.stores.sql_items import ItemRow, SqlItems


class NoTenantDataError(MemoryLabError):
    """The tenant asked for has nothing stored."""


def export_tenant(holdings: Holdings, tenant: str, *, now: datetime) -> TenantExport:
    """The tenant's whole memory, stamped as exported at `now`.

    Raises:
        NoTenantDataError: when the tenant has no record anywhere.
    """
    tenant = require_tenant(tenant)
    sessions = SqlSessionStore(holdings.db)
    items = SqlItems(holdings.db)
    with holdings.db.read() as conn:
        records: dict[str, list[Any]] = {
            "messages": tables.read_messages(conn, tenant),
            "threads": tables.read_threads(conn, tenant),
            "episodes": holdings.ledger.episodes(tenant),
            "facts": holdings.facts.rows(tenant),
            "links": holdings.links.links(tenant),
            "events": holdings.events.events(tenant),
            "jobs": tables.read_jobs(conn, tenant),
            "chats": tables.read_chats(conn, tenant),
            "trash": tables.read_trash(conn, tenant),
            "sessions": [
                SessionRow(tenant=tenant, thread=thread, **asdict(record))
                for thread, record in sessions.rows(tenant)
            ],
            # Asked for since no revision, every row comes back, in seq order.
            "items": [
                _store_item(tenant, row)
                for row in items.rows_since(tenant, None)[1] or []
            ],
        }
    periods = holdings.periods.get(tenant) if holdings.periods is not None else []
    records["periods"] = sorted(periods, key=lambda p: (p.thread, p.start, p.id))
    if not any(records.values()):
        raise NoTenantDataError(f"no data for tenant {tenant!r} in {holdings.where}")
    return new_export(tenant, now, memory_lab_version(), **records)


def _store_item(tenant: str, row: ItemRow) -> StoreItemRow:
    return StoreItemRow(
        tenant=tenant,
        namespace=list(row.namespace),
        key=row.key,
        value=json.loads(row.value),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def write_export(export: TenantExport, out: Path) -> None:
    """Write the file whole or not at all: a failed write leaves no partial file."""
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    try:
        with partial.open("w", encoding="utf-8") as file:
            for line in export.lines():
                file.write(line + "\n")
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)


def memory_lab_version() -> str:
    """The installed memory-lab's version, for the header."""
    try:
        return version("memory-lab")
    except PackageNotFoundError:
        return "unknown"
