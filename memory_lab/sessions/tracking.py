"""A step's share of the session lifecycle: decide, store, and log as events."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memory_lab.config import SessionConfig
from memory_lab.events import EventKind, make_event
from memory_lab.sessions.lifecycle import SessionStep, Transition, Turn, advance
from memory_lab.sessions.store import SessionStore
from memory_lab.stores.base import EventLog
from memory_lab.types import MemoryEvent

_KINDS: dict[str, EventKind] = {
    "open": "session_opened",
    "idle": "session_idle",
    "closed": "session_closed",
    "resumed": "session_resumed",
}


def record_session_step(
    store: SessionStore,
    events: EventLog,
    tenant: str,
    thread: str,
    now: datetime,
    config: SessionConfig,
    *,
    turns: Sequence[Turn] = (),
    close: bool = False,
) -> tuple[SessionStep, list[MemoryEvent]]:
    """Apply a step to the thread's session; store it and log its transitions.

    Callers run this inside the database's write transaction, so the state and
    its events commit together.
    """
    step = advance(store.get(tenant, thread), now, config, turns=turns, close=close)
    if step.record is not None:
        store.put(tenant, thread, step.record)
    logged = transition_events(tenant, thread, step.transitions)
    if logged:
        events.append(tenant, logged)
    return step, logged


def transition_events(
    tenant: str, thread: str, transitions: Sequence[Transition]
) -> list[MemoryEvent]:
    """One event per transition, at the time it happened, with its reason."""
    out = []
    for t in transitions:
        record = t.after
        detail = f"Session {record.session} {record.state}: {record.reason}"
        if record.state == "closed":
            detail += "; its turns past the watermark are extracted"
        out.append(
            make_event(
                tenant,
                _KINDS[record.state],
                record.since,
                detail,
                [thread, record.session],
            )
        )
    return out
