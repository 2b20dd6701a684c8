"""Plain-Python stores: the reference models the persistent stores are tested against.

They keep the same semantics as the SQLite and Chroma stores in the fewest lines,
so a property test can replay one sequence of calls on both and compare. Search
here is exact (brute-force cosine), which also makes it the yardstick for the
approximate index.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Unpack

import numpy as np

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.embeddings import Embedder
from memory_lab.errors import require_tenant
from memory_lab.stores.base import (
    FactFilters,
    SeqSpan,
    check_limit,
    given_filters,
    seq_bounds,
)
from memory_lab.stores.tenancy import require_owned
from memory_lab.types import Episode, Fact, FactLink, MemoryEvent, Message


class InMemoryTranscriptStore:
    """Append-only transcript; `seq` counts up from 0 within each tenant."""

    def __init__(self) -> None:
        """Start empty."""
        self._rows: dict[str, list[tuple[str, Message]]] = defaultdict(list)
        self._by_id: dict[str, dict[str, Message]] = defaultdict(dict)
        self._lock = named_lock("memory.transcript")  # guards the two dicts above

    def append(
        self, tenant: str, thread: str, messages: Sequence[Message]
    ) -> list[Message]:
        """Store new messages in order; already stored ids come back as stored."""
        tenant = require_owned(tenant, messages)
        out: list[Message] = []
        with self._lock:
            rows, by_id = self._rows[tenant], self._by_id[tenant]
            for message in messages:
                if message.id in by_id:
                    out.append(by_id[message.id])
                    continue
                stored = message.model_copy(update={"seq": len(rows)}, deep=True)
                rows.append((thread, stored))
                by_id[stored.id] = stored
                out.append(stored)
        return out

    def messages(
        self, tenant: str, thread: str | None = None, **span: Unpack[SeqSpan]
    ) -> list[Message]:
        """The tenant's messages from `first_seq` on, found by bisection.

        A window read asks for the newest few turns of a long history; scanning
        from the first turn made every read cost the whole conversation.
        """
        tenant = require_tenant(tenant)
        first_seq, last_seq = seq_bounds(span)
        with self._lock:
            rows = self._rows.get(tenant, [])
            start = bisect_left(rows, first_seq, key=_row_seq)
            stop = (
                len(rows)
                if last_seq is None
                else bisect_right(rows, last_seq, key=_row_seq)
            )
            return [m for t, m in rows[start:stop] if thread is None or t == thread]

    def count(self, tenant: str, thread: str | None = None) -> int:
        """How many messages the tenant (or one of its threads) has."""
        tenant = require_tenant(tenant)
        with self._lock:
            rows = self._rows.get(tenant, [])
            return sum(1 for t, _ in rows if thread is None or t == thread)


class InMemoryFactStore:
    """Fact rows keyed by (tenant, id), ordered by creation time then id."""

    def __init__(self) -> None:
        """Start empty."""
        self._rows: dict[str, dict[str, Fact]] = defaultdict(dict)
        self._revisions: dict[str, int] = defaultdict(int)
        self._lock = named_lock("memory.facts")  # guards the rows and revisions

    def revision(self, tenant: str) -> int:
        """How many changes the tenant's rows have had."""
        with self._lock:
            return self._revisions[require_tenant(tenant)]

    def insert(self, tenant: str, fact: Fact) -> None:
        """Store a new row.

        Raises:
            ValueError: when the tenant already has a row with this id.
        """
        tenant = require_owned(tenant, [fact])
        with self._lock:
            rows = self._rows[tenant]
            if fact.id in rows:
                raise ValueError(
                    f"fact {fact.id!r} already exists for tenant {tenant!r}"
                )
            rows[fact.id] = fact.model_copy(deep=True)
            self._revisions[tenant] += 1

    def update(self, tenant: str, fact: Fact) -> None:
        """Replace the tenant's row with the same id.

        Raises:
            KeyError: when the tenant has no row with this id.
        """
        tenant = require_owned(tenant, [fact])
        with self._lock:
            rows = self._rows[tenant]
            if fact.id not in rows:
                raise KeyError(f"no fact {fact.id!r} for tenant {tenant!r}")
            rows[fact.id] = fact.model_copy(deep=True)
            self._revisions[tenant] += 1

    def rows(self, tenant: str, **filters: Unpack[FactFilters]) -> list[Fact]:
        """A scan of every row; the reference the SQL stores are checked against."""
        tenant = require_tenant(tenant)
        wanted = given_filters(filters)
        with self._lock:
            found = [
                f
                for f in self._rows.get(tenant, {}).values()
                if all(getattr(f, name) == value for name, value in wanted.items())
            ]
        return sorted(found, key=lambda f: (f.created_at, f.id))

    def get(self, tenant: str, fact_id: str) -> Fact | None:
        """The tenant's row with this id, or None."""
        tenant = require_tenant(tenant)
        with self._lock:
            return self._rows.get(tenant, {}).get(fact_id)


class InMemoryFactLinkStore:
    """Link rows keyed by (tenant, id), in creation order then id."""

    def __init__(self) -> None:
        """Start empty."""
        self._rows: dict[str, dict[str, FactLink]] = defaultdict(dict)
        self._lock = named_lock("memory.fact_links")  # guards `_rows`

    def insert(self, tenant: str, link: FactLink) -> None:
        """Store a new link; raises ValueError for an id the tenant holds."""
        tenant = require_owned(tenant, [link])
        with self._lock:
            if link.id in self._rows[tenant]:
                raise ValueError(
                    f"link {link.id!r} already exists for tenant {tenant!r}"
                )
            self._rows[tenant][link.id] = link

    def end(self, tenant: str, link: FactLink) -> None:
        """Store a held link's end date; raises KeyError for an unknown id."""
        tenant = require_owned(tenant, [link])
        with self._lock:
            held = self._rows[tenant].get(link.id)
            if held is None:
                raise KeyError(f"no link {link.id!r} for tenant {tenant!r}")
            self._rows[tenant][link.id] = held.model_copy(
                update={"ended_at": link.ended_at}
            )

    def links(self, tenant: str, fact_id: str | None = None) -> list[FactLink]:
        """A scan of the tenant's links; the reference for the SQL store."""
        tenant = require_tenant(tenant)
        with self._lock:
            found = [
                link
                for link in self._rows.get(tenant, {}).values()
                if fact_id is None or link.touches(fact_id)
            ]
        return sorted(found, key=lambda link: (link.created_at, link.id))


class InMemoryEventLog:
    """Events ordered by time, then by the order they were appended."""

    def __init__(self) -> None:
        """Start empty."""
        self._events: dict[str, list[MemoryEvent]] = defaultdict(list)
        self._ids: dict[str, set[str]] = defaultdict(set)
        self._lock = named_lock("memory.events")  # guards the events and their ids

    def append(self, tenant: str, events: Sequence[MemoryEvent]) -> None:
        """Store events in order; an id the tenant already logged is skipped."""
        tenant = require_owned(tenant, events)
        with self._lock:
            log, ids = self._events[tenant], self._ids[tenant]
            for event in events:
                if event.id not in ids:
                    ids.add(event.id)
                    log.append(event.model_copy(deep=True))

    def events(
        self, tenant: str, *, since: datetime | None = None, limit: int | None = None
    ) -> list[MemoryEvent]:
        """Sorted by time, ties in append order, as the SQL log orders them."""
        tenant = require_tenant(tenant)
        check_limit(limit)
        with self._lock:
            log = list(enumerate(self._events.get(tenant, [])))
        ordered = [e for _, e in sorted(log, key=lambda pair: (pair[1].at, pair[0]))]
        if since is not None:
            ordered = [e for e in ordered if e.at >= since]
        if limit is not None:
            ordered = ordered[len(ordered) - limit :]
        return ordered


class InMemoryEpisodeStore:
    """Episodes with exact cosine search over their rendered text."""

    def __init__(self, embedder: Embedder) -> None:
        """Start empty; `embedder` turns rendered episodes and queries into vectors."""
        self._embedder = embedder
        self._episodes: dict[str, dict[str, Episode]] = defaultdict(dict)
        self._vectors: dict[str, dict[str, np.ndarray]] = defaultdict(dict)
        self._stacked: dict[str, tuple[list[Episode], np.ndarray]] = {}
        # Guards the episodes, their vectors and the stacked copies.
        self._lock = named_lock("memory.episodes")

    def add(self, tenant: str, episodes: Sequence[Episode]) -> None:
        """Store episodes; an id already stored for the tenant is left as it was."""
        tenant = require_owned(tenant, episodes)
        with self._lock:
            stored = self._episodes[tenant]
            new: dict[str, Episode] = {}
            for episode in episodes:
                if episode.id not in stored and episode.id not in new:
                    new[episode.id] = episode
        if not new:
            return
        vectors = self._embedder.embed([e.render() for e in new.values()])
        with self._lock:
            for episode, vector in zip(new.values(), vectors, strict=True):
                if episode.id not in self._episodes[tenant]:
                    self._episodes[tenant][episode.id] = episode.model_copy(deep=True)
                    self._vectors[tenant][episode.id] = vector.astype(np.float32)
            self._stacked.pop(tenant, None)

    def get(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """The tenant's episodes (those named by `ids`, if given), in seq order."""
        tenant = require_tenant(tenant)
        with self._lock:
            stored = self._episodes.get(tenant, {})
            if ids is None:
                found = list(stored.values())
            else:
                found = [stored[i] for i in dict.fromkeys(ids) if i in stored]
        return sorted(found, key=_seq_order)

    def search(
        self, tenant: str, query: str, *, top_k: int, max_distance: float
    ) -> list[tuple[Episode, float]]:
        """Up to `top_k` episodes within `max_distance`, closest first, ties by id."""
        tenant = require_tenant(tenant)
        if top_k <= 0:
            return []
        with self._lock:
            if not self._vectors.get(tenant):
                return []
            episodes, matrix = self._stacked_by_id(tenant)
        q = self._embedder.embed([query])[0].astype(np.float32)
        distances = np.maximum(1.0 - matrix @ q, 0.0)
        # Stable on rows in id order: equal distances keep id order.
        order = np.argsort(distances, kind="stable")
        return [
            (episodes[i], float(distances[i]))
            for i in order[:top_k].tolist()
            if distances[i] <= max_distance
        ]

    def _stacked_by_id(self, tenant: str) -> tuple[list[Episode], np.ndarray]:
        """Episodes in id order and their vectors as one matrix, kept until a change."""
        stacked = self._stacked.get(tenant)
        if stacked is None:
            ids = sorted(self._vectors[tenant])
            stacked = (
                [self._episodes[tenant][i] for i in ids],
                np.stack([self._vectors[tenant][i] for i in ids]),
            )
            self._stacked[tenant] = stacked
        return stacked

    def count(self, tenant: str) -> int:
        """How many episodes the tenant has."""
        tenant = require_tenant(tenant)
        with self._lock:
            return len(self._episodes.get(tenant, {}))

    def remove(self, tenant: str, ids: Sequence[str]) -> int:
        """Delete these episodes and their vectors; returns how many were held."""
        tenant = require_tenant(tenant)
        with self._lock:
            stored = self._episodes.get(tenant, {})
            vectors = self._vectors.get(tenant, {})
            held = [i for i in dict.fromkeys(ids) if i in stored]
            for i in held:
                del stored[i]
                vectors.pop(i, None)
            self._stacked.pop(tenant, None)
        return len(held)

    def drop(self, tenant: str) -> None:
        """Delete every episode of the tenant and its vectors."""
        tenant = require_tenant(tenant)
        with self._lock:
            self._episodes.pop(tenant, None)
            self._vectors.pop(tenant, None)
            self._stacked.pop(tenant, None)

    def close(self) -> None:
        """Nothing to release: the episodes live only in this object."""


def _row_seq(row: tuple[str, Message]) -> int:
    return row[1].seq


def _seq_order(episode: Episode) -> tuple[int, int, str]:
    return (episode.first_seq, episode.last_seq, episode.id)
