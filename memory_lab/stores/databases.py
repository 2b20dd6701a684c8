"""Which `Database` a store URL opens: one registry from URL scheme to backend.

No URL keeps the memory in a local SQLite file (or in memory); a
`postgresql://` (or `postgres://`) URL puts it in a schema of a Postgres
database. The engine and the store contract suite both read `BACKENDS`, so a
backend registered here is opened and tested the same way as the others; its
URL schemes join `locations.STORE_SCHEMES`, which checks a URL before anything
is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from memory_lab.stores.base import Database
from memory_lab.stores.locations import DEFAULT_NAMESPACE, STORE_SCHEMES, store_url
from memory_lab.stores.sqlite_db import MEMORY, SqliteDatabase


@dataclass(frozen=True)
class Backend:
    """A kind of SQL database the stores run on."""

    name: str
    """Short and stable: it names the backend in tests and logs."""
    schemes: tuple[str, ...]
    """URL schemes that open it; none for the local default."""
    open: Callable[[str, str], Database]
    """(file path or URL, namespace) -> an open, migrated database."""


def _sqlite(where: str, namespace: str) -> Database:
    # A file holds one engine's memory: the namespace has nothing to separate.
    return SqliteDatabase(where)


def _postgres(where: str, namespace: str) -> Database:
    from memory_lab.stores.postgres_db import PostgresDatabase

    return PostgresDatabase(where, namespace)


LOCAL = Backend("sqlite", (), _sqlite)
"""Where memory goes without a URL."""

BACKENDS: dict[str, Backend] = {
    backend.name: backend
    for backend in (LOCAL, Backend("postgres", STORE_SCHEMES, _postgres))
}
"""Every SQL backend, by name."""


def open_database(
    url: str | None = None,
    *,
    path: str | Path = MEMORY,
    namespace: str = DEFAULT_NAMESPACE,
) -> Database:
    """The database a store URL names, or without one the local file at `path`.

    Raises:
        StoreURLError: for a URL of a scheme no backend opens.
    """
    if url is None:
        return LOCAL.open(str(path), namespace)
    url = store_url(url)
    scheme = urlsplit(url).scheme
    backend = next(b for b in BACKENDS.values() if scheme in b.schemes)
    return backend.open(url, namespace)


def database_at(where: str | Path | Database) -> Database:
    """A store's database: `where` itself if open, else a URL's or a file's.

    A store given a file or URL of its own opens a connection of its own (in the
    default namespace); stores that must commit together share one `Database`.
    """
    if isinstance(where, Path):
        return open_database(path=where)
    if isinstance(where, str):
        if "://" in where:
            return open_database(where)
        return open_database(path=where)
    return where
