"""What the owner of a memory can take with them: everything held, as one file.

The download is the same JSON lines `memory-lab export` writes, built when the
button is clicked (not on every rerun), from the engine the page already has
open, so the folder is never opened twice.
"""

from __future__ import annotations

import streamlit as st

from memory_lab.engine import MemoryEngine
from memory_lab.errors import MemoryLabError
from memory_lab.owner.export import NoTenantDataError, export_tenant
from memory_lab.owner.holdings import engine_holdings


def export_text(engine: MemoryEngine, tenant: str) -> str:
    """The tenant's export file, as text.

    Raises:
        NoTenantDataError: when the tenant holds nothing yet.
        MemoryLabError: for a memory held in this process only.
    """
    export = export_tenant(engine_holdings(engine), tenant, now=engine.clock.now())
    return "".join(line + "\n" for line in export.lines())


def export_controls(engine: MemoryEngine, tenant: str) -> None:
    """A download of everything held about the tenant."""
    sb = st.sidebar
    sb.subheader("Your data")
    empty = engine.transcript.count(tenant) == 0 and not engine.facts.store.rows(tenant)

    def build() -> str:
        try:
            return export_text(engine, tenant)
        except (NoTenantDataError, MemoryLabError) as err:
            return f"export failed: {err}\n"

    sb.download_button(
        "Export this memory (JSON lines)",
        data=build,
        file_name=f"{tenant}-memory.jsonl",
        mime="application/jsonl",
        key="export_memory",
        disabled=empty,
        help="Every turn, episode, fact (with its history), link, event, job and "
        "chat held for this tenant; `memory-lab import` restores it.",
        on_click="ignore",
        width="stretch",
    )
    if empty:
        sb.caption("Nothing is held for this tenant yet.")
