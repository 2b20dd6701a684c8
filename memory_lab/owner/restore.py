"""An export file brought back into a memory, all of it or none of it.

The file is read and checked whole (`read_export`) before anything is opened
for writing. The tenant must hold nothing in the target: an import restores a
memory, it never merges two, so a tenant with any row or episode is refused by
name and the target is left as it was.

The rows go into the database in one transaction. The episodes' search index
and the daily and weekly summaries live in Chroma, which has no transaction to
join, so they are written inside the SQL transaction, before it commits: if
Chroma fails, the SQL rolls back; if Chroma or the commit fails, the tenant's
Chroma collections (which held nothing of it before) are dropped. Only a
process killed after its first Chroma write and before the commit can leave
Chroma records without their rows: episodes no read shows (reads go through the
ledger) and daily or weekly summaries that a second import names when it
refuses the tenant.

Store items are embedded before the transaction opens, so the write lock is
not held while they are, each from its whole value as sorted JSON (as a put
indexes by default), and written inside it with their times, numbered in the
file's order (the order a search without a query lists them in).

What a round trip does not keep: the numbers jobs and events are given by the
database (shared by every tenant in it; their order is kept), and the vectors,
which the target's embedder recomputes from each episode's text and each
item's whole value. An item put with `fields`, with `index=False` or with
another embedder's vectors is therefore searched by its whole value after an
import, with the default embedder unless the caller names another.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from memory_lab.errors import MemoryLabError
from memory_lab.owner import tables
from memory_lab.owner.holdings import Holdings
from memory_lab.owner.records import ExportFileError, TenantExport, read_export
from memory_lab.sessions.lifecycle import SessionRecord
from memory_lab.sessions.store import SqlSessionStore
from memory_lab.stores.sql_items import ItemRow, SqlItems

if TYPE_CHECKING:
    from memory_lab.embeddings import Embedder


class TenantPresentError(MemoryLabError):
    """The target already holds something of the tenant being imported."""


class ImportFailedError(MemoryLabError):
    """Writing failed part way; everything written was taken back."""


def read_export_file(path: Path) -> TenantExport:
    """The checked contents of an export file.

    Raises:
        ExportFileError: for a missing or unreadable file, or bad contents.
    """
    if not path.is_file():
        raise ExportFileError(f"{path}: no such file")
    try:
        with path.open(encoding="utf-8") as file:
            return read_export(line.rstrip("\n") for line in file)
    except UnicodeDecodeError:
        raise ExportFileError(f"{path}: not UTF-8 text") from None


def restore_tenant(
    holdings: Holdings, export: TenantExport, *, embedder: Embedder | None = None
) -> None:
    """Write the export's records into empty stores for its tenant.

    Args:
        holdings: The target's stores.
        export: A checked file (`read_export_file`).
        embedder: What indexes the store items, the memory's embedder (the
            default one when None, which `open_holdings` also defaults to).

    Raises:
        TenantPresentError: when the tenant has any record in `holdings`.
        ImportFailedError: when a write failed (nothing of it is left behind).
    """
    tenant = export.tenant
    with holdings.db.read() as conn:
        held = tables.held_rows(conn, tenant)
    _require_absent(holdings, tenant, {**held, **_index_counts(holdings, tenant)})
    indexed = False
    try:
        items = _item_rows(export, embedder)
        with holdings.db.write() as conn:
            # Checked again under the write lock: another process may have
            # written the tenant since.
            _require_absent(holdings, tenant, tables.held_rows(conn, tenant))
            _write_rows(holdings, conn, export)
            SqlItems(holdings.db).insert_rows(tenant, items)
            indexed = True
            _write_index(holdings, export)
    except TenantPresentError:
        raise
    except BaseException as exc:
        left = _drop_index(holdings, tenant) if indexed else ""
        if not isinstance(exc, Exception):
            raise
        raise ImportFailedError(
            f"importing tenant {tenant!r} failed, the database is as it was{left}: "
            f"{exc}"
        ) from exc


def _index_counts(holdings: Holdings, tenant: str) -> dict[str, int]:
    counts = {
        name: store.count(tenant)
        for name, store in (
            ("episode index", holdings.episodes),
            ("periods", holdings.periods),
        )
        if store is not None
    }
    return {name: n for name, n in counts.items() if n}


def _require_absent(holdings: Holdings, tenant: str, held: dict[str, int]) -> None:
    if held:
        shown = ", ".join(f"{n} in {where}" for where, n in held.items())
        raise TenantPresentError(
            f"tenant {tenant!r} already has data in {holdings.where} ({shown}); "
            "import never merges: import into another folder, or purge it first"
        )


def _write_rows(holdings: Holdings, conn: object, export: TenantExport) -> None:
    tenant = export.tenant
    tables.write_messages(conn, tenant, export.messages)
    tables.write_threads(conn, tenant, export.threads)
    for fact in export.facts:
        holdings.facts.insert(tenant, fact)
    for link in export.links:
        holdings.links.insert(tenant, link)
    holdings.events.append(tenant, export.events)
    tables.write_jobs(conn, tenant, export.jobs)
    tables.write_chats(conn, tenant, export.chats)
    tables.write_trash(conn, tenant, export.trash)
    sessions = SqlSessionStore(holdings.db)
    for row in export.sessions:
        fields = row.model_dump(exclude={"tenant", "thread"})
        sessions.put(tenant, row.thread, SessionRecord(**fields))
    holdings.ledger.commit_episodes(tenant, export.episodes)


def _item_rows(export: TenantExport, embedder: Embedder | None) -> list[ItemRow]:
    """The file's items as rows, each indexed by its whole value (as a put is)."""
    if not export.items:
        return []
    if embedder is None:
        from memory_lab.embeddings import default_embedder

        embedder = default_embedder()
    vectors = embedder.embed(
        [json.dumps(i.value, sort_keys=True, ensure_ascii=False) for i in export.items]
    )
    return [
        ItemRow(
            seq=seq,
            namespace=tuple(item.namespace),
            key=item.key,
            value=json.dumps(item.value, ensure_ascii=False),
            created_at=item.created_at,
            updated_at=item.updated_at,
            model=embedder.name,
            vectors=vectors[seq - 1 : seq],
        )
        for seq, item in enumerate(export.items, 1)
    ]


def _write_index(holdings: Holdings, export: TenantExport) -> None:
    for store, records in (
        (holdings.episodes, export.episodes),
        (holdings.periods, export.periods),
    ):
        if records:
            assert store is not None, "import opens every store"
            store.add(export.tenant, records)


def _drop_index(holdings: Holdings, tenant: str) -> str:
    """Take back the tenant's index records; says what could not be."""
    for store in (holdings.episodes, holdings.periods):
        if store is None:
            continue
        try:
            store.drop(tenant)
        except Exception as exc:  # noqa: BLE001 - the import's own error comes first
            return f" but Chroma may keep some of its episodes ({exc!r})"
    return ""
