"""Deleting a fact or an episode from the app, the trash, and the retention policy.

A deleted item goes to the memory's trash (`Memory.trash`): out of every read at
once, restorable for `trash.keep`, purged for real when the folder is next
opened after that. Chats have their own trash in the
chat list (`chats`). The retention policy (`MemoryConfig.retention`) is shown
beside it with what it last removed, so what memory keeps, and for how long, is
on the page.
"""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import streamlit as st

from app_ui.flash import flash
from memory_lab.api import Memory
from memory_lab.errors import MemoryLabError
from memory_lab.owner import TrashKind


def move_to_trash(memory: Memory, tenant: str, kind: TrashKind, item: str) -> None:
    """Button callback: trash a fact or an episode, and say so."""
    try:
        if kind == "fact":
            event = memory.trash.delete_fact(tenant, item)
        else:
            event = memory.trash.delete_episode(tenant, item)
    except MemoryLabError as err:
        flash("error", str(err))
    else:
        days = memory.trash.keep / timedelta(days=1)
        flash("success", f"{event.detail} (restorable for {days:g} days)")


def restore_from_trash(memory: Memory, tenant: str, kind: TrashKind, item: str) -> None:
    """Button callback: bring an item back."""
    try:
        event = memory.trash.restore(tenant, kind, item)
    except MemoryLabError as err:
        flash("error", str(err))
    else:
        flash("success", event.detail)


def trash_list(memory: Memory, tenant: str) -> None:
    """The tenant's trashed facts and episodes, with a restore button."""
    held = memory.trash.items(tenant)
    sb = st.sidebar
    with sb.expander(f"Trash: facts and episodes ({len(held)})"):
        if not held:
            st.caption(
                "Empty. A fact or an episode deleted in the memory tabs waits "
                "here before it is purged for real."
            )
            return
        keep = memory.trash.keep
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "kind": t.kind,
                        "what": t.label,
                        "restorable until": t.restorable_until(keep).strftime(
                            "%Y-%m-%d %H:%M"
                        ),
                    }
                    for t in held
                ],
                columns=["kind", "what", "restorable until"],
            ),
            hide_index=True,
            key="trash_table",
        )
        by_key = {f"{t.kind}:{t.item}": t for t in held}
        chosen = st.selectbox(
            "Restore",
            list(by_key),
            key="trash_pick",
            format_func=lambda k: f"{by_key[k].kind}: {by_key[k].label}",
        )
        picked = by_key[chosen]
        st.button(
            "Restore",
            key="trash_restore",
            on_click=restore_from_trash,
            args=(memory, tenant, picked.kind, picked.item),
        )
        st.caption(
            "Past its date an item is purged for real (text, vectors and "
            "what was read from it) when the memory is next opened."
        )


def retention_line(memory: Memory, tenant: str) -> None:
    """The retention policy per tier, and what it last removed."""
    policy = memory.config.retention
    if not policy.active:
        st.sidebar.caption("Retention: none; everything is kept until deleted.")
        return
    ages = [
        ("raw turns", policy.raw_turns_days),
        ("episodes", policy.episodes_days),
        ("events", policy.events_days),
        ("cached model replies", policy.cache_days),
        *((f"{category} facts", d) for category, d in policy.facts_days.items()),
    ]
    shown = ", ".join(f"{what} {days:g} d" for what, days in ages if days)
    last = next(
        (
            e
            for e in reversed(memory.events(tenant, limit=None))
            if e.kind == "retention_applied"
        ),
        None,
    )
    when = (
        f" Last run {last.at.strftime('%Y-%m-%d %H:%M')}: {last.detail}."
        if last is not None
        else " Not run yet."
    )
    st.sidebar.caption(f"Retention (every {policy.every_hours:g} h): {shown}.{when}")
