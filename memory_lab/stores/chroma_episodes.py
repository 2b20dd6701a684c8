"""Episodes in a persistent ChromaDB collection, searched by cosine distance.

Vectors come from our own embedder and are handed to Chroma directly, so the
collection never carries an embedding function: Chroma's default one downloads a
model (impossible offline), and a stored one would have to be re-supplied on
every reopen.

Each tenant has its own collection: a query never has to filter by tenant (a
filtered HNSW query was ~25x slower at 10k episodes) and cannot reach another
tenant's vectors. Records still carry their tenant, and reads check it.

The store opens a folder (`PersistentClient`) or, given an `http://host:port`
URL, a Chroma server (`HttpClient`). One process should own a folder: Chroma keeps
its index in memory, so a process that has the folder open does not see vectors
another process adds until it calls `reopen()`. On a server the index lives in
the server, and every client sees every other client's writes at once.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Literal, overload

import chromadb
import chromadb.errors
from chromadb.config import Settings
from filelock import FileLock

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.embeddings import Embedder
from memory_lab.errors import require_tenant
from memory_lab.stores.locations import chroma_server
from memory_lab.stores.tenancy import require_owned
from memory_lab.types import Episode


def _retry_locked(call: Callable[[], Any], attempts: int = 6) -> Any:
    """`call()`, retried while a Chroma server answers "database is locked".

    A server keeps its collections in SQLite; two clients opening or changing
    collections at once (engines starting together) can get that answer for a
    moment. Anything else, or a lock that outlasts the retries, is raised.
    """
    for attempt in range(attempts):
        try:
            return call()
        except chromadb.errors.InternalError as err:
            if "database is locked" not in str(err) or attempt == attempts - 1:
                raise
            time.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")


class ChromaEpisodeStore:
    """Episodes in one collection per tenant, searched by cosine distance.

    Chroma ids are also prefixed with the tenant and every record's metadata names
    it, so one tenant's episode id can never collide with, overwrite or reveal
    another's even if two tenants' collections were ever mixed up.
    """

    def __init__(
        self,
        path: str | Path,
        embedder: Embedder,
        collection: str = "episodes",
        *,
        ef_search: int = 200,
        overfetch: int = 16,
    ) -> None:
        """Open (creating if needed) the collection under `path`.

        Args:
            path: Directory of the Chroma database, or the `http://host:port`
                URL of a Chroma server.
            embedder: Turns rendered episodes and queries into unit vectors.
            collection: Collection name prefix; one per embedder.
            ef_search: HNSW search breadth. The default breadth found the true
                top 5 only about half the time on 10k vectors; wider costs
                little at our sizes.
            overfetch: Extra neighbours fetched beyond `top_k`, so episodes tied
                at the cut-off are ordered by id rather than by index order.

        Raises:
            ValueError: when the collection was built with another embedder,
                whose vectors would not be comparable with this one's.
            StoreURLError: for a URL that is not a Chroma server's.
        """
        self._path = str(path)
        self._server = chroma_server(self._path) if _is_url(self._path) else None
        self._embedder = embedder
        self._name = collection
        self._ef_search = ef_search
        self._overfetch = overfetch
        # Guards the client and collection, which `reopen` replaces.
        self._lock = named_lock("episodes.chroma")
        self._collections: dict[str, Any] = {}
        self._open()

    def _folder_lock(self) -> AbstractContextManager:
        """Held while opening a folder or making a collection in it.

        Two processes opening a fresh folder at once both ran Chroma's schema
        migrations and one failed ("table collections already exists"); a lock
        file beside the database lets one finish first. A server serialises its
        own clients.
        """
        if self._server is not None:
            return nullcontext()
        Path(self._path).mkdir(parents=True, exist_ok=True)
        return FileLock(str(Path(self._path) / ".memlab-open.lock"))

    def _open(self) -> None:
        with self._folder_lock():
            self._open_client()

    def _open_client(self) -> None:
        settings = Settings(anonymized_telemetry=False, allow_reset=False)
        # Any: the client classes have `close()`, which `ClientAPI` does not declare.
        self._client: Any
        if self._server is None:
            self._client = chromadb.PersistentClient(path=self._path, settings=settings)
        else:
            self._client = chromadb.HttpClient(
                host=self._server.host,
                port=self._server.port,
                ssl=self._server.ssl,
                settings=settings,
            )
        self._collections = {}
        # The base collection holds no vectors; it records which embedder the
        # store was built with, so a store opened with another one is refused
        # before any tenant's collection exists.
        self._check(
            _retry_locked(
                lambda: self._client.get_or_create_collection(
                    self._name,
                    metadata={
                        "embedder": self._embedder.name,
                        "dim": self._embedder.dim,
                    },
                    embedding_function=None,
                )
            )
        )

    def _collection_name(self, tenant: str) -> str:
        # Chroma limits names to [a-zA-Z0-9._-]; a digest fits any tenant string.
        return f"{self._name}.t.{hashlib.sha1(tenant.encode()).hexdigest()[:24]}"

    def _check(self, collection: Any) -> Any:
        built_with = (collection.metadata or {}).get("embedder")
        if built_with != self._embedder.name:
            self._client.close()
            raise ValueError(
                f"collection {collection.name!r} holds {built_with!r} vectors, "
                f"not {self._embedder.name!r}; use another collection name"
            )
        # An existing collection keeps the breadth it was created with unless told.
        hnsw = (collection.configuration or {}).get("hnsw") or {}
        if hnsw.get("ef_search") != self._ef_search:
            _retry_locked(
                lambda: collection.modify(
                    configuration={"hnsw": {"ef_search": self._ef_search}}
                )
            )
        return collection

    @overload
    def _collection(self, tenant: str, *, create: Literal[True]) -> Any: ...

    @overload
    def _collection(self, tenant: str, *, create: Literal[False]) -> Any | None: ...

    def _collection(self, tenant: str, *, create: bool) -> Any | None:
        """The tenant's collection (made on first write); None if it has none yet."""
        if tenant in self._collections:
            return self._collections[tenant]
        name = self._collection_name(tenant)
        if create:
            with self._folder_lock():
                found = _retry_locked(
                    lambda: self._client.get_or_create_collection(
                        name,
                        configuration={
                            "hnsw": {"space": "cosine", "ef_search": self._ef_search}
                        },
                        metadata={
                            "embedder": self._embedder.name,
                            "dim": self._embedder.dim,
                        },
                        embedding_function=None,
                    )
                )
        else:
            try:
                found = self._client.get_collection(name)
            except Exception:  # noqa: BLE001 - chroma raises several types for "absent"
                return None
        self._collections[tenant] = self._check(found)
        return self._collections[tenant]

    def add(self, tenant: str, episodes: Sequence[Episode]) -> None:
        """Store episodes; an id already stored for the tenant is left as it was."""
        tenant = require_owned(tenant, episodes)
        first_of_id: dict[str, Episode] = {}
        for episode in episodes:
            first_of_id.setdefault(episode.id, episode)
        if not first_of_id:
            return
        with self._lock:
            collection = self._collection(tenant, create=True)
            keys = [_key(tenant, i) for i in first_of_id]
            present = {
                found
                for start in range(0, len(keys), _PAGE)
                for found in collection.get(
                    ids=keys[start : start + _PAGE], include=[]
                )["ids"]
            }
            new = [e for e in first_of_id.values() if _key(tenant, e.id) not in present]
            if not new:
                return
            texts = [e.render() for e in new]
            vectors = self._embedder.embed(texts)
            step = self._client.get_max_batch_size()
            for start in range(0, len(new), step):
                chunk = slice(start, start + step)
                collection.add(
                    ids=[_key(tenant, e.id) for e in new[chunk]],
                    embeddings=vectors[chunk],
                    metadatas=[_metadata(e) for e in new[chunk]],
                    documents=texts[chunk],
                )

    def get(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """The tenant's episodes (those named by `ids`, if given), in seq order."""
        tenant = require_tenant(tenant)
        keys = None if ids is None else [_key(tenant, i) for i in dict.fromkeys(ids)]
        if keys == []:
            return []
        with self._lock:
            collection = self._collection(tenant, create=False)
            if collection is None:
                return []
            metadatas: list[dict[str, Any]] = []
            # Chroma turns a get into one SQL statement; page it, or a large
            # tenant exceeds SQLite's limit on bound variables.
            if keys is None:
                offset = 0
                while True:
                    page = collection.get(
                        include=["metadatas"], limit=_PAGE, offset=offset
                    )["metadatas"]
                    metadatas.extend(page or [])
                    if not page or len(page) < _PAGE:
                        break
                    offset += _PAGE
            else:
                for start in range(0, len(keys), _PAGE):
                    chunk = keys[start : start + _PAGE]
                    metadatas.extend(
                        collection.get(ids=chunk, include=["metadatas"])["metadatas"]
                        or []
                    )
        episodes = [_episode(m) for m in metadatas if _owned(m, tenant)]
        return sorted(episodes, key=lambda e: (e.first_seq, e.last_seq, e.id))

    def search(
        self, tenant: str, query: str, *, top_k: int, max_distance: float
    ) -> list[tuple[Episode, float]]:
        """Up to `top_k` episodes within `max_distance`, closest first, ties by id.

        The index is approximate: with many episodes a true neighbour can be
        missed, which `ef_search` makes rare.
        """
        tenant = require_tenant(tenant)
        found = self._nearest(tenant, query, top_k, ["metadatas", "distances"])
        if found is None:
            return []
        metadatas = (found["metadatas"] or [[]])[0]
        distances = (found["distances"] or [[]])[0]
        # Float rounding can put an identical vector a hair below zero.
        scored = [
            (m, max(float(d), 0.0))
            for m, d in zip(metadatas, distances, strict=True)
            if _owned(m, tenant)
        ]
        hits = sorted(
            ((_episode(m), d) for m, d in scored if d <= max_distance),
            key=lambda hit: (hit[1], hit[0].id),
        )
        return hits[:top_k]

    def search_ids(
        self, tenant: str, query: str, *, top_k: int, max_distance: float
    ) -> list[tuple[str, float]]:
        """`search`'s hits as episode ids, without their records.

        For a reader that holds the records already (`CommittedEpisodeStore`
        reads them from the ledger, scoped to the tenant): fetching and decoding
        every hit's record took two thirds of a search (3.6 ms of a LoCoMo
        question's, against 1.3 ms for ids and distances alone). Ownership is
        read from each hit's key, which names its tenant.
        """
        tenant = require_tenant(tenant)
        found = self._nearest(tenant, query, top_k, ["distances"])
        if found is None:
            return []
        keys = (found["ids"] or [[]])[0]
        distances = (found["distances"] or [[]])[0]
        # The key names its tenant (`_key`): another tenant's is never returned.
        prefix = _key(tenant, "")
        # Float rounding can put an identical vector a hair below zero.
        scored = [
            (k[len(prefix) :], max(float(d), 0.0))
            for k, d in zip(keys, distances, strict=True)
            if k.startswith(prefix)
        ]
        hits = sorted(
            ((i, d) for i, d in scored if d <= max_distance),
            key=lambda hit: (hit[1], hit[0]),
        )
        return hits[:top_k]

    def _nearest(
        self, tenant: str, query: str, top_k: int, include: list[str]
    ) -> Any | None:
        """Chroma's answer for the `top_k` nearest (and the overfetch), or None.

        None when nothing can be found: `top_k` of 0, or no collection yet.
        """
        if top_k <= 0:
            return None
        with self._lock:
            collection = self._collection(tenant, create=False)
        if collection is None:
            return None
        vector = self._embedder.embed([query])
        with self._lock:
            return collection.query(
                query_embeddings=vector,
                n_results=top_k + self._overfetch,
                include=include,
            )

    def count(self, tenant: str) -> int:
        """How many episodes the tenant has."""
        tenant = require_tenant(tenant)
        with self._lock:
            collection = self._collection(tenant, create=False)
            return collection.count() if collection is not None else 0

    def drop(self, tenant: str) -> None:
        """Delete the tenant's collection: every episode of it, vectors included.

        How an import that failed after adding episodes takes them back; a
        tenant with no collection is left as it is.
        """
        tenant = require_tenant(tenant)
        with self._lock:
            self._collections.pop(tenant, None)
            name = self._collection_name(tenant)
            try:
                self._client.get_collection(name)
            except Exception:  # noqa: BLE001 - chroma raises several types for "absent"
                return
            _retry_locked(lambda: self._client.delete_collection(name))

    def remove(self, tenant: str, ids: Sequence[str]) -> int:
        """Delete these episodes for good; returns how many were held.

        Chroma's delete keeps the record in its operation log and the vector in
        the HNSW files, so the tenant's collection is copied without them (stored
        vectors are reused, nothing is embedded), dropped and made again. Only
        the files of a dropped collection are left, for the caller to remove.
        """
        tenant = require_tenant(tenant)
        doomed = {_key(tenant, i) for i in ids}
        with self._lock:
            collection = self._collection(tenant, create=False)
            if collection is None or not doomed:
                return 0
            kept: dict[str, list] = {
                "ids": [],
                "embeddings": [],
                "metadatas": [],
                "documents": [],
            }
            offset, removed = 0, 0
            include = ["embeddings", "metadatas", "documents"]
            while True:
                page = collection.get(include=include, limit=_PAGE, offset=offset)
                for n, key in enumerate(page["ids"]):
                    if key in doomed:
                        removed += 1
                        continue
                    for part in kept:
                        kept[part].append(key if part == "ids" else page[part][n])
                if len(page["ids"]) < _PAGE:
                    break
                offset += _PAGE
            if not removed:
                return 0
            self._collections.pop(tenant, None)
            _retry_locked(lambda: self._client.delete_collection(collection.name))
            if kept["ids"]:
                fresh = self._collection(tenant, create=True)
                step = self._client.get_max_batch_size()
                for start in range(0, len(kept["ids"]), step):
                    fresh.add(**{p: v[start : start + step] for p, v in kept.items()})
        return removed

    @property
    def shared(self) -> bool:
        """Whether other processes' writes are seen without `reopen` (a server)."""
        return self._server is not None

    def reopen(self) -> None:
        """Reload from disk, picking up vectors another process has added.

        On a server there is nothing to reload; this only opens a new client.
        """
        with self._lock:
            self._client.close()
            self._open()

    def close(self) -> None:
        """Release the database; the store is unusable afterwards."""
        with self._lock:
            self._client.close()


def _is_url(location: str) -> bool:
    return "://" in location


_PAGE = 5000
"""Records per Chroma get: well under SQLite's limit on bound variables."""


def _key(tenant: str, episode_id: str) -> str:
    # The length prefix keeps the key unambiguous whatever the tenant contains.
    return f"{len(tenant)}:{tenant}:{episode_id}"


def _owned(metadata: Any, tenant: str) -> bool:
    return bool(metadata) and metadata.get("tenant") == tenant


def _metadata(episode: Episode) -> dict[str, Any]:
    # The whole record rides along as JSON so `get` returns exactly what was
    # added; the other fields are there to filter on.
    return {
        "tenant": episode.tenant,
        "episode_id": episode.id,
        "session": episode.session,
        "thread": episode.thread,
        "first_seq": episode.first_seq,
        "last_seq": episode.last_seq,
        "record": episode.model_dump_json(),
    }


def _episode(metadata: Any) -> Episode:
    return Episode.model_validate_json(metadata["record"])
