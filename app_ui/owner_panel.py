"""What the owner of a memory can do with all of it: take it away, or have it gone.

The download is the same JSON lines `memory-lab export` writes, built when the
button is clicked (not on every rerun), from the memory the page already has
open, so the folder is never opened twice. "Forget me", behind a confirmation,
purges everything held about the tenant through that same memory
(`Memory.purge`).
"""

from __future__ import annotations

import io

import streamlit as st

from app_ui.flash import flash
from memory_lab.api import Memory
from memory_lab.errors import MemoryLabError


def export_text(memory: Memory, tenant: str) -> str:
    """The tenant's export file, as text, as it stands (owed work as owed jobs).

    Raises:
        NoTenantDataError: when the tenant holds nothing yet.
        MemoryLabError: for a memory held in this process only.
    """
    out = io.StringIO()
    memory.export(tenant, out, wait=False)
    return out.getvalue()


def export_controls(memory: Memory, tenant: str) -> None:
    """A download of everything held about the tenant."""
    sb = st.sidebar
    sb.subheader("Your data")
    empty = memory.stats(tenant)["turns"] == 0 and not memory.history(tenant)

    def build() -> str:
        try:
            return export_text(memory, tenant)
        except MemoryLabError as err:  # NoTenantDataError among them
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
    forget_me_controls(memory, tenant, empty=empty)


def forget_me_controls(memory: Memory, tenant: str, *, empty: bool) -> None:
    """Delete everything held about the tenant, once they have said they mean it."""
    sb = st.sidebar
    sure = sb.checkbox(
        f"Delete everything held about {tenant!r}, for good",
        key="forget_me_sure",
        disabled=empty,
    )
    sb.button(
        "Forget me",
        key="forget_me",
        disabled=empty or not sure,
        on_click=_forget_me,
        args=(memory, tenant),
        help="Every turn, episode, fact, event and chat of this tenant is removed "
        "for real (not the trash); a tombstone records that it happened.",
        width="stretch",
    )


def _forget_me(memory: Memory, tenant: str) -> None:
    st.session_state["forget_me_sure"] = False
    try:
        stone = memory.purge(tenant, requested_by=f"{tenant} (the app)")
    except MemoryLabError as err:
        flash("error", str(err))
        return
    counts = stone.counts
    gone = (
        f"{counts.get('transcript', {}).get('turns', 0)} turns, "
        f"{counts.get('facts', {}).get('rows', 0)} fact rows, "
        f"{counts.get('episodes', {}).get('removed', 0)} episodes, "
        f"{counts.get('events', {}).get('events', 0)} events"
    )
    after = (
        " The files are rewritten when the memory is next opened."
        if stone.status != "done"
        else ""
    )
    flash("success", f"Deleted everything held about {tenant!r}: {gone}.{after}")
