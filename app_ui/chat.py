"""The chat, with each reply's memory writes as quiet status lines and Undo.

A write is visible where it happened and can be reverted there, so the user
never has to go looking for what the memory did. Proactive suggestions sit
above the input as prompts to click.

Memory work runs in the memory's background worker, so a reply comes back before
its facts are written: a quiet "memory updating" line shows while work is owed,
and the page refreshes itself once it lands. A reply's status lines are the
writes logged at its turn's time, up to the next reply's.
"""

from __future__ import annotations

from datetime import datetime

import streamlit as st

from app_ui import actions
from app_ui.flash import report_step, show_flash
from memory_lab.api import Memory
from memory_lab.api_views import adds_nothing
from memory_lab.errors import MemoryLabError
from memory_lab.snapshot import MemorySnapshot
from memory_lab.types import MemoryEvent, Message

PENDING = "pending_prompt"
COMPARE = "compare_without_memory"
PAGE_RUNS = "chat_page_runs"
_READ_OWING = "memory_owed_at_read"
# Only the latest turns are drawn: a long replay would otherwise slow every rerun.
SHOWN_TURNS = 60


def _writes(tenant: str) -> dict[str, str]:
    """When each of this tab's replies was asked (ISO time), keyed by reply id."""
    per_tenant = st.session_state.setdefault("writes", {})
    return per_tenant.setdefault(tenant, {})


def _reply_writes(memory: Memory, tenant: str, reply_id: str) -> list[dict]:
    """The memory writes of a reply's turn, wherever the worker is with them."""
    asked = _writes(tenant)
    if reply_id not in asked:
        return []
    start = datetime.fromisoformat(asked[reply_id])
    later = sorted(t for t in asked.values() if t > asked[reply_id])
    end = datetime.fromisoformat(later[0]) if later else None
    events: list[MemoryEvent] = memory.events(tenant, since=start, limit=None)
    return [
        e.model_dump(mode="json")
        for e in events
        if e.kind in actions.WRITE_KINDS and (end is None or e.at < end)
    ]


def _undone(tenant: str) -> set[str]:
    return st.session_state.setdefault("undone", {}).setdefault(tenant, set())


def _undo(memory: Memory, tenant: str, event: dict) -> None:
    try:
        actions.undo(memory, tenant, event)
    except MemoryLabError as err:
        st.session_state.setdefault("flash", []).append(
            ("error", f"Undo failed: {err}")
        )
    else:
        _undone(tenant).add(event["id"])


def _status_lines(memory: Memory, tenant: str, reply_id: str) -> None:
    for event in _reply_writes(memory, tenant, reply_id):
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
                args=(memory, tenant, event),
                type="tertiary",
            )


def _extras() -> dict[str, dict]:
    """What this tab learned about each reply: chats, tool calls, the memoryless one."""
    return st.session_state.setdefault("reply_extras", {})


def _reply_notes(reply_id: str) -> None:
    extra = _extras().get(reply_id)
    if not extra:
        return
    if extra.get("chats"):
        names = ", ".join(repr(t) for t in extra["chats"])
        st.caption(f":material/link: Recalled from your other chats: {names}")
    if extra.get("tools"):
        with st.expander(f"Memory tools called ({len(extra['tools'])})"):
            for line, ok in extra["tools"]:
                st.caption(line if ok else f":red[{line}]")
    if "without" in extra:
        with st.container(border=True):
            st.caption("Without memory, the same brain answers:")
            st.markdown(extra["without"])


def _draw(memory: Memory, tenant: str, messages: list[Message]) -> None:
    for msg in messages:
        role = msg.role if msg.role in ("user", "assistant") else "assistant"
        with st.chat_message(role):
            st.markdown(msg.content)
            if msg.restated:  # left out of what memory is built from
                st.caption(
                    "Restates memory" if adds_nothing(msg) else "Partly restates memory"
                )
            if msg.role == "assistant":
                _reply_notes(msg.id)
                _status_lines(memory, tenant, msg.id)


def _send(memory: Memory, tenant: str, thread: str, text: str) -> None:
    """Chat one message and draw it, or show why it was refused."""
    asked = memory.clock.now()
    try:
        with st.spinner("Thinking..."):
            step = actions.send(memory, tenant, text, thread)
            without = (
                actions.reply_without_memory(memory, tenant, text)
                if st.session_state.get(COMPARE)
                else None
            )
    except MemoryLabError as err:
        st.error(f"Not sent: {err}")
        return
    replies = [m for m in memory.turns(tenant, thread=thread) if m.role == "assistant"]
    if len(replies) == 1:
        actions.title_by_model(memory, tenant, thread, text)
    if replies:
        reply_id = replies[-1].id
        _writes(tenant)[reply_id] = asked.isoformat()
        extra = {
            "chats": actions.recalled_from(memory, tenant, thread, step.context),
            "tools": actions.tool_calls(step),
        }
        if without is not None:
            extra["without"] = without
        _extras()[reply_id] = extra
    report_step(step)
    st.rerun()


@st.fragment(run_every=1.0)
def memory_status(memory: Memory, tenant: str, page_run: int) -> None:
    """A quiet line while memory work is owed; a refresh of the page when it lands.

    Only the fragment's own timed reruns refresh the page. In a full page run the
    page is drawn fresh anyway, and a rerun there would discard the message the
    user has just sent (and the error refusing it) before it is handled.
    """
    pending = memory.pending(tenant)
    drawn_key = f"memory_status_run_{tenant}"
    timed_rerun = st.session_state.get(drawn_key) == page_run
    st.session_state[drawn_key] = page_run
    if pending:
        jobs = "job" if pending == 1 else "jobs"
        st.caption(
            f":material/sync: memory updating ({pending} {jobs} in the background)"
        )
    elif timed_rerun and st.session_state.get(_READ_OWING, {}).get(tenant):
        st.rerun(scope="app")


def note_memory_read(memory: Memory, tenant: str) -> None:
    """Call just before the page reads memory: the work still owed at that moment.

    The panels show what was committed when they read it. Work that lands after
    that read, even within the same run, leaves them behind, so the page is
    refreshed once the work owed at the read is done, not merely when the count
    last seen by this fragment drops.
    """
    st.session_state.setdefault(_READ_OWING, {})[tenant] = memory.pending(tenant)


def _suggestions(snapshot: MemorySnapshot) -> None:
    items = snapshot.suggestions
    if not items:
        return
    st.caption("Suggested follow-ups")
    for i, item in enumerate(items[:4]):
        st.button(
            item.prompt,
            key=f"suggest_{i}_{item.fact_id}",
            help=item.reason,
            on_click=lambda p=item.prompt: st.session_state.update({PENDING: p}),
        )


def chat_panel(
    memory: Memory, tenant: str, thread: str, snapshot: MemorySnapshot
) -> None:
    """Draw one chat; handle a new message, typed or a clicked suggestion."""
    # Counts full page runs: a fragment rerun replays the same argument.
    page_run = st.session_state[PAGE_RUNS] = st.session_state.get(PAGE_RUNS, 0) + 1
    memory_status(memory, tenant, page_run)
    show_flash()
    history = st.container(height=520, border=False)
    _suggestions(snapshot)
    st.toggle(
        "Also answer without memory",
        key=COMPARE,
        help="Each reply is shown beside what the same brain says from an empty "
        "memory, so the difference is what memory added. The memoryless answer is "
        "not stored.",
    )
    typed = st.chat_input("Message the assistant", key="chat_box")
    text = typed if typed is not None else st.session_state.pop(PENDING, None)
    with history:
        messages = memory.turns(tenant, thread=thread)
        if not messages:
            st.caption(
                "No turns yet: say something, click a suggestion, or replay a "
                "conversation from the sidebar."
            )
        _draw(memory, tenant, messages[-SHOWN_TURNS:])
        if text is not None:
            _send(memory, tenant, thread, text)
