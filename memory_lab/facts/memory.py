"""The structured-fact tier: reconciled writes, lifecycle and reads over a FactStore.

Writes go through `reconcile` under one lock, so there is at most one active value
per (tenant, subject, category, key) however many threads write. Every write
returns a MemoryEvent that a UI can show and, where it makes sense, undo.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from memory_lab.errors import require_tenant
from memory_lab.events import make_event
from memory_lab.facts.dedup import listed
from memory_lab.facts.folding import fold_plan
from memory_lab.facts.key_family import family_match
from memory_lab.facts.linking import FactLinking
from memory_lab.facts.owner_actions import FactOwnerActions
from memory_lab.facts.reconciliation import (
    Outcome,
    as_rewording,
    close,
    describe_outcome,
    new_fact,
    normalise_value,
    reconcile,
    with_unique_ids,
)
from memory_lab.types import Fact, FactCandidate, MemoryEvent


class FactMemory(FactOwnerActions, FactLinking):
    """Reconciled, tenant-scoped access to structured facts."""

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
