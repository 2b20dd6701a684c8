"""Each tenant's items held in the process, as arrays a search ranks at once.

`ItemCache` keeps the most recently read tenants; each is checked against the
tenant's revision counter on every read, so another process's writes are seen
at once, and a write of this process is folded in without a rebuild (slots are
appended; a put marks the old slot dead, and the arrays are rebuilt only when
dead slots outnumber live ones). `Ranking` is a read-only view of one state.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.stores.sql_items import Applied, ItemRow, Namespace


class Entry(NamedTuple):
    """One cached item: its row and its value read from JSON once."""

    row: ItemRow
    value: Any
    """The decoded value, read by filters only: callers get a fresh copy."""


class Buffer:
    """A numpy array that grows at its end; views of its first rows stay valid.

    Appending writes past every view handed out, or into a new array, so a
    `Ranking` reading `view()` as it was never sees a later change.
    """

    def __init__(self, dtype: Any, width: int | None = None) -> None:
        shape = (64,) if width is None else (64, width)
        self.data = np.empty(shape, dtype=dtype)
        self.size = 0

    def extend(self, rows: np.ndarray) -> None:
        """Append rows, growing the buffer by doubling."""
        end = self.size + len(rows)
        if end > len(self.data):
            shape = (max(end, 2 * len(self.data)), *self.data.shape[1:])
            grown = np.empty(shape, dtype=self.data.dtype)
            grown[: self.size] = self.data[: self.size]
            self.data = grown
        self.data[self.size : end] = rows
        self.size = end

    def view(self) -> np.ndarray:
        """The rows held so far (a view: later appends do not change it)."""
        return self.data[: self.size]


class Vectors:
    """One embedder's vectors of a tenant's items: rows, and the slot of each row."""

    def __init__(self, dims: int) -> None:
        self.matrix = Buffer(np.float32, dims)
        self.owner = Buffer(np.int64)
        self.single = True
        """Whether no slot has more than one row (then scores need no pooling)."""

    def add(self, slot: int, vectors: np.ndarray) -> None:
        """The vectors of the item in `slot`."""
        self.matrix.extend(vectors)
        self.owner.extend(np.full(len(vectors), slot, dtype=np.int64))
        self.single = self.single and len(vectors) == 1


class TenantItems:
    """One tenant's items at a revision, in append-only slots.

    A put of a held key marks its slot dead and appends a new one (same `seq`),
    so the rankings already handed out stay valid; when dead slots outnumber
    live ones, the slots are rebuilt.
    """

    def __init__(self, revision: int, rows: Iterable[ItemRow]) -> None:
        self._reset(revision, rows)

    def _reset(self, revision: int, rows: Iterable[ItemRow]) -> None:
        self.revision = revision
        self.entries: list[Entry] = []
        self.slot_of: dict[tuple[Namespace, str], int] = {}
        self.seq = Buffer(np.int64)
        self.ns_id = Buffer(np.int32)
        self.namespaces: list[Namespace] = []
        self.ns_index: dict[Namespace, int] = {}
        self.vectors: dict[str, Vectors] = {}
        self.alive = np.zeros(0, dtype=bool)
        self.dead = 0
        self.ranking: Ranking | None = None
        self._add([entry_of(r) for r in rows])

    def _add(self, entries: list[Entry]) -> None:
        first = len(self.entries)
        self.entries.extend(entries)
        ids = []
        for slot, entry in enumerate(entries, first):
            row = entry.row
            old = self.slot_of.get((row.namespace, row.key))
            if old is not None:
                self.alive[old] = False
                self.dead += 1
            self.slot_of[(row.namespace, row.key)] = slot
            ids.append(self.ns_index.setdefault(row.namespace, len(self.ns_index)))
            if len(self.ns_index) > len(self.namespaces):
                self.namespaces.append(row.namespace)
            if row.vectors is not None and len(row.vectors):
                dims = row.vectors.shape[1]
                held = self.vectors.get(row.model)
                if held is None or held.matrix.data.shape[1] != dims:
                    held = self.vectors[row.model] = Vectors(dims)
                    # Vectors of another size under this name: only the new
                    # ones are compared from here on.
                held.add(slot, row.vectors)
        self.seq.extend(np.array([e.row.seq for e in entries], dtype=np.int64))
        self.ns_id.extend(np.array(ids, dtype=np.int32))
        self.alive = np.concatenate([self.alive, np.ones(len(entries), dtype=bool)])

    def apply(self, applied: Applied) -> None:
        """Fold one's own committed change in."""
        self.alive = self.alive.copy()  # the rankings handed out keep theirs
        for gone in applied.deleted:
            slot = self.slot_of.pop(gone, None)
            if slot is not None:
                self.alive[slot] = False
                self.dead += 1
        self._add([entry_of(r) for r in applied.written])
        self.revision = applied.after
        self.ranking = None
        if self.dead > max(256, len(self.entries) - self.dead):
            live = [self.entries[s].row for s in sorted(self.slot_of.values())]
            self._reset(self.revision, live)

    def ranked(self) -> Ranking:
        """The read-only ranking of this state, made once per change."""
        if self.ranking is None:
            self.ranking = Ranking(self)
        return self.ranking


def entry_of(row: ItemRow) -> Entry:
    """The cache entry of a stored row."""
    return Entry(row, json.loads(row.value))


class Ranking:
    """A tenant's items as they were at one revision; read only, by any thread.

    List order is the one LangGraph's in-memory store lists in: namespaces in
    the order their first held item was put, each namespace's items in the
    order they were first put. Ranked order is by score, ties in list order.
    """

    def __init__(self, tenant: TenantItems) -> None:
        self.entries = tenant.entries  # append-only: slots below `size` are fixed
        self.size = len(tenant.entries)
        self.alive = tenant.alive
        self.seq = tenant.seq.view()
        self.ns_id = tenant.ns_id.view()
        self.namespaces = tenant.namespaces[:]
        self.vectors = {
            name: (v.matrix.view(), v.owner.view(), v.single)
            for name, v in tenant.vectors.items()
        }
        self._rank: np.ndarray | None = None
        self._scopes: dict[Namespace, np.ndarray] = {}
        self._listings: dict[Namespace, np.ndarray] = {}

    def held_namespaces(self) -> list[Namespace]:
        """The namespaces with at least one item."""
        return [self.namespaces[i] for i in np.unique(self.ns_id[self.alive])]

    def scope(self, prefix: Namespace) -> np.ndarray:
        """Live slots whose namespace starts with `prefix`, in slot order."""
        found = self._scopes.get(prefix)
        if found is None:
            n = len(prefix)
            ids = [i for i, ns in enumerate(self.namespaces) if ns[:n] == prefix]
            inside = self.alive
            if len(ids) < len(self.namespaces):
                inside = inside & np.isin(self.ns_id, ids)
            found = self._scopes[prefix] = np.flatnonzero(inside)
        return found

    def namespace_rank(self) -> np.ndarray:
        """Per namespace id, its place in list order (by its first live seq)."""
        if self._rank is None:
            first = np.full(len(self.namespaces), np.iinfo(np.int64).max)
            np.minimum.at(first, self.ns_id[self.alive], self.seq[self.alive])
            rank = np.empty(len(first), dtype=np.int64)
            rank[np.argsort(first, kind="stable")] = np.arange(len(first))
            self._rank = rank
        return self._rank

    def in_list_order(self, slots: np.ndarray) -> np.ndarray:
        """`slots` sorted as LangGraph's in-memory store lists them."""
        rank = self.namespace_rank()[self.ns_id[slots]]
        return slots[np.lexsort((self.seq[slots], rank))]

    def listing(self, prefix: Namespace) -> np.ndarray:
        """The live slots under `prefix`, in list order."""
        found = self._listings.get(prefix)
        if found is None:
            found = self._listings[prefix] = self.in_list_order(self.scope(prefix))
        return found

    def scores(self, model: str, query: np.ndarray) -> np.ndarray:
        """Each slot's best cosine with `query` over its vectors; NaN without one."""
        best = np.full(self.size, np.nan, dtype=np.float32)
        held = self.vectors.get(model)
        if held is None or held[0].shape[1] != query.shape[0]:
            return best
        matrix, owner, single = held
        # Not `matrix @ query`: BLAS spreads a product this small over threads,
        # and on a busy machine waiting for them costs more than it saves.
        sims = np.einsum("ij,j->i", matrix, query)
        if single:
            best[owner] = sims
        else:
            np.fmax.at(best, owner, sims)
        return best

    def ranked(
        self, slots: np.ndarray, scores: np.ndarray, top: int | None
    ) -> np.ndarray:
        """`slots` by score (best first, ties in list order), only the best `top`.

        Ties at the cut are kept, so the first `top` are exactly those of a
        full sort.
        """
        keys = -scores[slots]
        if top is not None and top < len(slots):
            cut = np.partition(keys, top - 1)[top - 1] if top else -np.inf
            slots = slots[keys <= cut]
            keys = -scores[slots]
        rank = self.namespace_rank()[self.ns_id[slots]]
        return slots[np.lexsort((self.seq[slots], rank, keys))]


class ItemCache:
    """The items of the tenants read last, shared by an `ItemStore`'s views."""

    def __init__(self, size: int) -> None:
        self.size = size
        # Guards `tenants` and each TenantItems in it. Taken last: never held
        # while a database transaction is opened or an embedder runs.
        self.lock = named_lock("items.cache")
        self.tenants: OrderedDict[str, TenantItems] = OrderedDict()

    def revision(self, tenant: str) -> int | None:
        """The revision the tenant's cached items were read at; None if not held."""
        with self.lock:
            held = self.tenants.get(tenant)
            return None if held is None else held.revision

    def ranking(
        self, tenant: str, revision: int, rows: list[ItemRow] | None
    ) -> Ranking | None:
        """The tenant's ranking at `revision` or later, installing `rows` if read.

        None when the cache lost the tenant between the caller's read and now;
        the caller reads again.
        """
        # Decoding a tenant's rows is the slow part: done before the lock.
        loaded = None if rows is None else TenantItems(revision, rows)
        with self.lock:
            held = self.tenants.get(tenant)
            if loaded is not None and (held is None or held.revision < revision):
                held = self.tenants[tenant] = loaded
            if held is None or held.revision < revision:
                return None
            self.tenants.move_to_end(tenant)
            while len(self.tenants) > self.size:
                self.tenants.popitem(last=False)
            return held.ranked()

    def applied(self, tenant: str, applied: Applied) -> None:
        """Fold one's own committed change in, or drop a cache it cannot update."""
        if applied.after == applied.before:
            return
        with self.lock:
            held = self.tenants.get(tenant)
            if held is None or held.revision >= applied.after:
                return
            if held.revision != applied.before:
                del self.tenants[tenant]
                return
            held.apply(applied)


# --- the store -----------------------------------------------------------------------
