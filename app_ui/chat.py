"""The chat, with each reply's memory writes as quiet status lines and Undo.

A write is visible where it happened and can be reverted there, so the user
never has to go looking for what the memory did. Proactive suggestions sit
above the input as prompts to click.
"""

from __future__ import annotations

import streamlit as st

from app_ui import actions
from app_ui.flash import report_step, show_flash
from memory_lab.engine import MemoryEngine
from memory_lab.errors import MemoryLabError
from memory_lab.types import Message

PENDING = "pending_prompt"
# Only the latest turns are drawn: a long replay would otherwise slow every rerun.
SHOWN_TURNS = 60


def _writes(tenant: str) -> dict[str, list[dict]]:
    """Status lines of this tab's replies, keyed by tenant then reply id."""
    per_tenant = st.session_state.setdefault("writes", {})
    return per_tenant.setdefault(tenant, {})


def _undone(tenant: str) -> set[str]:
    return st.session_state.setdefault("undone", {}).setdefault(tenant, set())


def _undo(engine: MemoryEngine, tenant: str, event: dict) -> None:
    try:
        actions.undo(engine, tenant, event)
    except MemoryLabError as err:
        st.session_state.setdefault("flash", []).append(
            ("error", f"Undo failed: {err}")
        )
    else:
        _undone(tenant).add(event["id"])


def _status_lines(engine: MemoryEngine, tenant: str, reply_id: str) -> None:
    for event in _writes(tenant).get(reply_id, []):
        text, button = st.columns([6, 1], vertical_alignment="center")
        done = event["id"] in _undone(tenant)
        text.caption(
            ("~~" + event["detail"] + "~~ (undone)") if done else event["detail"]
        )
        if event.get("undo") and not done:
            button.button(
                "Undo",
                key=f"undo_{event['id']}",
                on_click=_undo,
                args=(engine, tenant, event),
                type="tertiary",
            )


def _draw(engine: MemoryEngine, tenant: str, messages: list[Message]) -> None:
    for msg in messages:
        role = msg.role if msg.role in ("user", "assistant") else "assistant"
        with st.chat_message(role):
            st.markdown(msg.content)
            if msg.role == "assistant":
                _status_lines(engine, tenant, msg.id)


def _send(engine: MemoryEngine, tenant: str, text: str) -> None:
    """Chat one message and draw it, or show why it was refused."""
    try:
        with st.spinner("Thinking..."):
            step = actions.send(engine, tenant, text)
    except MemoryLabError as err:
        st.error(f"Not sent: {err}")
        return
    writes = [
        e.model_dump(mode="json") for e in step.events if e.kind in actions.WRITE_KINDS
    ]
    replies = [
        m for m in engine.transcript.messages(tenant, "main") if m.role == "assistant"
    ]
    if replies:
        _writes(tenant)[replies[-1].id] = writes
    report_step(step)
    st.rerun()


def _suggestions(snapshot: dict) -> None:
    items = snapshot.get("suggestions", [])
    if not items:
        return
    st.caption("Suggested follow-ups")
    for i, item in enumerate(items[:4]):
        st.button(
            item["prompt"],
            key=f"suggest_{i}_{item['fact_id']}",
            help=item["reason"],
            on_click=lambda p=item["prompt"]: st.session_state.update({PENDING: p}),
        )


def chat_panel(engine: MemoryEngine, tenant: str, snapshot: dict) -> None:
    """Draw the conversation; handle a new message, typed or a clicked suggestion."""
    st.subheader("Chat")
    show_flash()
    history = st.container(height=520, border=False)
    _suggestions(snapshot)
    typed = st.chat_input("Message the assistant", key="chat_box")
    text = typed if typed is not None else st.session_state.pop(PENDING, None)
    with history:
        messages = engine.transcript.messages(tenant, "main")
        if not messages:
            st.caption(
                "No turns yet: say something, click a suggestion, or replay a "
                "conversation from the sidebar."
            )
        _draw(engine, tenant, messages[-SHOWN_TURNS:])
        if text is not None:
            _send(engine, tenant, text)
