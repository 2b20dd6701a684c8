"""What a memory's owner can do with it: export it, import it, purge it for real.

`forget` (in `facts/`) ends a fact's validity and keeps the row, so it can be
undone and audited. The modules here are for the other kind of control: a file
with everything held about a tenant (`export`), that file brought back
(`restore`), and content removed from every tier and the disk (`purge`).

Export and import share `records` (the file format, read back strictly),
`holdings` (a folder's stores, opened by `memory_parts` without an engine) and
`tables` (the rows the stores have no call for: messages with their thread,
thread states, jobs). A purge is `selection` (checked), `plan` (ids), `tiers`
(each removal), `needles` (copied text), `tombstones`, `disk` (the files) and
`resume` (after a kill). The trash (`trash_bin`) holds facts and episodes
their owner deleted until `empty_trash` purges them, chats' with them.

No SQL is written here: rows are read and removed through the stores
(`stores.sql_erase`, `sql_tenant_rows`, `sql_trash`, `sql_purges`, and
`folder_peek` for a folder's file before any store opens it), and an open
memory is reached through `open_stores.OpenStores`. Only `disk` talks to
SQLite itself, to rewrite files (it says why).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str | tuple[str, str]] = {
    "Selection": "memory_lab.owner.selection",
    "PurgeRequestError": "memory_lab.owner.selection",
    "check_request": "memory_lab.owner.selection",
    "parse_before": "memory_lab.owner.selection",
    "Tombstone": "memory_lab.owner.tombstones",
    "DATABASE": "memory_lab.owner.purge",
    "purge_folder": ("memory_lab.owner.purge", "purge"),
    "finish_purges": "memory_lab.owner.purge",
    "Holdings": "memory_lab.owner.holdings",
    "NoMemoryError": "memory_lab.owner.holdings",
    "open_holdings": "memory_lab.owner.holdings",
    "TenantExport": "memory_lab.owner.records",
    "NoTenantDataError": "memory_lab.owner.export",
    "export_tenant": "memory_lab.owner.export",
    "write_export": "memory_lab.owner.export",
    "read_export_file": "memory_lab.owner.restore",
    "restore_tenant": "memory_lab.owner.restore",
    "TrashKind": "memory_lab.owner.trash_bin",
    "default_cache_path": "memory_lab.llm_client.response_cache",
    "on_phase": ("memory_lab.jobs.phases", "listen"),
}
"""The owner's control as one public surface: export, import, purge and the
trash's kinds; `on_phase` is the test-only hook a fault test kills a purge by.
`memory_lab.api.Memory` covers the same for an open memory; these work on a
folder's files without opening one (export while the app holds the folder, a
purge finished after a kill)."""

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # Names, not submodules: an imported submodule would shadow a function of
    # the same name (`purge`), so that one is exported as `purge_folder`.
    if name in _EXPORTS:
        where = _EXPORTS[name]
        module, attr = where if isinstance(where, tuple) else (where, name)
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'memory_lab.owner' has no attribute {name!r}")
