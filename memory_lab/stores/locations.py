"""Where an engine keeps its memory: local files by default, or servers by URL.

Two URLs, each optional:

- the store (`postgresql://user@host:port/db`): the transcript, facts, events and
  job ledger, which must commit together, in one Postgres database;
- the episodes (`http://host:port`): the episode search index, on a Chroma server.

Several engines can share a server; each keeps to its `namespace` (a Postgres
schema, a Chroma collection prefix), so a replay of one recipe never reads
another's turns. A missing URL keeps that part in the engine's data folder.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from memory_lab.errors import MemoryLabError

STORE_SCHEMES = ("postgresql", "postgres")
"""URL schemes of the store (the transcript, facts, events and job ledger)."""
EPISODE_SCHEMES = ("http", "https")
"""URL schemes of the episode index (a Chroma server)."""
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
    """`http://host:port` of a Chroma server holding the episodes."""
    namespace: str = DEFAULT_NAMESPACE
    """What this engine's records are kept apart under on a shared server."""

    def __post_init__(self) -> None:
        if self.store is not None:
            store_url(self.store)
        if self.episodes is not None:
            chroma_server(self.episodes)
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
