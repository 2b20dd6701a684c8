"""Messages that outlive the rerun that raised them.

A button's action runs in one script run, but the panel that should show its
outcome may render later in that run or in the next; keeping messages in the
session's state and showing them once at the top keeps every error visible.
"""

from __future__ import annotations

from typing import Literal

import streamlit as st

from memory_lab.api_views import Step

Level = Literal["error", "warning", "info", "success"]
_KEY = "flash"


def flash(level: Level, text: str) -> None:
    """Queue a message for the top of the page."""
    st.session_state.setdefault(_KEY, []).append((level, text))


def report_step(step: Step) -> None:
    """Queue what a step did that the user should notice: triggers and fallbacks."""
    for event in step.events:
        if event.kind == "brain_fallback":
            flash("warning", f"LLM unavailable, rule-based brain used: {event.detail}")
        elif event.kind == "trigger_fired":
            flash("info", f"Trigger fired: {event.detail}")


def show_flash() -> None:
    """Show and clear queued messages."""
    for level, text in st.session_state.pop(_KEY, []):
        getattr(st, level)(text)
