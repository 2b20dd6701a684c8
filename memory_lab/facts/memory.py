"""The structured-fact tier: reconciled writes, lifecycle and reads over a FactStore.

Writes go through `reconcile` under one lock, so there is at most one active value
per (tenant, subject, category, key) however many threads write. Every write
returns a MemoryEvent that a UI can show and, where it makes sense, undo.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime

from memory_lab.clock import Clock
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.config import FactConfig
from memory_lab.embeddings import Embedder
from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.events import make_event
from memory_lab.facts.active_view import ActiveView
from memory_lab.facts.dedup import MeaningMatcher, listed
from memory_lab.facts.folding import fold_plan
from memory_lab.facts.key_family import family_match
from memory_lab.facts.links import (
    LinkError,
    check_type,
    describe,
    new_link,
    same_link,
    superseding_links,
)
from memory_lab.facts.reconciliation import (
    Outcome,
    as_rewording,
    close,
    describe_outcome,
    effective_confidence,
    new_fact,
    normalise_value,
    reconcile,
    with_unique_ids,
)
from memory_lab.facts.timeline import as_of, current_view_at
from memory_lab.stores.base import EventLog, FactLinkStore, FactStore
from memory_lab.types import Fact, FactCandidate, FactLink, MemoryEvent


class FactMemory:
    """Reconciled, tenant-scoped access to structured facts."""

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

    # --- reads -----------------------------------------------------------------

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

    # --- writes ----------------------------------------------------------------

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the facts' lock across a caller's transaction.

        Readers take this lock before the database's; a writer that opens a
        transaction first and then writes facts would deadlock against them.
        """
        with self._lock:
            yield

    def write(
        self, tenant: str, candidate: FactCandidate, *, now: datetime | None = None
    ) -> MemoryEvent:
        """Reconcile one candidate with its key's active row and store the result.

        `now` defaults to the clock; background work passes the time its turn
        asked for it.
        """
        tenant = require_tenant(tenant)
        # The store's transaction: another process writing the same key waits,
        # rather than both superseding one row and leaving two values active.
        with self._lock, self._transaction():
            now = now or self.clock.now()
            current = self._active_for(tenant, candidate.subject, candidate.key, now)
            if candidate.ends:
                return self._close(tenant, candidate, current, now)
            if candidate.past:
                return self._past(tenant, candidate, current, now)
            # An event adds to the record: only its own key (the same event
            # said again) is matched, never another value by likeness.
            alike = not candidate.event
            if current is None and alike:
                # The same slot said with fewer or more qualifiers updates its row.
                current = family_match(
                    candidate, self.active(tenant, subject=candidate.subject, now=now)
                )
                if current is not None:
                    candidate = candidate.model_copy(update={"key": current.key})
            paraphrase = False
            if current is None and alike and self.meaning is not None:
                # A paraphrase under another key updates or confirms the stored row.
                current = self.meaning.match(
                    candidate, self.active(tenant, subject=candidate.subject, now=now)
                )
                if current is not None:
                    paraphrase = True
                    candidate = candidate.model_copy(update={"key": current.key})
                    if set(candidate.turn_ids) <= set(current.turn_ids):
                        # Two readings of one sentence: the first one stands.
                        candidate = candidate.model_copy(
                            update={"value": current.value}
                        )
            if current is None and alike and self.meaning is not None:
                # A stated change ("it's $50 a week now") updates the stored
                # value of its kind, however that was keyed.
                current = self.meaning.changed(
                    candidate, self.active(tenant, subject=candidate.subject, now=now)
                )
                if current is not None and not listed(candidate):
                    # A listed key names its value ("likes.jazz"): it keeps its own.
                    candidate = candidate.model_copy(update={"key": current.key})
            if current is not None and current.category != candidate.category:
                # One key, one current value: a correction stated differently ("we
                # switched to K3" after "we chose K2") keeps the stored category.
                candidate = candidate.model_copy(update={"category": current.category})
            outcome = reconcile(tenant, candidate, current, now, self.config)
            if paraphrase:
                outcome = as_rewording(outcome)
            assert outcome.fact is not None  # every reconcile outcome names its fact
            if outcome.action == "contradiction" and self.store.get(
                tenant, outcome.fact.id
            ):
                outcome = Outcome("noop", fact=outcome.fact)  # already flagged
            outcome = with_unique_ids(
                outcome, lambda i: self.store.get(tenant, i) is not None
            )
            for row in outcome.updates:
                self._update(tenant, row)
            for row in outcome.inserts:
                self._insert(tenant, row)
            kind, detail = describe_outcome(outcome)
            fact = outcome.fact
            assert fact is not None  # as describe_outcome has checked
            undo = None
            if outcome.action in ("added", "superseded"):
                undo = {
                    "op": "revert",
                    "fact": fact.id,
                    "restore": outcome.previous.id if outcome.previous else None,
                }
            event = make_event(tenant, kind, now, detail, [fact.id], undo)
            if outcome.action != "noop":
                self.events.append(tenant, [event])
            return event

    def _close(
        self, tenant: str, candidate: FactCandidate, current: Fact | None, now: datetime
    ) -> MemoryEvent:
        """End `current`'s validity for an ending; nothing to end is a no-op."""
        label = f"{candidate.subject}.{candidate.category}.{candidate.key}"
        if current is None:
            return make_event(tenant, "fact_skipped", now, f"Nothing to end: {label}")
        closed = close(current, candidate, now)
        self._update(tenant, closed)
        event = make_event(
            tenant,
            "fact_superseded",
            now,
            f"Ended {label} = {current.value!r}: no longer holds",
            [closed.id],
            {"op": "restore", "fact": closed.id},
        )
        self.events.append(tenant, [event])
        return event

    def _past(
        self, tenant: str, candidate: FactCandidate, current: Fact | None, now: datetime
    ) -> MemoryEvent:
        """What used to hold: it ends a stored fact of that value, or is kept ended."""
        same = current is not None and normalise_value(
            current.value
        ) == normalise_value(candidate.value)
        if current is not None and same:
            return self._close(tenant, candidate, current, now)
        row = new_fact(tenant, candidate, now, self.config)
        # When it began is not said; it held until it was said to be past.
        row = row.model_copy(update={"valid_until": row.valid_from})
        row = with_unique_ids(
            Outcome("added", inserts=[row], fact=row),
            lambda i: self.store.get(tenant, i) is not None,
        ).inserts[0]
        self._insert(tenant, row)
        label = f"{row.subject}.{row.category}.{row.key}"
        event = make_event(
            tenant,
            "fact_added",
            now,
            f"Remembered {label} = {row.value!r}, as held in the past",
            [row.id],
            {"op": "revert", "fact": row.id, "restore": None},
        )
        self.events.append(tenant, [event])
        return event

    def write_many(
        self,
        tenant: str,
        candidates: Sequence[FactCandidate],
        *,
        now: datetime | None = None,
    ) -> list[MemoryEvent]:
        """Write candidates in order; returns one event per candidate."""
        return [self.write(tenant, c, now=now) for c in candidates]

    def forget(
        self, tenant: str, fact_id: str, *, now: datetime | None = None
    ) -> MemoryEvent:
        """End-date a fact (kept for audit, never deleted), at `now` or the clock's."""
        tenant = require_tenant(tenant)
        with self._lock:
            fact = self._require(tenant, fact_id)
            now = now or self.clock.now()
            self._end(tenant, fact, now)
            event = make_event(
                tenant,
                "fact_forgotten",
                now,
                f"Forgot {fact.subject}.{fact.category}.{fact.key}",
                [fact.id],
                {"op": "restore", "fact": fact.id},
            )
            self.events.append(tenant, [event])
            return event

    def restore(self, tenant: str, fact_id: str) -> MemoryEvent:
        """Make an ended or flagged row the active value of its key again.

        The row that holds the key now (if any) is superseded by it, so a key
        still has one active value. Used to undo a forget, take back a replaced
        value, or accept a flagged contradiction.
        """
        tenant = require_tenant(tenant)
        with self._lock:
            fact = self._require(tenant, fact_id)
            now = self.clock.now()
            current = self._active_for(tenant, fact.subject, fact.key, now)
            if current is not None and current.id != fact.id:
                self._end(tenant, current, now, superseded_by=fact.id)
            ttl = None if fact.source == "explicit" else self.config.ttl(fact.category)
            self._update(
                tenant,
                fact.model_copy(
                    update={
                        "status": "active",
                        "superseded_by": None,
                        "valid_until": None,
                        "ended_at": None,
                        "conflicts_with": None,
                        "last_confirmed_at": now,
                        "expires_at": None if ttl is None else now + ttl,
                    }
                ),
            )
            event = make_event(
                tenant,
                "fact_restored",
                now,
                f"Restored {fact.subject}.{fact.category}.{fact.key} = {fact.value!r}",
                [fact.id, *([current.id] if current and current.id != fact.id else [])],
            )
            self.events.append(tenant, [event])
            return event

    def confirm(self, tenant: str, fact_id: str) -> MemoryEvent:
        """Re-confirm a fact: boost its confidence and renew its TTL."""
        tenant = require_tenant(tenant)
        fact = self._require(tenant, fact_id)
        candidate = FactCandidate(
            category=fact.category,
            key=fact.key,
            value=fact.value,
            subject=fact.subject,
            confidence=fact.confidence,
            importance=fact.importance,
            source=fact.source,
            session=fact.session,
            turn_ids=[*fact.turn_ids, f"confirm@{self.clock.now().isoformat()}"],
            evidence=fact.evidence,
        )
        return self.write(tenant, candidate)

    def undo(self, tenant: str, event: MemoryEvent) -> MemoryEvent:
        """Revert a write that carries an undo recipe.

        Nothing is deleted: rows are end-dated.
        """
        tenant = require_tenant(tenant)
        if not event.undo or event.tenant != tenant:
            raise MemoryLabError(f"event {event.id} cannot be undone")
        with self._lock:
            now = self.clock.now()
            op = event.undo["op"]
            fact = self._require(tenant, event.undo["fact"])
            if op == "revert":
                self._end(tenant, fact, now)
                restore = event.undo.get("restore")
                if restore:
                    prev = self._require(tenant, restore)
                    self.store.update(
                        tenant,
                        prev.model_copy(
                            update={
                                "status": "active",
                                "superseded_by": None,
                                "valid_until": None,
                                "ended_at": None,
                            }
                        ),
                    )
            elif op == "restore":
                self._update(
                    tenant,
                    fact.model_copy(
                        update={
                            "status": "active",
                            "valid_until": None,
                            "ended_at": None,
                        }
                    ),
                )
            else:
                raise MemoryLabError(f"unknown undo operation {op!r}")
            undone = make_event(
                tenant, "undone", now, f"Undid: {event.detail}", [event.id, *event.refs]
            )
            self.events.append(tenant, [undone])
            return undone

    def month_turned(self, tenant: str, now: datetime) -> bool:
        """Whether `now` is in a later calendar month than the newest active fact.

        The schedule for consolidation, read from the facts themselves so that a
        restart or another process sees the same schedule: a conversation is
        consolidated when its own time crosses into a new month. Ask before the
        writes of the turn that might cross it.
        """
        rows = self._cached_rows(require_tenant(tenant))
        if not rows:
            return False
        newest = max(max(r.created_at, r.last_confirmed_at) for r in rows)
        return (now.year, now.month) > (newest.year, newest.month)

    def consolidate(
        self,
        tenant: str,
        subject: str = "user",
        *,
        now: datetime | None = None,
        summarise: Callable[[list[str]], str] | None = None,
        scheduled: bool = False,
    ) -> list[MemoryEvent]:
        """Fold related extracted facts into one, past the limit or on schedule.

        Runs when a subject holds more active facts than the limit, or when
        `scheduled` (the month turned). `folding.fold_plan` picks the groups (by
        meaning when the tier has an embedder); each new row supersedes its
        members, its value written by `summarise` (the brain) or their values
        joined.
        """
        tenant = require_tenant(tenant)
        with self._lock:
            now = now or self.clock.now()
            active = self.active(tenant, subject=subject, now=now)
            if not scheduled and len(active) <= self.config.consolidate_above:
                return []
            events = []
            embed = None if self.meaning is None else self.meaning.vectors
            threshold = self.config.related_threshold
            plan = fold_plan(
                active, subject, summarise, embed=embed, threshold=threshold
            )
            for members, candidate in plan:
                summary = new_fact(tenant, candidate, now, self.config)
                self._insert(tenant, summary)
                for m in members:
                    self.store.update(
                        tenant,
                        m.model_copy(
                            update={
                                "status": "superseded",
                                "superseded_by": summary.id,
                                "ended_at": now,
                            }
                        ),
                    )
                event = make_event(
                    tenant,
                    "facts_consolidated",
                    now,
                    f"Consolidated {len(members)} {candidate.category} facts under "
                    f"{subject}.{candidate.key.removesuffix('.all')}",
                    [summary.id, *(m.id for m in members)],
                )
                self.events.append(tenant, [event])
                events.append(event)
            return events

    # --- links -----------------------------------------------------------------

    def link(
        self,
        tenant: str,
        link_type: str,
        source_id: str,
        target_id: str,
        *,
        origin: str = "api",
        now: datetime | None = None,
    ) -> MemoryEvent:
        """Link two of the tenant's facts: `source_id` `link_type` `target_id`.

        Asking again for a link that holds changes nothing (the returned event
        says so and is not logged).

        Raises:
            LinkError: for an unknown type or "supersedes", a self-link, or a
                fact the tenant does not hold (another tenant's id included).
        """
        tenant = require_tenant(tenant)
        check_type(link_type)
        with self._lock, self._transaction():
            now = now or self.clock.now()
            source, target = (self._linkable(tenant, i) for i in (source_id, target_id))
            made = new_link(tenant, link_type, source, target, now, origin)
            held = next(
                (
                    k
                    for k in self.link_store.links(tenant, source.id)
                    if k.ended_at is None and same_link(k, made)
                ),
                None,
            )
            if held is not None:
                return make_event(
                    tenant,
                    "fact_linked",
                    now,
                    f"Already linked: {describe(held)}",
                    [held.id, held.source, held.target],
                )
            self.link_store.insert(tenant, made)
            event = make_event(
                tenant,
                "fact_linked",
                now,
                f"Linked {describe(made)}",
                [made.id, made.source, made.target],
            )
            self.events.append(tenant, [event])
            return event

    def unlink(
        self, tenant: str, link_id: str, *, now: datetime | None = None
    ) -> MemoryEvent:
        """End a link (kept for audit, never deleted).

        Raises:
            LinkError: for a link the tenant does not hold, one already ended,
                or a "supersedes" link (restore the older fact instead).
        """
        tenant = require_tenant(tenant)
        with self._lock, self._transaction():
            now = now or self.clock.now()
            held = next(
                (k for k in self.link_store.links(tenant) if k.id == link_id), None
            )
            if held is None:
                raise LinkError(
                    f"no link {link_id!r} for tenant {tenant!r}"
                    + (
                        " (supersedes links end by restoring a fact)"
                        if link_id.startswith("sup:")
                        else ""
                    )
                )
            if held.ended_at is not None:
                raise LinkError(f"link {link_id!r} already ended at {held.ended_at}")
            self.link_store.end(tenant, held.model_copy(update={"ended_at": now}))
            event = make_event(
                tenant,
                "fact_unlinked",
                now,
                f"Unlinked {describe(held)}",
                [held.id, held.source, held.target],
            )
            self.events.append(tenant, [event])
            return event

    def links(
        self,
        tenant: str,
        fact_id: str | None = None,
        *,
        include_ended: bool = False,
    ) -> list[FactLink]:
        """Links touching `fact_id` in either direction (every link, if None).

        Stored links first, oldest first, then the "supersedes" links read from
        the fact rows. Ended stored links only with `include_ended`.
        """
        tenant = require_tenant(tenant)
        stored = [
            k
            for k in self.link_store.links(tenant, fact_id)
            if include_ended or k.ended_at is None
        ]
        return stored + superseding_links(self.store.rows(tenant), fact_id)

    def _linkable(self, tenant: str, fact_id: str) -> Fact:
        fact = self.store.get(tenant, fact_id)
        if fact is None:
            raise LinkError(f"no fact {fact_id!r} for tenant {tenant!r}")
        return fact

    # --- helpers ---------------------------------------------------------------

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
            if r.status == "active"
            and r.expires_at is not None
            and r.expires_at <= now
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
