"""Graph state of one turn: plain JSON-able values.

Records travel as dicts (`model_dump(mode="json")`) and are rebuilt in the nodes.
Nothing here outlives the turn: what the memory holds between turns (window
bounds, summary, watermarks, owed work) is in the job ledger, in the same SQLite
file as the transcript (`memory_lab.jobs.ledger`).
"""

from __future__ import annotations

from typing import Any, TypedDict


class MemoryState(TypedDict, total=False):
    """One turn of one chat thread, as the graph sees it."""

    tenant: str
    thread: str
    # inputs of a step
    incoming: list[dict]
    """Messages to ingest in this step (may be empty: a clock tick)."""
    respond: bool
    """Answer the last incoming user message."""
    close_session: bool
    """Close the session: extract everything past the watermark. Set by the
    caller, or by `track_session` when the session timed out."""
    ahead: Any
    """The triggers' decision made before the step took the engine's lock
    (`memory_lab.jobs.planning.DecidedAhead`, never checkpointed); planning
    takes it only if it still holds."""
    # outputs of a step
    window: list[dict]
    """The thread's window after the step: turns no committed episode holds."""
    summary: str
    """The running summary of what committed episodes hold."""
    decision: dict | None
    jobs: int
    """How many memory jobs the step recorded for the background worker."""
    context: dict | None
    reply: str | None
    step_events: list[dict]


class JobState(TypedDict, total=False):
    """One background job, as the maintenance graph sees it."""

    job: Any
    """The `memory_lab.jobs.ledger.Job` to run (never checkpointed)."""
    events: list[dict]
    """The events the job logged (none if another worker finished it first)."""
