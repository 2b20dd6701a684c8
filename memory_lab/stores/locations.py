"""Where an engine keeps its memory: local files by default, or servers by URL.

Two URLs, each optional:

- the store (`postgresql://user@host:port/db`): the transcript, facts, events and
  job ledger, which must commit together, in one Postgres database;
- the episodes (`http://host:port`): the episode search index, on a Chroma server.

Several engines can share a server; each keeps to its `namespace` (a Postgres
schema, a Chroma collection prefix), so a replay of one recipe never reads
another's turns. A missing URL keeps that part in the engine's data folder.

Episode-index backends are registered here by URL scheme (`INDEX_BACKENDS`):
a backend is its module plus one `IndexBackend` naming it, listed in
`BUILT_IN_INDEXES` or passed to `register_index_backend` by a plug-in. Its
opener is named as "module:function" and imported only when an index is
opened, so checking a URL never imports a client library.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from memory_lab.errors import MemoryLabError

if TYPE_CHECKING:
    from memory_lab.embeddings import Embedder
    from memory_lab.stores.base import EpisodeStore

STORE_SCHEMES = ("postgresql", "postgres")
"""URL schemes of the store (the transcript, facts, events and job ledger)."""
EPISODE_SCHEMES = ("http", "https")
"""URL schemes of the built-in episode index server (Chroma)."""
DEFAULT_NAMESPACE = "memory_lab"
_NAME_LIMIT = 48
"""Namespace characters kept verbatim: Postgres names stop at 63 bytes."""


class StoreURLError(MemoryLabError, ValueError):
    """A store or episode-store URL that cannot be used."""


@dataclass(frozen=True)
class ChromaServer:
    """A Chroma server's address, from an `http://host:port` URL."""

    host: str
    port: int
    ssl: bool = False


@dataclass(frozen=True)
class StoreSpec:
    """Which servers hold an engine's memory, checked when made.

    Raises:
        StoreURLError: for a URL of an unknown scheme, or one lacking its host.
    """

    store: str | None = None
    """`postgresql://...` for the transcript, facts, events and job ledger."""
    episodes: str | None = None
    """The episode index's URL: `http://host:port` of a Chroma server, or one
    of another registered backend (`INDEX_BACKENDS`)."""
    namespace: str = DEFAULT_NAMESPACE
    """What this engine's records are kept apart under on a shared server."""

    def __post_init__(self) -> None:
        if self.store is not None:
            store_url(self.store)
        if self.episodes is not None:
            index_backend(self.episodes).check(self.episodes)
        namespace_key(self.namespace)

    @property
    def remote(self) -> bool:
        """Whether any part of the memory lives on a server."""
        return self.store is not None or self.episodes is not None


def store_url(url: str) -> str:
    """The Postgres URL, checked.

    Raises:
        StoreURLError: when it is not a `postgresql://` URL.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in STORE_SCHEMES:
        raise StoreURLError(
            f"store URL {_shown(url)!r}: unknown scheme {parts.scheme!r}; use "
            "postgresql://user@host:port/database (or no URL for local files)"
        )
    return url.strip()


def chroma_server(url: str) -> ChromaServer:
    """The host and port of an `http://host:port` episode-store URL.

    Raises:
        StoreURLError: for another scheme, no host, or a path after the port.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in EPISODE_SCHEMES:
        raise StoreURLError(
            f"episodes store URL {_shown(url)!r}: unknown scheme {parts.scheme!r};"
            " use http://host:port of a Chroma server (or no URL for local files)"
        )
    try:
        port = parts.port
    except ValueError as exc:
        raise StoreURLError(f"episodes store URL {_shown(url)!r}: bad port") from exc
    if not parts.hostname:
        raise StoreURLError(f"episodes store URL {_shown(url)!r} names no host")
    if parts.path.strip("/"):
        raise StoreURLError(
            f"episodes store URL {_shown(url)!r}: a Chroma server URL has no path"
        )
    ssl = parts.scheme == "https"
    return ChromaServer(parts.hostname, port or (443 if ssl else 8000), ssl)


OpenIndex = Callable[["str | Path", "Embedder", str], "EpisodeStore"]
"""(folder or URL, embedder, collection) -> an open `EpisodeStore`."""


@dataclass(frozen=True)
class IndexBackend:
    """A kind of episode index: the URL schemes it serves and how to open one."""

    name: str
    """Short and stable: it names the backend in tests and logs."""
    schemes: tuple[str, ...]
    """URL schemes whose URLs it opens."""
    opener: str | OpenIndex
    """The open function, or "module:function" naming it (imported on use)."""
    check: Callable[[str], Any] = lambda url: None
    """Raises `StoreURLError` for a URL of its schemes it cannot open."""
    local: bool = False
    """Whether it keeps an index in a data folder (the default there)."""

    def open(self, where: str | Path, embedder: Embedder, collection: str) -> Any:
        """The index at `where` (a folder or URL), in collection `collection`."""
        opener = self.opener
        if isinstance(opener, str):
            module, _, function = opener.partition(":")
            opener = getattr(importlib.import_module(module), function)
        return opener(where, embedder, collection)


BUILT_IN_INDEXES = (
    IndexBackend(
        "chroma",
        EPISODE_SCHEMES,
        "memory_lab.stores.chroma_episodes:ChromaEpisodeStore",
        check=lambda url: chroma_server(url),
        local=True,
    ),
)
INDEX_BACKENDS: dict[str, IndexBackend] = {b.name: b for b in BUILT_IN_INDEXES}
"""Every episode-index backend, by name; `LOCAL_INDEX` keeps a data folder's."""
LOCAL_INDEX = "chroma"


def register_index_backend(backend: IndexBackend) -> IndexBackend:
    """Add an episode-index backend; URLs of its schemes open it from then on.

    Raises:
        MemoryLabError: when its name or one of its schemes is taken, or its
            opener is neither callable nor "module:function"; a clash fails
            here rather than opening the wrong index later.
    """
    if backend.name in INDEX_BACKENDS:
        raise MemoryLabError(f"an episode index named {backend.name!r} exists")
    taken = {s for b in INDEX_BACKENDS.values() for s in b.schemes}
    if clash := sorted(taken & set(backend.schemes)):
        raise MemoryLabError(
            f"episode index {backend.name!r}: scheme {clash[0]!r} is taken"
        )
    if not backend.schemes:
        raise MemoryLabError(f"episode index {backend.name!r} names no URL scheme")
    opener = backend.opener
    if not callable(opener) and ":" not in opener:
        raise MemoryLabError(
            f"episode index {backend.name!r}: opener {opener!r} is not "
            "callable nor 'module:function'"
        )
    INDEX_BACKENDS[backend.name] = backend
    return backend


def unregister_index_backend(name: str) -> None:
    """Forget a registered backend (a test's toy); a built-in one stays."""
    if name in {b.name for b in BUILT_IN_INDEXES}:
        raise MemoryLabError(f"episode index {name!r} is built in")
    INDEX_BACKENDS.pop(name, None)


def index_backend(url: str) -> IndexBackend:
    """The registered backend whose scheme `url` has.

    Raises:
        StoreURLError: when no backend serves its scheme.
    """
    scheme = urlsplit(url.strip()).scheme
    for backend in INDEX_BACKENDS.values():
        if scheme in backend.schemes:
            return backend
    others = [
        f"{s}://" for b in INDEX_BACKENDS.values() if not b.local for s in b.schemes
    ]
    also = f", {', '.join(others)}" if others else ""
    raise StoreURLError(
        f"episodes store URL {_shown(url)!r}: unknown scheme {scheme!r}; use "
        f"http://host:port of a Chroma server{also} (or no URL for local files)"
    )


def open_index(
    url: str | None,
    folder: Path | None,
    embedder: Embedder,
    name: str,
    namespace: str = DEFAULT_NAMESPACE,
) -> Any:
    """The `name` index ("episodes" or "periods") a URL or a data folder holds.

    On a server the collection is kept apart under the namespace; in a folder
    the local backend keeps it under `folder`.
    """
    if url is not None:
        collection = f"{namespace_key(namespace)}.{name}"
        return index_backend(url).open(url, embedder, collection)
    if folder is None:
        raise MemoryLabError(f"no folder nor URL to open the {name} index in")
    return INDEX_BACKENDS[LOCAL_INDEX].open(folder, embedder, name)


def namespace_key(namespace: str) -> str:
    """A name safe as a Postgres schema and inside a Chroma collection name.

    Lower-case letters, digits and `_`, starting with a letter; a long or altered
    name keeps a digest of the original, so two namespaces never share a key.

    Raises:
        StoreURLError: for an empty namespace.
    """
    if not namespace or not namespace.strip():
        raise StoreURLError("a store namespace cannot be empty")
    clean = re.sub(r"[^a-z0-9_]+", "_", namespace.lower()).strip("_")
    # Postgres keeps names starting with `pg_` for itself.
    if not clean or not clean[0].isalpha() or clean.startswith("pg_"):
        clean = f"n_{clean}"
    if clean == namespace and len(clean) <= _NAME_LIMIT:
        return clean
    digest = hashlib.sha1(namespace.encode()).hexdigest()[:10]
    return f"{clean[:_NAME_LIMIT]}_{digest}"


def _shown(url: str) -> str:
    # Never echo a password back.
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url
