"""Store backends for the contract suite: every implementation of each protocol.

A backend opens a store at a named location; opening the same location again
reopens it (a new connection or client for the on-disk stores, the same object
for the in-memory ones), which is how persistence is tested.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from memory_lab.embeddings import default_embedder
from memory_lab.stores import (
    InMemoryEpisodeStore,
    InMemoryEventLog,
    InMemoryFactStore,
    InMemoryTranscriptStore,
    SqliteEventLog,
    SqliteFactStore,
    SqliteTranscriptStore,
)


@dataclass
class Backend:
    name: str
    factory: Callable[[str], Any]
    persistent: bool
    nul_text: bool = True
    """Whether text may hold NUL characters (Postgres text cannot)."""
    _cache: dict[str, Any] = field(default_factory=dict)
    _opened: list[Any] = field(default_factory=list)
    _fresh: Iterator[int] = field(default_factory=itertools.count)

    def open(self, location: str = "main") -> Any:
        if not self.persistent:
            if location not in self._cache:
                self._cache[location] = self.factory(location)
            return self._cache[location]
        store = self.factory(location)
        self._opened.append(store)
        return store

    def fresh(self) -> Any:
        """A new, empty store (for one hypothesis example)."""
        return self.open(f"fresh-{next(self._fresh)}")

    def close_all(self) -> None:
        for store in self._opened:
            store.close()


def _backend(
    request: pytest.FixtureRequest, backends: dict[str, Callable]
) -> Iterator[Backend]:
    name = request.param
    factory, persistent = backends[name]
    backend = Backend(name, factory, persistent, nul_text=name != "postgres")
    yield backend
    backend.close_all()


@pytest.fixture(scope="session")
def embedder():
    return default_embedder()


SERVER = pytest.mark.xdist_group("servers")
"""Tests on a server run on one worker, which starts the server once."""
SQL_BACKENDS = ["sqlite", pytest.param("postgres", marks=SERVER), "memory"]


def _postgres(request: pytest.FixtureRequest) -> Callable[[str], Any]:
    """Databases in the test's own namespaces on the shared Postgres server."""
    from memory_lab.stores.postgres_db import PostgresDatabase

    prefix = f"t{uuid.uuid4().hex[:12]}"

    def database(loc: str) -> PostgresDatabase:
        url = request.getfixturevalue("postgres_url")
        return PostgresDatabase(url, f"{prefix}_{loc}")

    return database


def _sql_backends(request, tmp_path: Path, store: type, memory: type):
    postgres = _postgres(request)
    return {
        "sqlite": (lambda loc: store(tmp_path / f"{loc}.sqlite3"), True),
        "postgres": (lambda loc: store(postgres(loc)), True),
        "memory": (lambda loc: memory(), False),
    }


@pytest.fixture(params=SQL_BACKENDS)
def transcripts(request, tmp_path: Path) -> Iterator[Backend]:
    yield from _backend(
        request,
        _sql_backends(
            request, tmp_path, SqliteTranscriptStore, InMemoryTranscriptStore
        ),
    )


@pytest.fixture(params=SQL_BACKENDS)
def facts(request, tmp_path: Path) -> Iterator[Backend]:
    yield from _backend(
        request, _sql_backends(request, tmp_path, SqliteFactStore, InMemoryFactStore)
    )


@pytest.fixture(params=SQL_BACKENDS)
def events(request, tmp_path: Path) -> Iterator[Backend]:
    yield from _backend(
        request, _sql_backends(request, tmp_path, SqliteEventLog, InMemoryEventLog)
    )


@pytest.fixture(
    params=["chroma", pytest.param("chroma-server", marks=SERVER), "memory"]
)
def episodes(request, tmp_path: Path, embedder) -> Iterator[Backend]:
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

    def chroma(loc: str):
        return ChromaEpisodeStore(tmp_path / f"chroma-{loc}", embedder)

    # Every test gets collections of its own on the one shared server.
    prefix = f"t{uuid.uuid4().hex[:12]}"

    def chroma_server(loc: str):
        url = request.getfixturevalue("chroma_url")
        return ChromaEpisodeStore(url, embedder, collection=f"{prefix}-{loc}")

    yield from _backend(
        request,
        {
            "chroma": (chroma, True),
            "chroma-server": (chroma_server, True),
            "memory": (lambda loc: InMemoryEpisodeStore(embedder), False),
        },
    )
