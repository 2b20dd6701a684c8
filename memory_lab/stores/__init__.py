"""Where memory lives: protocols, persistent stores and plain-Python references.

`TranscriptStore`, `FactStore` and `EventLog` are kept in one SQL `Database`: a
SQLite file or a Postgres schema, opened by URL through `databases` and laid out
by `schema` (one source, migrated the same way on both); `EpisodeStore` in
ChromaDB. The `InMemory*` classes are the
reference models the contract tests hold the persistent ones to. Chroma is
imported only when its store is first asked for, because the import is slow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memory_lab.stores.base import EpisodeStore, EventLog, FactStore, TranscriptStore
from memory_lab.stores.memory import (
    InMemoryEpisodeStore,
    InMemoryEventLog,
    InMemoryFactStore,
    InMemoryTranscriptStore,
)
from memory_lab.stores.sqlite_events import SqliteEventLog
from memory_lab.stores.sqlite_facts import SqliteFactStore
from memory_lab.stores.sqlite_transcript import SqliteTranscriptStore
from memory_lab.stores.tenancy import TenantMismatchError

if TYPE_CHECKING:
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

__all__ = [
    "ChromaEpisodeStore",
    "EpisodeStore",
    "EventLog",
    "FactStore",
    "InMemoryEpisodeStore",
    "InMemoryEventLog",
    "InMemoryFactStore",
    "InMemoryTranscriptStore",
    "SqliteEventLog",
    "SqliteFactStore",
    "SqliteTranscriptStore",
    "TenantMismatchError",
    "TranscriptStore",
]


def __getattr__(name: str) -> Any:
    if name == "ChromaEpisodeStore":
        from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

        return ChromaEpisodeStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
