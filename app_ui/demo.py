"""Demo mode: each browser session keeps its memory in a folder of its own.

A public demo must not show one visitor's facts to the next, and a free-text
tenant field is no separation. With `memory-lab app --demo`
(MEMORY_LAB_APP_DEMO=1) every browser session gets a temporary data folder,
made on its first run and deleted when the session ends (Streamlit releases a
session-scoped resource when the browser goes away) or once it has been idle
for an hour (MEMORY_LAB_DEMO_IDLE_S), whichever comes first. The folder holds
every store of that memory, and no other session is ever given its path.

`DemoSpaces` knows nothing of Streamlit, so its expiry is tested on a manual
clock; `session_space` binds one space to one browser session. Every space's
memory shares the process's models (`memory_lab.api_views.warm_up`).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from app_ui.clock import OffsetClock, OffsetStore
from memlab_cli.settings import Settings
from memory_lab.api import Memory
from memory_lab.config import MemoryConfig

IDLE_ENV = "MEMORY_LAB_DEMO_IDLE_S"
"""Named in the error for a bad idle limit; read by `memlab_cli.settings`."""
IDLE_S = 3600.0
"""A session's memory is deleted after this long without a rerun."""
PREFIX = "session-"


def enabled() -> bool:
    """Whether the app runs as a public demo (`memory-lab app --demo`)."""
    return Settings().app_demo


def idle_seconds() -> float:
    """The idle limit: MEMORY_LAB_DEMO_IDLE_S, else an hour.

    Raises:
        ValueError: for a value that is not a positive number of seconds.
    """
    try:
        return Settings().demo_idle_s
    except ValidationError:
        raise ValueError(f"{IDLE_ENV}: give a positive number of seconds") from None


def demo_root() -> Path:
    """Where the sessions' folders live: MEMORY_LAB_DEMO_ROOT, else the temp dir."""
    root = Settings().demo_root
    return root if root is not None else Path(tempfile.gettempdir()) / "memory-lab-demo"


class DemoSpace:
    """One browser session's memory: its folder, clock and open `Memory`.

    After an idle expiry the space stays bound to its session; the next run
    opens a fresh folder and says once that the old memory is gone.
    """

    def __init__(self, registry: DemoSpaces, root: Path, now: float) -> None:
        self.id = uuid.uuid4().hex[:12]
        self.registry = registry
        self._root = root
        self.folder: Path | None = None
        self.last_seen = now
        self.expired = False
        self._memory: Memory | None = None
        self._memory_key: str | None = None
        self._clocks: dict[str, OffsetClock] = {}
        self._lock = threading.RLock()

    def open(
        self, tenant: str, config: MemoryConfig, now: float
    ) -> tuple[Path, Memory, OffsetClock, bool]:
        """The folder, memory and clock for this run; True when memory was reset.

        The memory is reopened only when the tenant or configuration changed.
        """
        with self._lock:
            reset = self.expired
            self.expired = False
            self.last_seen = now
            if self.folder is None:
                self._root.mkdir(parents=True, exist_ok=True)
                self.folder = Path(
                    tempfile.mkdtemp(prefix=f"{PREFIX}{self.id}-", dir=self._root)
                )
            if tenant not in self._clocks:
                self._clocks[tenant] = OffsetClock(OffsetStore(self.folder), tenant)
            clock = self._clocks[tenant]
            key = f"{tenant}\n{config.model_dump_json()}"
            if self._memory is None or self._memory_key != key:
                self._close_memory()
                # The folder alone, never a configured server: that is not private.
                self._memory = Memory.open(self.folder, config=config, clock=clock)
                self._memory_key = key
            return self.folder, self._memory, clock, reset

    def drop(self, *, expired: bool) -> None:
        """Close the memory and delete the folder (idempotent)."""
        with self._lock:
            self._close_memory()
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
            self._clocks.clear()
            self.expired = expired

    def _close_memory(self) -> None:
        if self._memory is not None:
            self._memory.close()
        self._memory = None
        self._memory_key = None


class DemoSpaces:
    """Every live session's space under one root, and their expiry."""

    def __init__(
        self,
        root: Path,
        idle_s: float,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.root = root
        self.idle_s = idle_s
        self._now = monotonic
        self._spaces: dict[str, DemoSpace] = {}
        self._lock = threading.Lock()

    def new(self) -> DemoSpace:
        """A space for a session that just started."""
        space = DemoSpace(self, self.root, self._now())
        with self._lock:
            self._spaces[space.id] = space
        return space

    def now(self) -> float:
        """The clock expiry is measured on."""
        return self._now()

    def release(self, space: DemoSpace) -> None:
        """The session ended: its memory goes with it."""
        with self._lock:
            self._spaces.pop(space.id, None)
        space.drop(expired=False)

    def sweep(self) -> list[str]:
        """Delete the memory of every session idle past the limit; their ids.

        Folders under the root that no live session owns (left by a server that
        was killed) are deleted once they are as old as the limit.
        """
        now = self._now()
        with self._lock:
            spaces = list(self._spaces.values())
        expired = []
        for space in spaces:
            if space.folder is not None and now - space.last_seen > self.idle_s:
                space.drop(expired=True)
                expired.append(space.id)
        owned = {s.folder for s in spaces if s.folder is not None}
        if self.root.is_dir():
            cutoff = time.time() - self.idle_s
            for folder in self.root.glob(f"{PREFIX}*"):
                if folder not in owned and folder.stat().st_mtime < cutoff:
                    shutil.rmtree(folder, ignore_errors=True)
        return expired

    def live(self) -> int:
        """Sessions with a space."""
        with self._lock:
            return len(self._spaces)


def start_sweeper(spaces: DemoSpaces, every_s: float) -> threading.Thread:
    """A daemon thread that sweeps every `every_s` seconds for the server's life."""

    def run() -> None:
        while True:
            time.sleep(every_s)
            spaces.sweep()

    thread = threading.Thread(target=run, name="memory-lab-demo-sweeper", daemon=True)
    thread.start()
    return thread
