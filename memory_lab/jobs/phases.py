"""Named points on the memory path, where the fault benchmark can kill a process.

`reached(name)` does nothing unless a listener is installed (`listen`); the fault
benchmark installs one in a forked child that SIGKILLs itself at a chosen point,
so every phase is hit on purpose rather than by a lucky timer.
"""

from __future__ import annotations

from collections.abc import Callable

PHASES = (
    "ingest",
    "trigger_decision",
    "job_handover",
    "compression",
    "embedding",
    "episode_write",
    "checkpoint",
    "extraction",
    "fact_writes",
)
"""In path order: transcript append, trigger decision (inside its transaction),
after the job rows commit, after summarising, before the episode index write,
after it, inside the compression commit, after the brain's extraction, inside the
fact-write transaction."""

_listener: Callable[[str], None] | None = None


def listen(callback: Callable[[str], None] | None) -> None:
    """Install (or, with None, remove) the process's phase listener."""
    global _listener
    _listener = callback


def reached(phase: str) -> None:
    """Mark that the current thread reached `phase`."""
    if _listener is not None:
        _listener(phase)
