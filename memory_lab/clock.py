"""Injected time: every trigger, TTL and validity window reads a Clock, never the OS."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

from memory_lab.concurrency.lock_order import named_lock


class Clock(Protocol):
    """Source of the current, timezone-aware time."""

    def now(self) -> datetime:
        """The current time, timezone-aware."""
        ...


class SystemClock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        """The current time in UTC."""
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told: replays, tests and the app's time controls."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware start time")
        self._now = start
        self._lock = named_lock("clock")  # guards `_now`

    def now(self) -> datetime:
        """The clock's current time."""
        with self._lock:
            return self._now

    def set(self, when: datetime) -> None:
        """Move to `when`; a clock never runs backwards."""
        if when.tzinfo is None:
            raise ValueError("ManualClock.set needs a timezone-aware time")
        with self._lock:
            if when > self._now:
                self._now = when

    def advance(self, delta: timedelta) -> datetime:
        """Move forward by `delta` and return the new time."""
        if delta < timedelta(0):
            raise ValueError("a clock cannot be moved backwards")
        with self._lock:
            self._now = self._now + delta
            return self._now
