"""A session's lifecycle as pure functions of its record, its turns and the clock.

States of the one current session of a (tenant, thread):

- `open`: its first turn arrived;
- `idle`: no turn for `idle_after`;
- `closed`: no turn for `close_after`, an explicit close, or a turn of another
  session label; closing extracts every turn past the watermark;
- `resumed`: a turn arrived while it was idle or closed. It keeps its label:
  the engine labels a turn with the thread's last session unless told another,
  so a turn after closing continues the same session. A turn with a new label
  closes the old session and opens the new one.

Transitions happen only when something asks (a turn, a tick, a close) and are
judged at the clock's time then, so a thread nobody touches keeps its stored
state until the next step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from memory_lab.config import SessionConfig

SessionState = Literal["open", "idle", "closed", "resumed"]


@dataclass(frozen=True)
class SessionRecord:
    """The current session of one thread, as stored."""

    session: str
    """The session label its turns carry."""
    state: SessionState
    opened_at: datetime
    """Its first turn (a later resume keeps it)."""
    last_turn_at: datetime
    since: datetime
    """When it entered `state`."""
    closed_at: datetime | None
    """Its last close; None until it is first closed."""
    reason: str
    """Why it entered `state`, for the run log and the app."""


@dataclass(frozen=True)
class Transition:
    """One change of state: what the run log records."""

    before: SessionState | None
    """None when the session was just opened."""
    after: SessionRecord


@dataclass(frozen=True)
class SessionStep:
    """What one step did to a thread's session."""

    record: SessionRecord | None
    """The session after the step (None: no turn yet)."""
    transitions: list[Transition]

    @property
    def closed(self) -> bool:
        """Whether the session is closed after the step (its turns are owed)."""
        return self.record is not None and self.record.state == "closed"


@dataclass(frozen=True)
class Turn:
    """What the lifecycle reads of an incoming turn."""

    session: str
    at: datetime


def describe_span(span: timedelta) -> str:
    """A gap as people say it: '45 min', '4 h', '4 h 30 min', '2 d 3 h'."""
    minutes = int(span.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{n} {unit}" for n, unit in ((days, "d"), (hours, "h")) if n]
    if mins or not parts:
        parts.append(f"{mins} min")
    return " ".join(parts[:2])


def advance(
    record: SessionRecord | None,
    now: datetime,
    config: SessionConfig,
    *,
    turns: Sequence[Turn] = (),
    close: bool = False,
) -> SessionStep:
    """The session after a step and the transitions it went through, in order.

    Timeouts are judged first, at `now`, so a turn after a long silence closes
    the session (its turns are extracted) and then resumes it.
    """
    out: list[Transition] = []

    def move(to: SessionRecord) -> None:
        nonlocal record
        out.append(Transition(None if record is None else record.state, to))
        record = to

    if record is not None:
        timed_out = timeout(record, now, config)
        if timed_out is not None:
            move(timed_out)
    for turn in turns:
        if record is None or turn.session != record.session:
            if record is not None and record.state != "closed":
                move(_closed(record, now, f"session {turn.session} began"))
            move(
                SessionRecord(
                    session=turn.session,
                    state="open",
                    opened_at=turn.at,
                    last_turn_at=turn.at,
                    since=now,
                    closed_at=None,
                    reason="first turn of the session",
                )
            )
            continue
        if record.state in ("idle", "closed"):
            gap = describe_span(max(turn.at - record.last_turn_at, timedelta(0)))
            move(
                replace(
                    record,
                    state="resumed",
                    since=now,
                    last_turn_at=max(turn.at, record.last_turn_at),
                    reason=f"a turn after {gap} without one ({record.state})",
                )
            )
        else:
            # A turn in a live session is no transition, only its new time.
            record = replace(record, last_turn_at=max(turn.at, record.last_turn_at))
    if close and record is not None and record.state != "closed":
        move(_closed(record, now, "closed on request"))
    return SessionStep(record, out)


def timeout(
    record: SessionRecord, now: datetime, config: SessionConfig
) -> SessionRecord | None:
    """The record after the silence since its last turn, or None if nothing is due.

    One step goes straight to the furthest state due: a session silent past
    `close_after` is closed without first being recorded idle.
    """
    gap = now - record.last_turn_at
    said = f"no turn for {describe_span(gap)}"
    if gap >= config.close_after and record.state != "closed":
        return _closed(record, now, said)
    if gap >= config.idle_after and record.state in ("open", "resumed"):
        return replace(record, state="idle", since=now, reason=said)
    return None


def _closed(record: SessionRecord, now: datetime, reason: str) -> SessionRecord:
    return replace(record, state="closed", since=now, closed_at=now, reason=reason)
