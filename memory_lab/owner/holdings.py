"""The stores an engine keeps memory in, opened without an engine.

Export and import must not start what an engine starts: a worker that would run
owed jobs while the file is read or written, a brain, a graph. They open the
same stores in the same places as `MemoryEngine` (one database, `memory.sqlite3`
in the data folder or Postgres; the `episodes` and `periods` Chroma collections
in `chroma/` or on a server), after finishing an interrupted purge as it does,
and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from memory_lab.errors import MemoryLabError
from memory_lab.jobs.ledger import JobLedger
from memory_lab.stores.base import (
    EpisodeStore,
    EventLog,
    FactLinkStore,
    FactStore,
    TranscriptStore,
)
from memory_lab.stores.locations import StoreSpec, chroma_server, namespace_key
from memory_lab.stores.sql_events import SqlEventLog
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.sql_transcript import SqlTranscriptStore
from memory_lab.stores.sqlite_db import SqliteDatabase

if TYPE_CHECKING:
    from memory_lab.embeddings import Embedder
    from memory_lab.engine import MemoryEngine
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

DATABASE_FILE = "memory.sqlite3"
CHROMA_FOLDER = "chroma"


class NoMemoryError(MemoryLabError):
    """The place named holds no memory at all."""


@dataclass
class Holdings:
    """Every store of one data folder (or of servers), sharing one database."""

    where: str
    """The data folder and servers, for messages (never a password)."""
    db: Any
    """The `SqliteDatabase` or `PostgresDatabase` every SQL store writes through."""
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

    def close(self) -> None:
        """Release every store."""
        for store in (self.episodes, self.periods):
            if store is not None:
                store.close()
        self.db.close()


def open_holdings(
    data_dir: Path | None,
    spec: StoreSpec,
    embedder: Embedder | None = None,
    *,
    create: bool,
) -> Holdings:
    """The stores of `data_dir` and the servers `spec` names.

    Args:
        data_dir: The data folder; may be None when `spec` puts both parts on
            servers.
        spec: Which parts live on servers.
        embedder: The embedder the Chroma collections were built with (the
            default one when None).
        create: Make what is missing (an import); without it, a folder with no
            database raises and a missing Chroma folder reads as no episodes.

    Raises:
        NoMemoryError: without `create`, when there is no database to read.
        MemoryLabError: when a part is local and no data folder is given.
    """
    if data_dir is None and not (spec.store and spec.episodes):
        raise MemoryLabError(
            "no data folder: pass --data DIR (or put both the store and the "
            "episodes on servers)"
        )
    if embedder is None:
        from memory_lab.embeddings import default_embedder

        embedder = default_embedder()
    where = _described(data_dir, spec)
    if data_dir is not None and not spec.remote:
        # As an engine does: a purge a killed process left half done is finished
        # first, so nothing it was removing is exported or counted.
        from memory_lab.owner.purge import finish_purges

        finish_purges(data_dir, embedder)
    db = _open_database(data_dir, spec, create=create, where=where)
    opened: list[ChromaEpisodeStore | None] = []
    try:
        transcript = SqlTranscriptStore(db)
        facts = SqlFactStore(db)
        events = SqlEventLog(db)
        ledger = JobLedger(db)
        links = SqlFactLinkStore(db)
        for name in ("episodes", "periods"):
            opened.append(_open_index(data_dir, spec, embedder, name, create))
    except BaseException:
        for index in opened:
            if index is not None:
                index.close()
        db.close()
        raise
    episodes, periods = opened
    return Holdings(
        where, db, transcript, facts, events, ledger, episodes, periods, links
    )


def _open_database(
    data_dir: Path | None, spec: StoreSpec, *, create: bool, where: str
) -> Any:
    if spec.store is not None:
        from memory_lab.stores.postgres_db import PostgresDatabase

        return PostgresDatabase(spec.store, spec.namespace)
    assert data_dir is not None
    path = data_dir / DATABASE_FILE
    if not create and not path.is_file():
        raise NoMemoryError(f"{where} holds no memory ({DATABASE_FILE} not found)")
    return SqliteDatabase(path)


def _open_index(
    data_dir: Path | None,
    spec: StoreSpec,
    embedder: Embedder,
    name: str,
    create: bool,
) -> ChromaEpisodeStore | None:
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

    if spec.episodes is not None:
        collection = f"{namespace_key(spec.namespace)}.{name}"
        return ChromaEpisodeStore(spec.episodes, embedder, collection=collection)
    assert data_dir is not None
    folder = data_dir / CHROMA_FOLDER
    if not create and not folder.is_dir():
        return None
    return ChromaEpisodeStore(folder, embedder, collection=name)


def _described(data_dir: Path | None, spec: StoreSpec) -> str:
    parts = [str(data_dir)] if data_dir is not None else []
    if spec.store is not None:
        host = urlsplit(spec.store).hostname
        parts.append(f"Postgres on {host} (namespace {spec.namespace})")
    if spec.episodes is not None:
        server = chroma_server(spec.episodes)
        parts.append(f"Chroma on {server.host}:{server.port}")
    return ", ".join(parts)


def engine_holdings(engine: MemoryEngine) -> Holdings:
    """The stores an open engine writes through, to export from while it runs.

    An export reads in one transaction of the engine's own database, so the app
    can offer a download without opening the folder a second time (Chroma wants
    one owner per folder). Closing the result would close the engine's stores:
    leave that to the engine.

    Raises:
        MemoryLabError: for an engine whose memory is in this process only.
    """
    if engine.data_dir is None and engine.stores.store is None:
        raise MemoryLabError(
            "this memory is held in this process only: nothing to export"
        )
    return Holdings(
        where=str(engine.data_dir or "servers"),
        db=engine.jobs.db,
        transcript=engine.transcript,
        facts=engine.facts.store,
        events=engine.events,
        ledger=engine.jobs,
        episodes=engine.episodes.index,
        periods=engine.periods.store,
        links=engine.facts.link_store,
    )
