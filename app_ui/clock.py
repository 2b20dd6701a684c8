"""The app's clock: wall time plus an offset the "advance" buttons grow.

Trigger C, idle close, TTL expiry and decay all read the memory's clock, so moving
this clock forward lets a demo show a day passing without waiting a day. The offset
is kept per tenant in the data folder so it survives reruns and restarts.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

CLOCK_FILE = "app_clock.json"

STEPS: dict[str, timedelta] = {
    "1 hour": timedelta(hours=1),
    "1 day": timedelta(days=1),
    "1 week": timedelta(weeks=1),
}


class OffsetStore:
    """Per-tenant clock offsets in one small JSON file, written atomically."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / CLOCK_FILE
        self._lock = threading.Lock()

    def get(self, tenant: str) -> timedelta:
        """The tenant's offset; zero when it never advanced."""
        with self._lock:
            return timedelta(seconds=self._read().get(tenant, 0.0))

    def add(self, tenant: str, delta: timedelta) -> timedelta:
        """Grow the tenant's offset by `delta` and return the new offset.

        Raises:
            ValueError: for a negative delta: a clock never runs backwards, or
                rows already stamped later would lie "in the future".
        """
        if delta < timedelta(0):
            raise ValueError("the app clock cannot be moved backwards")
        with self._lock:
            data = self._read()
            data[tenant] = data.get(tenant, 0.0) + delta.total_seconds()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
            return timedelta(seconds=data[tenant])

    def _read(self) -> dict[str, float]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            # A missing or damaged file means "no time travel yet", never a crash.
            return {}
        return {str(k): float(v) for k, v in data.items() if isinstance(v, int | float)}


class OffsetClock:
    """System time plus one tenant's stored offset; satisfies memory_lab's Clock."""

    def __init__(self, store: OffsetStore, tenant: str) -> None:
        self.store = store
        self.tenant = tenant
        self._offset = store.get(tenant)
        self._last = datetime.now(UTC) + self._offset

    @property
    def offset(self) -> timedelta:
        """How far ahead of wall time this clock runs."""
        return self._offset

    def now(self) -> datetime:
        """Wall time plus the offset, never earlier than a time already given out."""
        current = datetime.now(UTC) + self._offset
        # Monotonic even if the wall clock steps back (NTP), so order stays sane.
        self._last = max(self._last, current)
        return self._last

    def advance(self, delta: timedelta) -> datetime:
        """Move forward by `delta`, persist it, and return the new time."""
        self._offset = self.store.add(self.tenant, delta)
        return self.now()
