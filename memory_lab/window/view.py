"""The window as readers see it, and the guard that makes one read consistent.

The window is the thread's turns past its compression watermark. Reading it and
then the episodes is two reads; `one_instant` holds them to one committed state,
so a compression committing in between cannot show a turn twice (in the window
and in an episode) or not at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from memory_lab.facts.memory import FactMemory
    from memory_lab.jobs.ledger import JobLedger, ThreadMarks
    from memory_lab.stores.base import TranscriptStore
    from memory_lab.types import Message


class WindowSources(Protocol):
    """The parts a window read touches: turns, facts and the ledger."""

    @property
    def transcript(self) -> TranscriptStore:
        """The thread's turns."""

    @property
    def facts(self) -> FactMemory:
        """Held exclusively during a read, as the worker holds it to write."""

    @property
    def jobs(self) -> JobLedger:
        """Its database's read transaction pins one committed state."""


def window_of(
    parts: WindowSources, tenant: str, thread: str, marks: ThreadMarks
) -> list[Message]:
    """The thread's window: its turns no committed episode covers."""
    return parts.transcript.messages(
        tenant, thread, first_seq=marks.compressed_upto + 1
    )


@contextmanager
def one_instant(parts: WindowSources) -> Iterator[None]:
    """Reads inside see one committed state of window, episodes and facts.

    Lock order is facts, then database, as for the worker's writes.
    """
    with parts.facts.exclusive(), parts.jobs.db.read():
        yield
