"""Memory events: the kinds the code emits, their ids, and how one is made.

An event is what a UI timeline, an undo button and a run log read, so the kinds
are one closed vocabulary here rather than strings scattered over the writers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal, get_args

from memory_lab.types import MemoryEvent

if TYPE_CHECKING:
    from memory_lab.brains.base import BrainNote

EventKind = Literal[
    "fact_added",
    "fact_superseded",
    "fact_confirmed",
    "fact_skipped",
    "contradiction",
    "fact_forgotten",
    "facts_consolidated",
    "undone",
    "trigger_fired",
    "compressed",
    "brain_fallback",
    "fact_rejected",
    "fact_not_found",
    "fact_restored",
    "day_summarized",
    "week_summarized",
    "job_failed",
    "fact_linked",
    "fact_unlinked",
    "live_failed",
    "tool_called",
    "tool_failed",
    "moved_to_trash",
    "restored_from_trash",
    "retention_applied",
    "session_opened",
    "session_idle",
    "session_closed",
    "session_resumed",
    "item_deleted",
]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)


def event_id(tenant: str, kind: str, at: datetime, refs: Sequence[str]) -> str:
    """Deterministic event ids keep replays byte-identical."""
    raw = "|".join([tenant, kind, at.isoformat(), *refs])
    return "e_" + hashlib.sha1(raw.encode()).hexdigest()[:16]


def make_event(
    tenant: str,
    kind: EventKind,
    at: datetime,
    detail: str,
    refs: Sequence[str] = (),
    undo: dict | None = None,
) -> MemoryEvent:
    """A MemoryEvent with a deterministic id."""
    return MemoryEvent(
        id=event_id(tenant, kind, at, [*refs, detail]),
        tenant=tenant,
        at=at,
        kind=kind,
        detail=detail,
        refs=list(refs),
        undo=undo,
    )


def events_from_notes(
    tenant: str, at: datetime, notes: Sequence[BrainNote]
) -> list[MemoryEvent]:
    """A brain's notes as events of the tenant whose turns it was working on.

    Brains know no tenant; the caller that handed them the turns does, so a note
    can never land in another tenant's log.
    """
    return [make_event(tenant, n.kind, at, n.detail, n.refs) for n in notes]
