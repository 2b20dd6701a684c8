"""The sidebar's view of the model: each lane ready, busy, or failing over.

Replies and memory work reach the model on separate lanes (see
`memory_lab.brains.status`). When a lane fails over, its work quietly goes to the
offline brain; saying so, with the seconds left and the last error, is what lets
a person tell a slow local model from a broken one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import streamlit as st

from memory_lab.api import Memory
from memory_lab.brains.status import ROLE_LABELS, ModelStatus, RoleStatus, brain_status
from memory_lab.types import MemoryEvent

Level = Literal["caption", "warning"]
#: How often the lines are redrawn while a model is in use; memory work runs in
#: the background, so its state changes between page runs.
REFRESH_S = 2.0
_ERROR_CHARS = 160
_INSTEAD = {
    "reply": "the offline responder answers",
    "background": "memory work uses the rule-based brain",
}


def status_lines(status: ModelStatus) -> list[tuple[Level, str]]:
    """One line per lane and its level: a warning when the lane fails over."""
    if not status.has_model:
        return [("caption", "Model: none (the rule-based brain calls no model)")]
    return [_line(role) for role in status.roles]


def _line(role: RoleStatus) -> tuple[Level, str]:
    label = ROLE_LABELS[role.role]
    error = f" Last error: {_clip(role.last_error)}" if role.last_error else ""
    if role.state == "failing over":
        text = (
            f"{label}: failing over; {_INSTEAD[role.role]} for "
            f"{role.retry_in_s:.0f} s more.{error}"
        )
        return "warning", text
    if role.state == "busy":
        calls = "call" if role.in_flight == 1 else "calls"
        return "caption", f"{label}: busy ({role.in_flight} {calls} in flight).{error}"
    return "caption", f"{label}: ready.{error}"


def failure_line(failures: Sequence[MemoryEvent]) -> str | None:
    """The status line for memory work given up on; None when none was.

    The turns stay in the transcript and the window, but what the failed jobs
    would have added (episodes, facts) is missing until the cause is fixed.
    """
    if not failures:
        return None
    jobs = "job" if len(failures) == 1 else "jobs"
    return (
        f"Memory work: {len(failures)} {jobs} failed for good; their turns stay "
        f"in the transcript, but their episodes or facts are missing. "
        f"Last: {_clip(failures[-1].detail)}"
    )


def memory_work(memory: Memory, tenant: str) -> None:
    """Warn in the sidebar when the tenant's memory work keeps failing."""
    line = failure_line(memory.failures(tenant))
    if line is not None:
        st.sidebar.warning(line)


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _ERROR_CHARS else flat[: _ERROR_CHARS - 1] + "…"


def model_status(source: Memory | object) -> None:
    """Draw the model's lanes in the sidebar; redrawn on a timer when there is one.

    `source` is the page's `Memory`, or a brain alone (the tests drive a brain).
    """
    with st.sidebar:
        if _read(source).has_model:
            _live_lines(source)
        else:
            _draw(_read(source))


def _read(source: Memory | object) -> ModelStatus:
    if isinstance(source, Memory):
        return source.model_status()
    return brain_status(source)


@st.fragment(run_every=REFRESH_S)
def _live_lines(source: Memory | object) -> None:
    _draw(_read(source))


def _draw(status: ModelStatus) -> None:
    for level, text in status_lines(status):
        getattr(st, level)(text)
