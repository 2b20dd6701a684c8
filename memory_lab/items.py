"""Key-value items of a tenant, in namespaces, searched by meaning: `Memory.items`.

An agent framework's own long-term store (LangGraph's `BaseStore`, through
`memory_lab.adapters.langgraph`) keeps JSON objects under a namespace (a tuple
of labels) and a key. `ItemStore` keeps them in the memory's own database, the
SQLite file of a folder, the in-process database of ":memory:" or the Postgres
schema of a URL, beside the transcript and the facts, so they are opened,
migrated and backed up with them.

Every call names a tenant and sees only that tenant's items (a missing tenant
is refused before any SQL runs). Namespace labels are non-empty text without
'.' (the column joins them with it) or NUL.

Search by meaning: each put may name texts to index (by default the whole value
as sorted JSON); their vectors, made by the store's embedder (the memory's
local MiniLM unless `with_embedder` gives another), are kept in the row as
float32 with the embedder's name. A query's vector is compared by cosine with
the vectors of that embedder only; an item with none ranks after every scored
one, in list order. Each tenant's items are cached in the process as one matrix
per embedder, checked against the tenant's revision counter on every read, so
another process's writes are seen at once.

What a delete keeps: **nothing of the item**. Its row (value, vectors, times)
is deleted from the database for real, as a purge deletes, and there is no
trash to restore it from. The tenant's event log records one `item_deleted`
event naming the namespace and the key, never the value (in the delete's
transaction, where the log shares the database: a folder, Postgres). On a
folder, the pages the row freed in the SQLite file are overwritten when a purge
next vacuums the file.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import numpy as np

from memory_lab.clock import Clock, SystemClock
from memory_lab.embeddings import Embedder
from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.events import make_event
from memory_lab.item_cache import ItemCache, Ranking
from memory_lab.item_filters import matches
from memory_lab.stores.base import Database, EventLog
from memory_lab.stores.sql_items import (
    Applied,
    ItemChange,
    ItemRow,
    SqlItems,
    namespace_text,
)
from memory_lab.types import MemoryEvent

Namespace = tuple[str, ...]
"""A path of labels, e.g. ("alice", "memories")."""

CACHED_TENANTS = 32
"""Tenants whose items a store keeps ranked in memory (least recently read out)."""


class NamespaceError(MemoryLabError, ValueError):
    """A namespace (or key) that cannot be stored."""


@dataclass(frozen=True)
class StoredItem:
    """One item as read back: a fresh copy of its value, never the cached one."""

    namespace: Namespace
    key: str
    value: dict[str, Any]
    created_at: datetime
    """When the key was first put (kept by later puts of it)."""
    updated_at: datetime
    """When the key was last put."""
    score: float | None = None
    """Cosine similarity to the search's query; None when not ranked by one."""


@dataclass(frozen=True)
class ItemWrite:
    """A put of `value` under `namespace` and `key`, or a delete when it is None."""

    namespace: Namespace
    key: str
    value: Mapping[str, Any] | None
    texts: Sequence[str] | None = None
    """What to embed for search: None is the whole value as sorted JSON, an
    empty sequence leaves the item out of search by meaning."""
    vectors: Any = None
    """One vector per text, made by the caller with the store's embedder
    (an async framework embeds first); None lets the store embed."""


@dataclass(frozen=True)
class NamespaceMatch:
    """Namespaces that start (`prefix`) or end (`suffix`) with `path`.

    A "*" label in `path` matches any one label.
    """

    kind: Literal["prefix", "suffix"]
    path: Namespace


def check_namespace(namespace: Sequence[str], *, what: str = "namespace") -> Namespace:
    """The namespace as a tuple, once every label can be stored.

    Raises:
        NamespaceError: for a label that is not text, is empty, or holds '.'
            or NUL.
    """
    labels = tuple(namespace)
    for label in labels:
        if not isinstance(label, str) or not label:
            raise NamespaceError(f"{what} {labels!r}: labels must be non-empty text")
        if "." in label or "\x00" in label:
            raise NamespaceError(
                f"{what} {labels!r}: label {label!r} holds '.' or NUL, which "
                "separate labels"
            )
    return labels


class ItemStore:
    """Tenant-scoped items in the memory's database; `Memory.items` gives one.

    Thread-safe. Writes of one call commit together; reads see every write
    committed before them, from any process.
    """

    def __init__(
        self,
        db: Database,
        embedder: Embedder,
        *,
        events: EventLog | None = None,
        clock: Clock | None = None,
        cached_tenants: int = CACHED_TENANTS,
    ) -> None:
        """Keep items in `db`, embedded by `embedder`.

        Args:
            db: The memory's database (its tables are made when it opens).
            embedder: Makes the vectors of indexed texts and of queries.
            events: Where deletes are recorded (the memory's event log).
            clock: Stamps `created_at` and `updated_at`.
            cached_tenants: Tenants kept ranked in memory.
        """
        self._rows = SqlItems(db)
        self._embedder = embedder
        self._events = events
        self._clock: Clock = clock or SystemClock()
        self._cache = ItemCache(cached_tenants)

    @property
    def embedder(self) -> Embedder:
        """What makes this view's vectors; its name tags them."""
        return self._embedder

    def with_embedder(self, embedder: Embedder) -> ItemStore:
        """The same items, indexed and searched with another embedder.

        Vectors are kept with their embedder's name, so each embedder ranks
        only the vectors it made.
        """
        view = copy.copy(self)
        view._embedder = embedder
        return view

    # --- writes ----------------------------------------------------------------------

    def put(
        self,
        tenant: str,
        namespace: Sequence[str],
        key: str,
        value: Mapping[str, Any],
        *,
        texts: Sequence[str] | None = None,
    ) -> None:
        """Store `value` under the key; a key already held keeps `created_at`."""
        self.write(tenant, [ItemWrite(tuple(namespace), key, value, texts)])

    def delete(self, tenant: str, namespace: Sequence[str], key: str) -> bool:
        """Delete the item for real; whether the tenant held it."""
        return bool(self.write(tenant, [ItemWrite(tuple(namespace), key, None)]))

    def write(self, tenant: str, writes: Sequence[ItemWrite]) -> int:
        """Apply puts and deletes in one transaction; how many items were deleted.

        Everything is checked and embedded before the transaction opens, so a
        bad write stores nothing. The last write of a key wins.

        Raises:
            NamespaceError: for an empty namespace, a bad label or key.
            TypeError: for a value that is not a JSON object.
            ValueError: for vectors that do not fit the texts or the embedder.
        """
        return self.write_tenants({tenant: writes})

    def write_tenants(self, writes: Mapping[str, Sequence[ItemWrite]]) -> int:
        """`write` for several tenants at once, all in one transaction."""
        changes = {require_tenant(t): self._changes(w) for t, w in writes.items()}
        at = self._clock.now()
        done: dict[str, Applied] = {}
        with self._rows.transaction():
            for tenant, tenant_changes in changes.items():
                applied = done[tenant] = self._rows.apply(tenant, tenant_changes, at)
                if applied.deleted and self._events is not None:
                    self._events.append(tenant, _deletion_events(tenant, applied, at))
        for tenant, applied in done.items():
            self._cache.applied(tenant, applied)
        return sum(len(a.deleted) for a in done.values())

    def _changes(self, writes: Sequence[ItemWrite]) -> list[ItemChange]:
        last: dict[tuple[Namespace, str], ItemWrite] = {}
        for w in writes:
            namespace = check_namespace(w.namespace)
            if not namespace:
                raise NamespaceError("namespace: an item needs at least one label")
            if not isinstance(w.key, str) or "\x00" in w.key:
                raise NamespaceError(f"key {w.key!r}: must be text without NUL")
            if w.value is not None and not isinstance(w.value, Mapping):
                raise TypeError(
                    f"value of {w.key!r}: must be a JSON object, "
                    f"got {type(w.value).__name__}"
                )
            # A key keeps the place of its first write and the value of its last,
            # as a dict does (LangGraph's in-memory store lists that way).
            last[(namespace, w.key)] = w
        texts: list[str] = []
        owed: list[tuple[int, int]] = []  # (first text, count) per write to embed
        given: dict[int, np.ndarray] = {}
        encoded: list[str | None] = []
        for i, w in enumerate(last.values()):
            if w.value is None:
                encoded.append(None)
                owed.append((0, 0))
                continue
            value = dict(w.value)
            encoded.append(json.dumps(value, ensure_ascii=False))
            wanted = (
                [json.dumps(value, sort_keys=True, ensure_ascii=False)]
                if w.texts is None
                else [str(t) for t in w.texts]
            )
            if w.vectors is not None:
                given[i] = self._checked(w.vectors, len(wanted), w.key)
                owed.append((0, 0))
            else:
                owed.append((len(texts), len(wanted)))
                texts.extend(wanted)
        made = self._embedder.embed(texts) if texts else None
        changes = []
        for i, (namespace, key) in enumerate(last):
            vectors = given.get(i)
            start, count = owed[i]
            if made is not None and count:
                vectors = made[start : start + count]
            if vectors is not None:
                vectors = _unit(vectors) if len(vectors) else None
            model = self._embedder.name if vectors is not None else ""
            changes.append(ItemChange(namespace, key, encoded[i], model, vectors))
        return changes

    def _checked(self, vectors: Any, count: int, key: str) -> np.ndarray:
        array = np.asarray(vectors, dtype=np.float32)
        if array.ndim != 2 or array.shape != (count, self._embedder.dim):
            raise ValueError(
                f"vectors of {key!r}: expected {count} of {self._embedder.dim} "
                f"numbers, got shape {array.shape}"
            )
        return array

    # --- reads -----------------------------------------------------------------------

    def get(self, tenant: str, namespace: Sequence[str], key: str) -> StoredItem | None:
        """The item, or None when the tenant holds no such key."""
        tenant = require_tenant(tenant)
        row = self._rows.get(tenant, check_namespace(namespace), key)
        return None if row is None else _item(row)

    def search(
        self,
        tenant: str,
        prefix: Sequence[str] = (),
        *,
        query: str | None = None,
        query_vector: Any = None,
        filter: Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[StoredItem]:
        """Items whose namespace starts with `prefix`, passing `filter`.

        With a query (text, or its vector from this store's embedder) they are
        ranked by cosine, best first, `score` set; items without a vector of
        this embedder follow, in list order. Without one, in list order:
        namespaces as first put, then their items as first put.

        Raises:
            ValueError: for a negative limit or offset, or a bad operator.
        """
        tenant = require_tenant(tenant)
        prefix = check_namespace(prefix, what="namespace prefix")
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset cannot be negative")
        vector = None
        if query_vector is not None:
            vector = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        elif query:
            vector = self._embedder.embed([query])[0]
        ranking = self._ranking(tenant)
        scope = ranking.scope(prefix)
        wanted = offset + limit
        if not len(scope) or not wanted:
            return []
        scores = None
        order: Iterable[int]
        if vector is None:
            order = ranking.listing(prefix)
        else:
            scores = ranking.scores(self._embedder.name, _unit(vector[None, :])[0])
            # A filter may drop items: rank a margin more, the rest only if needed.
            top = max(4 * wanted, 256) if filter else wanted
            order = _by_score(ranking, scope, scores, top)
        picked: list[int] = []
        for slot in order:
            if filter and not matches(ranking.entries[slot].value, filter):
                continue
            picked.append(int(slot))
            if len(picked) >= wanted:
                break
        return [
            _item(
                ranking.entries[i].row,
                None if scores is None or math.isnan(scores[i]) else float(scores[i]),
            )
            for i in picked[offset:]
        ]

    def list_namespaces(
        self,
        tenant: str,
        *,
        match: Sequence[NamespaceMatch] = (),
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Namespace]:
        """The tenant's namespaces passing every `match`, sorted.

        With `max_depth`, each is cut to that many labels (and repeats dropped).

        Raises:
            ValueError: for a negative limit, offset or depth.
        """
        tenant = require_tenant(tenant)
        if limit < 0 or offset < 0 or (max_depth is not None and max_depth < 0):
            raise ValueError("limit, offset and max_depth cannot be negative")
        found: Iterable[Namespace] = (
            ns
            for ns in self._ranking(tenant).held_namespaces()
            if all(_matches_path(m, ns) for m in match)
        )
        if max_depth is not None:
            found = {ns[:max_depth] for ns in found}
        return sorted(found)[offset : offset + limit]

    def _ranking(self, tenant: str) -> Ranking:
        known = self._cache.revision(tenant)
        while True:
            revision, rows = self._rows.rows_since(tenant, known)
            ranking = self._cache.ranking(tenant, revision, rows)
            if ranking is not None:
                return ranking
            known = None  # the cache lost the tenant meanwhile: read it whole

    def close(self) -> None:
        """Nothing: the database is the memory's, closed with it."""


def _by_score(
    ranking: Ranking, scope: np.ndarray, scores: np.ndarray, top: int
) -> Iterator[int]:
    """Slots of `scope` by score, then those without one in list order.

    The best `top` are sorted at once; the rest only if the caller reads on.
    """
    has = ~np.isnan(scores[scope])
    scored = scope[has]
    best = ranking.ranked(scored, scores, top)
    yield from best
    if len(best) < len(scored):
        # `best` is exactly the head of the full order (ties at its cut included).
        yield from ranking.ranked(scored, scores, None)[len(best) :]
    yield from ranking.in_list_order(scope[~has])


def _matches_path(match: NamespaceMatch, namespace: Namespace) -> bool:
    path = match.path
    if len(namespace) < len(path):
        return False
    if match.kind == "prefix":
        pairs = zip(namespace, path, strict=False)
    else:
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    return all(want == "*" or label == want for label, want in pairs)


def _deletion_events(tenant: str, applied: Applied, at: datetime) -> list[MemoryEvent]:
    """One `item_deleted` event per removed key: namespace and key, no value."""
    return [
        make_event(
            tenant,
            "item_deleted",
            at,
            f"item {key!r} of namespace {namespace_text(ns)!r} deleted "
            "(its value is not kept)",
            [namespace_text(ns), key],
        )
        for ns, key in applied.deleted
    ]


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (a zero row stays zero), as float32."""
    array = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return np.divide(array, norms, out=np.zeros_like(array), where=norms > 0)


def _item(row: ItemRow, score: float | None = None) -> StoredItem:
    return StoredItem(
        namespace=row.namespace,
        key=row.key,
        value=json.loads(row.value),
        created_at=row.created_at,
        updated_at=row.updated_at,
        score=score,
    )
