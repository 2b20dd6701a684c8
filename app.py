"""memory-lab's Streamlit app: chat with the memory and watch every tier change.

Run `streamlit run app.py` (or `memory-lab app`); it serves on 127.0.0.1 with usage
statistics off (see .streamlit/config.toml), on the embedded defaults: the
rule-based brain and local stores under ./data/app ($MEMORY_LAB_DATA overrides).
Importing `memory_lab` turns Chroma's telemetry off, before chromadb is loaded.

The app holds a `memory_lab.Memory` and reads it through the public API only.
"""

from __future__ import annotations

import streamlit as st

from app_ui import (
    activity,
    chat,
    chats,
    demo,
    evals_panel,
    model_status,
    owner_panel,
    sidebar,
    tiers,
    trash_panel,
)
from app_ui.engines import memory_for
from app_ui.settings import SettingsError
from memory_lab import use_one_blas_thread
from memory_lab.errors import MemoryLabError


def main() -> None:
    """Compose the page: controls, then actions, then panels reading the new state."""
    st.set_page_config(page_title="memory-lab", layout="wide")
    use_one_blas_thread()
    settings = sidebar.choose_settings()
    if settings is None:
        st.info("Choose a tenant in the sidebar to start.")
        return
    try:
        folder, memory, clock, reset = memory_for(settings)
    except (SettingsError, MemoryLabError, ValueError) as err:
        st.error(str(err))
        return
    tenant = settings.tenant
    if demo.enabled():
        st.sidebar.info(
            "Demo mode: this memory is yours alone. It is deleted when you close "
            "or reload the tab, or after an idle hour."
        )
        if reset:
            st.info(
                "Your demo memory was deleted after an idle hour; this is a new one."
            )
    thread = chats.current_chat(memory, tenant)
    sidebar.time_controls(memory, clock, tenant, thread)
    sidebar.replay_controls(memory, clock, tenant, thread)
    owner_panel.export_controls(memory, tenant)
    trash_panel.trash_list(memory, tenant)
    trash_panel.retention_line(memory, tenant)
    st.sidebar.caption(f"Brain: {memory.brain} · data: {folder}")
    model_status.model_status(memory)
    model_status.memory_work(memory, tenant)

    chat.note_memory_read(memory, tenant)
    snapshot = memory.snapshot(tenant, thread=thread)
    left, right = st.columns([2, 3], gap="large")
    with left:
        chats.chat_list(memory, tenant, thread)
        chat.chat_panel(memory, tenant, thread, snapshot)
    with right:
        st.subheader(f"Memory of {tenant!r} · recipe {settings.recipe_spec}")
        names = ["Window", "Episodes", "Facts", "Timeline", "Context", "Evals"]
        window, episodes, facts, timeline, context, evals = st.tabs(names)
        with window:
            tiers.window_panel(memory, snapshot)
        with episodes:
            tiers.episodes_panel(memory, tenant, snapshot)
        with facts:
            tiers.facts_panel(memory, tenant, snapshot)
        with timeline:
            activity.timeline_panel(snapshot)
        with context:
            activity.context_panel(memory, tenant, snapshot, thread)
        with evals:
            evals_panel.evals_panel()


main()
