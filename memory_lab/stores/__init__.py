"""Where memory lives: protocols, persistent stores and plain-Python references.

`TranscriptStore`, `FactStore` and `EventLog` are kept in one SQL `Database`: a
SQLite file or a Postgres schema, opened by URL through `databases` and laid out
by `schema` (one source, migrated the same way on both); `EpisodeStore` in
ChromaDB. The `InMemory*` classes are the reference models the contract tests
hold the persistent ones to. Chroma is imported only when its store is first
asked for, because the import is slow.
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
from memory_lab.stores.sql_events import SqlEventLog
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.sql_transcript import SqlTranscriptStore
from memory_lab.stores.tenancy import TenantMismatchError

# The names these stores had when they ran on SQLite only, for users' code.
SqliteEventLog = SqlEventLog
SqliteFactStore = SqlFactStore
SqliteFactLinkStore = SqlFactLinkStore
SqliteTranscriptStore = SqlTranscriptStore

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
    "SqlEventLog",
    "SqlFactLinkStore",
    "SqlFactStore",
    "SqlTranscriptStore",
    "SqliteEventLog",
    "SqliteFactLinkStore",
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
