"""memory-lab's Streamlit app: chat with the memory and watch every tier change.

Run `streamlit run app.py` (or `memory-lab app`); it serves on 127.0.0.1 with usage
statistics off (see .streamlit/config.toml), on the embedded defaults: the
rule-based brain and local stores under ./data/app ($MEMORY_LAB_DATA overrides).
"""

from __future__ import annotations

from memory_lab.stores.chroma_telemetry import telemetry_off

# Chroma's telemetry must be off before chromadb is first imported.
telemetry_off()

import streamlit as st  # noqa: E402

from app_ui import (  # noqa: E402
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
from app_ui.engines import memory_for  # noqa: E402
from app_ui.settings import SettingsError  # noqa: E402
from memory_lab.errors import MemoryLabError  # noqa: E402


def main() -> None:
    """Compose the page: controls, then actions, then panels reading the new state."""
    st.set_page_config(page_title="memory-lab", layout="wide")
    settings = sidebar.choose_settings()
    if settings is None:
        st.info("Choose a tenant in the sidebar to start.")
        return
    try:
        folder, engine, clock, reset = memory_for(settings)
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
    thread = chats.current_chat(engine, tenant)
    sidebar.time_controls(engine, clock, tenant, thread)
    sidebar.replay_controls(engine, clock, tenant, thread)
    owner_panel.export_controls(engine, tenant)
    trash_panel.trash_list(engine, tenant)
    trash_panel.retention_line(engine, tenant)
    st.sidebar.caption(f"Brain: {engine.brain.name} · data: {folder}")
    model_status.model_status(engine.brain)

    chat.note_memory_read(engine, tenant)
    snapshot = engine.snapshot(tenant, thread=thread)
    left, right = st.columns([2, 3], gap="large")
    with left:
        chats.chat_list(engine, tenant, thread)
        chat.chat_panel(engine, tenant, thread, snapshot)
    with right:
        st.subheader(f"Memory of {tenant!r} · recipe {settings.recipe_spec}")
        names = ["Window", "Episodes", "Facts", "Timeline", "Context", "Evals"]
        window, episodes, facts, timeline, context, evals = st.tabs(names)
        with window:
            tiers.window_panel(engine, snapshot)
        with episodes:
            tiers.episodes_panel(engine, tenant, snapshot)
        with facts:
            tiers.facts_panel(engine, tenant, snapshot)
        with timeline:
            activity.timeline_panel(snapshot)
        with context:
            activity.context_panel(engine, tenant, snapshot, thread)
        with evals:
            evals_panel.evals_panel()


main()
