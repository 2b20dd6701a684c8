"""The one place a memory's parts are opened, from wherever the memory lives.

A memory is a database (the transcript, facts, events, job ledger, sessions and
fact links, which must commit together) and two episode indexes (`episodes`,
and `periods` for the day and week summaries). Where they live:

- a data folder: `memory.sqlite3` and the local index backend's `chroma/`;
- servers a `StoreSpec` names: a Postgres URL for the database, an index URL
  (a Chroma server, or any registered backend) for the indexes; a part it
  does not name stays in the folder;
- neither: every part in this process, gone on `close`.

The engine, `owner/` (export, import, purge), the CLI and the adapters (through
`Memory.open`) all ask `open_parts`, so a memory opened by one is the memory
every other reads. Finishing what a killed process left half done (a purge,
a trash past its restore window) is the caller's step before this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from memory_lab.errors import MemoryLabError
from memory_lab.jobs.ledger import JobLedger
from memory_lab.sessions.store import (
    InMemorySessionStore,
    SessionStore,
    SqlSessionStore,
)
from memory_lab.stores.base import (
    Database,
    EpisodeStore,
    EventLog,
    FactLinkStore,
    FactStore,
    TranscriptStore,
)
from memory_lab.stores.databases import open_database
from memory_lab.stores.locations import StoreSpec, chroma_server, open_index
from memory_lab.stores.sql_events import SqlEventLog
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.sql_transcript import SqlTranscriptStore
from memory_lab.stores.sqlite_db import MEMORY

if TYPE_CHECKING:
    from memory_lab.embeddings import Embedder

DATABASE_FILE = "memory.sqlite3"
INDEX_FOLDER = "chroma"
INDEX_NAMES = ("episodes", "periods")


class NoMemoryError(MemoryLabError):
    """The place named holds no memory at all."""


@dataclass
class MemoryParts:
    """Every store of one memory, the SQL ones sharing one database."""

    where: str
    """The data folder and servers, for messages (never a password)."""
    db: Database
    """What every SQL store writes through (the ledger's, for in-process)."""
    transcript: TranscriptStore
    facts: FactStore
    events: EventLog
    ledger: JobLedger
    episodes: EpisodeStore | None
    """The episode search index (the ledger holds the committed records)."""
    periods: EpisodeStore | None
    """Daily and weekly summaries (kept only here)."""
    links: FactLinkStore
    """Links between facts (the "supersedes" ones are read from the facts)."""
    sessions: SessionStore
    local_files: Path | None = None
    """The folder whose files hold the stores, when local files hold any."""
    in_process: bool = False
    """Whether the memory is held in this process only (nothing to purge)."""

    def close(self) -> None:
        """Release every store."""
        for store in (self.episodes, self.periods):
            if store is not None:
                store.close()
        self.db.close()


def open_parts(
    data_dir: Path | None,
    spec: StoreSpec,
    embedder: Embedder,
    *,
    create: bool = True,
) -> MemoryParts:
    """The parts of the memory in `data_dir` and on the servers `spec` names.

    Args:
        data_dir: The data folder; None keeps unnamed parts in this process
            (with `create`) or needs `spec` to name both servers.
        spec: Which parts live on servers.
        embedder: What the episode indexes embed with (and were built with).
        create: Make what is missing (an engine, an import); without it a
            folder with no database raises and a missing index folder reads
            as no index.

    A part neither the folder nor a server holds is kept in this process.

    Raises:
        NoMemoryError: without `create`, when there is no database to read.
        MemoryLabError: without `create`, when a part is local and no data
            folder is given.
    """
    if data_dir is None and not spec.remote and create:
        return _in_process(embedder)
    if data_dir is None and not create and not (spec.store and spec.episodes):
        raise MemoryLabError(
            "no data folder: pass --data DIR (or put both the store and the "
            "episodes on servers)"
        )
    where = described(data_dir, spec)
    if data_dir is not None and create:
        data_dir.mkdir(parents=True, exist_ok=True)
    db = _database(data_dir, spec, create=create, where=where)
    indexes: list[EpisodeStore | None] = []
    try:
        for name in INDEX_NAMES:
            indexes.append(_index(data_dir, spec, embedder, name, create=create))
        episodes, periods = indexes
        return MemoryParts(
            where=where,
            db=db,
            transcript=SqlTranscriptStore(db),
            facts=SqlFactStore(db),
            events=SqlEventLog(db),
            ledger=JobLedger(db),
            episodes=episodes,
            periods=periods,
            links=SqlFactLinkStore(db),
            sessions=SqlSessionStore(db),
            local_files=None if spec.remote else data_dir,
        )
    except BaseException:
        for index in indexes:
            if index is not None:
                index.close()
        db.close()
        raise


def _in_process(embedder: Embedder) -> MemoryParts:
    from memory_lab.stores.memory import (
        InMemoryEpisodeStore,
        InMemoryEventLog,
        InMemoryFactStore,
        InMemoryTranscriptStore,
    )

    # The ledger (and the chats and links beside it) is SQL even here: an
    # in-memory SQLite database, so a job and its watermarks commit together.
    ledger = JobLedger(MEMORY)
    return MemoryParts(
        where="this process",
        db=ledger.db,
        transcript=InMemoryTranscriptStore(),
        facts=InMemoryFactStore(),
        events=InMemoryEventLog(),
        ledger=ledger,
        episodes=InMemoryEpisodeStore(embedder),
        periods=InMemoryEpisodeStore(embedder),
        links=SqlFactLinkStore(ledger.db),
        sessions=InMemorySessionStore(),
        in_process=True,
    )


def _database(
    data_dir: Path | None, spec: StoreSpec, *, create: bool, where: str
) -> Database:
    if spec.store is not None:
        return open_database(spec.store, namespace=spec.namespace)
    if data_dir is None:
        return open_database(path=MEMORY)
    path = data_dir / DATABASE_FILE
    if not create and not path.is_file():
        raise NoMemoryError(f"{where} holds no memory ({DATABASE_FILE} not found)")
    return open_database(path=path)


def _index(
    data_dir: Path | None,
    spec: StoreSpec,
    embedder: Embedder,
    name: str,
    *,
    create: bool,
) -> EpisodeStore | None:
    if spec.episodes is None and data_dir is None:
        from memory_lab.stores.memory import InMemoryEpisodeStore

        return InMemoryEpisodeStore(embedder)
    if spec.episodes is None and not create:
        assert data_dir is not None
        if not (data_dir / INDEX_FOLDER).is_dir():
            return None
    folder = data_dir / INDEX_FOLDER if data_dir is not None else None
    return open_index(spec.episodes, folder, embedder, name, spec.namespace)


def described(data_dir: Path | None, spec: StoreSpec) -> str:
    """Where a memory lives, for messages: its folder and servers, no password."""
    parts = [str(data_dir)] if data_dir is not None else []
    if spec.store is not None:
        host = urlsplit(spec.store).hostname
        parts.append(f"Postgres on {host} (namespace {spec.namespace})")
    if spec.episodes is not None:
        parts.append(_index_server(spec.episodes))
    return ", ".join(parts)


def _index_server(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        server = chroma_server(url)
        return f"Chroma on {server.host}:{server.port}"
    return f"episode index on {parts.scheme}://{parts.hostname or ''}"
