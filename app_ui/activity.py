"""What the memory did, and what the model would be shown.

The trigger timeline, and the assembled context with its tokens per block against
the budget.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_ui.actions import TIMELINE_KINDS
from memory_lab.api import Memory
from memory_lab.snapshot import MemorySnapshot


def timeline_panel(snapshot: MemorySnapshot) -> None:
    """Trigger firings, compressions and brain fallbacks, newest first, with reasons."""
    events = [e for e in snapshot.events if e.kind in TIMELINE_KINDS]
    fired = sum(e.kind == "trigger_fired" for e in events)
    st.metric("Trigger firings", fired)
    rows = [
        {"at": f"{e.at:%Y-%m-%d %H:%M:%S}", "event": e.kind, "why": e.detail}
        for e in reversed(events)
    ]
    st.dataframe(
        pd.DataFrame(rows, columns=["at", "event", "why"]),
        hide_index=True,
        key="timeline_table",
        column_config={
            "at": st.column_config.TextColumn(width="small"),
            "event": st.column_config.TextColumn(width="small"),
            "why": st.column_config.TextColumn(width="large"),
        },
    )
    with st.expander("Every memory event"):
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "at": f"{e.at:%Y-%m-%d %H:%M:%S}",
                        "event": e.kind,
                        "detail": e.detail,
                    }
                    for e in reversed(snapshot.events)
                ],
                columns=["at", "event", "detail"],
            ),
            hide_index=True,
            key="events_table",
        )


def _last_user_text(snapshot: MemorySnapshot) -> str:
    for m in reversed(snapshot.window.messages):
        if m.role == "user":
            return m.content
    return ""


def context_panel(
    memory: Memory, tenant: str, snapshot: MemorySnapshot, thread: str = "main"
) -> None:
    """The context the responder would get for a query, block by block."""
    query = st.text_input(
        "Query", key="context_query", placeholder="Defaults to the last user message"
    )
    query = query.strip() or _last_user_text(snapshot) or "What do you know about me?"
    bundle = memory.context(tenant, query, thread=thread)
    st.progress(
        min(bundle.total_tokens / bundle.budget, 1.0),
        text=f"Total {bundle.total_tokens} / {bundle.budget} tokens",
    )
    chart = pd.DataFrame(
        [
            {
                "block": b.kind,
                "tokens": b.tokens,
                "unused budget": max(b.budget - b.tokens, 0),
            }
            for b in bundle.blocks
        ]
    )
    st.bar_chart(
        chart,
        x="block",
        y=["tokens", "unused budget"],
        horizontal=True,
        color=["#2e7d32", "#d7dde3"],
        # With horizontal bars, x_label names the category axis.
        x_label="",
        y_label="tokens",
        # One bar per block needs about 40 px, or the axis drops block names.
        height=60 + 40 * len(bundle.blocks),
    )
    for block in bundle.blocks:
        label = f"{block.kind}: {block.tokens} / {block.budget} tokens"
        if block.items:
            label += f" · {len(block.items)} item(s)"
        with st.expander(label):
            st.text(block.text or "(empty)")
    if bundle.hedged_fact_ids:
        st.caption(
            f"Hedged (low confidence) facts: {', '.join(bundle.hedged_fact_ids)}"
        )
