"""Store backends for the contract suite: every implementation of each protocol.

The SQL stores run on every database backend of `memory_lab.stores.databases`,
so a backend registered there is held to the same contracts.

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
    SqlEventLog,
    SqlFactStore,
    SqlTranscriptStore,
    databases,
    locations,
)
from memory_lab.stores.base import Database


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
SQL_BACKENDS = [
    pytest.param(name, marks=SERVER) if backend.schemes else name
    for name, backend in databases.BACKENDS.items()
] + ["memory"]
"""Every database backend of the registry, then the in-memory reference."""


def _opener(
    request: pytest.FixtureRequest, tmp_path: Path, backend: databases.Backend
) -> Callable[[str], Database]:
    """Databases of one backend, a location each.

    A local backend keeps each location in its own file; a server backend gives
    each test namespaces of its own on the shared server that the
    `<name>_url` fixture starts.
    """
    if not backend.schemes:
        return lambda loc: backend.open(str(tmp_path / f"{loc}.sqlite3"), "")
    prefix = f"t{uuid.uuid4().hex[:12]}"

    def on_server(loc: str) -> Database:
        url = request.getfixturevalue(f"{backend.name}_url")
        return backend.open(url, f"{prefix}_{loc}")

    return on_server


def _sql_backends(request, tmp_path: Path, store: type, memory: type):
    """`store` on every registered database, and the `memory` reference."""
    backends: dict[str, tuple[Callable[[str], Any], bool]] = {}
    for name, backend in databases.BACKENDS.items():
        database = _opener(request, tmp_path, backend)
        backends[name] = (lambda loc, database=database: store(database(loc)), True)
    backends["memory"] = (lambda loc: memory(), False)
    return backends


@pytest.fixture(params=SQL_BACKENDS)
def transcripts(request, tmp_path: Path) -> Iterator[Backend]:
    yield from _backend(
        request,
        _sql_backends(request, tmp_path, SqlTranscriptStore, InMemoryTranscriptStore),
    )


@pytest.fixture(params=SQL_BACKENDS)
def facts(request, tmp_path: Path) -> Iterator[Backend]:
    yield from _backend(
        request, _sql_backends(request, tmp_path, SqlFactStore, InMemoryFactStore)
    )


@pytest.fixture(params=SQL_BACKENDS)
def events(request, tmp_path: Path) -> Iterator[Backend]:
    yield from _backend(
        request, _sql_backends(request, tmp_path, SqlEventLog, InMemoryEventLog)
    )


def _index_params() -> list:
    """Every episode-index backend of the registry, in a folder and on its
    server, then the in-memory reference."""
    params: list = []
    for name, backend in locations.INDEX_BACKENDS.items():
        if backend.local:
            params.append(name)
        params.append(pytest.param(f"{name}-server", marks=SERVER))
    return [*params, "memory"]


@pytest.fixture(params=_index_params())
def episodes(request, tmp_path: Path, embedder) -> Iterator[Backend]:
    """An episode store of each backend.

    A server backend `x` reads its URL from an `x_url` fixture, and every test
    gets collections of its own on the one shared server.
    """
    prefix = f"t{uuid.uuid4().hex[:12]}"
    name = request.param
    if name == "memory":
        factories = {name: (lambda loc: InMemoryEpisodeStore(embedder), False)}
    elif name.endswith("-server"):
        backend = locations.INDEX_BACKENDS[name.removesuffix("-server")]

        def on_server(loc: str):
            url = request.getfixturevalue(f"{backend.name}_url")
            return backend.open(url, embedder, f"{prefix}-{loc}")

        factories = {name: (on_server, True)}
    else:
        backend = locations.INDEX_BACKENDS[name]

        def in_folder(loc: str):
            return backend.open(tmp_path / f"{name}-{loc}", embedder, "episodes")

        factories = {name: (in_folder, True)}
    yield from _backend(request, factories)
