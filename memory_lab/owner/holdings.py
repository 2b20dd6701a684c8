"""The stores an engine keeps memory in, opened without an engine.

Export and import must not start what an engine starts: a worker that would run
owed jobs while the file is read or written, a brain, a graph. They open the
same parts in the same places (`memory_parts.open_parts`, which the engine asks
too), after finishing an interrupted purge as the engine does, and nothing else.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from memory_lab.errors import MemoryLabError
from memory_lab.memory_parts import MemoryParts, NoMemoryError, open_parts
from memory_lab.stores.locations import StoreSpec

if TYPE_CHECKING:
    from memory_lab.embeddings import Embedder

__all__ = ["Holdings", "NoMemoryError", "engine_holdings", "open_holdings"]

Holdings = MemoryParts
"""Every store of one data folder (or of servers), sharing one database."""


class OpenMemory(Protocol):
    """An open engine, as an export reads it: where it lives and its parts."""

    data_dir: Path | None
    stores: StoreSpec
    parts: MemoryParts


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
    if data_dir is not None and not spec.remote:
        # As an engine does: a purge a killed process left half done is finished
        # first, so nothing it was removing is exported or counted.
        from memory_lab.owner.purge import finish_purges

        finish_purges(data_dir, embedder)
    return open_parts(data_dir, spec, embedder, create=create)


def engine_holdings(engine: OpenMemory) -> Holdings:
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
    return engine.parts
