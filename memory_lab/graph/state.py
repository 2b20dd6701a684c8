"""Graph state: plain JSON-able values so the SQLite checkpointer can store them safely.

Records travel as dicts (`model_dump(mode="json")`) and are rebuilt in the nodes.
"""

from __future__ import annotations

from typing import TypedDict


class MemoryState(TypedDict, total=False):
    """One chat thread's memory as the graph sees it between turns."""

    tenant: str
    thread: str
    # inputs of a step
    incoming: list[dict]
    """Messages to ingest in this step (may be empty: a clock tick)."""
    respond: bool
    """Answer the last incoming user message."""
    close_session: bool
    """Flush extraction for everything past the watermark (new chat or idle)."""
    # the session window
    window: list[dict]
    summary: str
    session: str
    last_seq: int
    """Highest transcript seq this thread has taken into its window or episodes."""
    extracted_upto: int
    """Extraction watermark: turns up to this seq have been through extraction."""
    # outputs of a step
    decision: dict | None
    context: dict | None
    reply: str | None
    step_events: list[dict]
    session_changed: bool
