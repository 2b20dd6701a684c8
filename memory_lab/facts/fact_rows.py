"""The fact tier's rows: its stores, its one lock, its cached reads and the row writes.

`FactMemory` is built on this: reads (what is active, what a question may see,
a fact's history) and the low-level writes every operation shares (insert,
update, end a row), under the lock that keeps one active value per slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime

from memory_lab.clock import Clock
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.config import FactConfig
from memory_lab.embeddings import Embedder
from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.facts.active_view import ActiveView
from memory_lab.facts.dedup import MeaningMatcher
from memory_lab.facts.reconciliation import (
    effective_confidence,
)
from memory_lab.facts.timeline import as_of, current_view_at
from memory_lab.stores.base import EventLog, FactLinkStore, FactStore
from memory_lab.types import Fact


class FactRows:
    """Tenant-scoped reads of structured facts, and the row writes they share."""

    def __init__(
        self,
        store: FactStore,
        events: EventLog,
        clock: Clock,
        config: FactConfig,
        *,
        embedder: Embedder | None = None,
        links: FactLinkStore | None = None,
    ) -> None:
        """Open the tier over its stores.

        Args after `config`: `embedder` turns on deduplication by meaning;
        `links` keeps links between facts (in memory when None).
        """
        if links is None:
            from memory_lab.stores.memory import InMemoryFactLinkStore

            links = InMemoryFactLinkStore()
        self.link_store = links
        self.store = store
        self.meaning = (
            None
            if embedder is None
            else MeaningMatcher(
                embedder,
                config.same_meaning_threshold,
                slot_threshold=config.same_slot_threshold,
                quantity_threshold=config.same_quantity_threshold,
                kind_threshold=config.changed_kind_threshold,
                relation_bonus=config.changed_relation_bonus,
            )
        )
        self.events = events
        self.clock = clock
        self.config = config
        # Guards reconciliation and the read caches below.
        self._lock = named_lock("facts.rows", reentrant=True)
        self._active_cache: dict[str, list[Fact]] = {}
        self._all_cache: dict[str, list[Fact]] = {}
        self._views: dict[str, ActiveView] = {}
        self._revisions: dict[str, int] = {}

    def active(
        self,
        tenant: str,
        *,
        subject: str | None = None,
        now: datetime | None = None,
        at: datetime | None = None,
        believed_at: datetime | None = None,
    ) -> list[Fact]:
        """Facts in force: by default what memory believes now.

        Args:
            tenant: Whose facts.
            subject: Only facts about this subject, when given.
            now: Memory's current view as it stood at `now`: rows not
                superseded, forgotten or expired by then, including values dated
                to begin later. The same rows whether or not the clock has passed
                `now` (`Fact.current_at`).
            at: Valid time: what held in the world at this instant.
            believed_at: Record time: what memory believed at this instant.
        """
        tenant = require_tenant(tenant)
        current = self.clock.now()
        now = now or current
        if at is None and believed_at is None:
            if now >= current:
                rows = self._cached_rows(tenant)
                return [
                    r for r in rows if r.is_active(now) and subject in (None, r.subject)
                ]
            return current_view_at(self._cached_all(tenant), now, subject=subject)
        return as_of(
            self._cached_all(tenant),
            at=at or now,
            believed_at=believed_at or now,
            subject=subject,
        )

    def _cached_rows(self, tenant: str) -> list[Fact]:
        with self._lock:
            self._drop_if_changed(tenant)
            rows = self._active_cache.get(tenant)
            if rows is None:
                rows = self.store.rows(tenant, status="active")
                self._active_cache[tenant] = rows
                self._views.pop(tenant, None)
            return rows

    def _cached_all(self, tenant: str) -> list[Fact]:
        """Every row, kept until a write like the active ones.

        Extraction reads facts as they stood at its turns' time, once per span,
        and decoding the whole table each time cost as much as the parse.
        """
        with self._lock:
            self._drop_if_changed(tenant)
            rows = self._all_cache.get(tenant)
            if rows is None:
                rows = self._all_cache[tenant] = self.store.rows(tenant)
            return rows

    def _drop_if_changed(self, tenant: str) -> None:
        """Forget the tenant's cached reads when its rows changed since they were made.

        Another engine on the same database (the app opens one per tenant, and
        any engine's worker may do a job another recorded) or another process
        writes without passing through this object. The revision is read before
        the rows, so a write landing between the two only costs a reread.
        """
        revision = self.store.revision(tenant)
        if self._revisions.get(tenant) != revision:
            self._active_cache.pop(tenant, None)
            self._all_cache.pop(tenant, None)
            self._views.pop(tenant, None)
            self._revisions[tenant] = revision

    def candidates(
        self, tenant: str, query: str, *, now: datetime | None = None, limit: int
    ) -> list[Fact]:
        """The active facts that can reach the top `limit` of `rank_facts` for `query`.

        Ranking every active fact costs time in proportion to their number; this
        returns only the facts sharing a word with the query plus the head of the
        query-independent order, found through a word index, so
        `rank_facts(candidates)[:limit] == rank_facts(active)[:limit]`.
        """
        current = self.clock.now()
        now = now or current
        tenant = require_tenant(tenant)
        if now < current:
            # A past instant reads what memory knew then, as `active` does; the
            # cached view holds only today's rows, so index that past set instead.
            past = ActiveView(self.active(tenant, now=now), self.config)
            return past.candidates(query, now, limit)
        return self._view(tenant).candidates(query, now, limit)

    def _view(self, tenant: str) -> ActiveView:
        """The cached view of today's active rows, rebuilt after a write."""
        rows = self._cached_rows(tenant)
        with self._lock:
            view = self._views.get(tenant)
            if view is None or view.rows is not rows:
                view = self._views[tenant] = ActiveView(rows, self.config)
            return view

    def about(
        self, tenant: str, query: str, *, now: datetime | None = None, limit: int
    ) -> list[Fact]:
        """Active facts about someone `query` names (the entity index), best first."""
        now = now or self.clock.now()
        tenant = require_tenant(tenant)
        if now < self.clock.now():
            return ActiveView(self.active(tenant, now=now), self.config).about(
                query, now, limit
            )
        return self._view(tenant).about(query, now, limit)

    def refresh(self, tenant: str | None = None) -> None:
        """Forget cached reads (e.g. after the store was restored under them).

        Reads of active facts are cached per tenant and dropped on every write made
        through this object, and when the store's revision shows another writer's;
        writes always reconcile against the store itself.
        """
        with self._lock:
            if tenant is None:
                self._active_cache.clear()
                self._all_cache.clear()
                self._views.clear()
            else:
                self._active_cache.pop(tenant, None)
                self._all_cache.pop(tenant, None)
                self._views.pop(tenant, None)

    def rows(self, tenant: str) -> list[Fact]:
        """Every row of a tenant, whatever its status."""
        return self.store.rows(require_tenant(tenant))

    def get(self, tenant: str, fact_id: str) -> Fact | None:
        """One row by id, whatever its status; None when the tenant has no such row."""
        return self.store.get(require_tenant(tenant), fact_id)

    def flagged(self, tenant: str) -> list[Fact]:
        """Rows a person should review, oldest first.

        Flagged contradictions (a value that disputes a stored one and was not
        taken) and active values that replaced an extracted one unconfirmed.
        """
        return [
            r
            for r in self.store.rows(require_tenant(tenant))
            if r.status == "contradiction"
            or (r.status == "active" and r.conflicts_with is not None)
        ]

    def history(
        self, tenant: str, category: str, key: str, subject: str = "user"
    ) -> list[Fact]:
        """Every row ever stored for one key, oldest first: the supersession chain."""
        return self.store.rows(
            require_tenant(tenant), subject=subject, category=category, key=key
        )

    def confidence(self, fact: Fact, now: datetime | None = None) -> float:
        """Confidence after decay."""
        return effective_confidence(fact, now or self.clock.now(), self.config)

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the facts' lock across a caller's transaction.

        Readers take this lock before the database's; a writer that opens a
        transaction first and then writes facts would deadlock against them.
        """
        with self._lock:
            yield

    def _transaction(self) -> AbstractContextManager:
        """The store's write transaction, for stores that have one (SQL ones)."""
        begin = getattr(self.store, "transaction", None)
        return begin() if begin is not None else nullcontext()

    def _active_for(
        self, tenant: str, subject: str, key: str, now: datetime
    ) -> Fact | None:
        rows = self.store.rows(tenant, subject=subject, key=key, status="active")
        live = [r for r in rows if r.is_active(now)]
        past_ttl = [
            r
            for r in rows
            if r.status == "active" and r.expires_at is not None and r.expires_at <= now
        ]
        for stale in past_ttl:
            # A row past its TTL reads as expired; record that so the chain stays
            # honest.
            self._update(
                tenant,
                stale.model_copy(
                    update={"status": "expired", "ended_at": stale.expires_at}
                ),
            )
        return live[-1] if live else None

    def _insert(self, tenant: str, row: Fact) -> None:
        self.refresh(tenant)
        self.store.insert(tenant, row)

    def _update(self, tenant: str, row: Fact) -> None:
        self.refresh(tenant)
        self.store.update(tenant, row)

    def _end(
        self, tenant: str, fact: Fact, now: datetime, *, superseded_by: str = ""
    ) -> None:
        """End a row's validity now: forgotten, or superseded by another row."""
        update = {"status": "forgotten", "valid_until": now, "ended_at": now}
        if superseded_by:
            update |= {"status": "superseded", "superseded_by": superseded_by}
        self._update(tenant, fact.model_copy(update=update))

    def _require(self, tenant: str, fact_id: str) -> Fact:
        fact = self.store.get(tenant, fact_id)
        if fact is None:
            raise MemoryLabError(f"no fact {fact_id!r} for tenant {tenant!r}")
        return fact
