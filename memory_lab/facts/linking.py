"""Links between facts: typed, checked, and ended rather than deleted."""

from __future__ import annotations

from datetime import datetime

from memory_lab.errors import require_tenant
from memory_lab.events import make_event
from memory_lab.facts.fact_rows import FactRows
from memory_lab.facts.links import (
    LinkError,
    check_type,
    describe,
    new_link,
    same_link,
    superseding_links,
)
from memory_lab.types import Fact, FactLink, MemoryEvent


class FactLinking(FactRows):
    """Links between a tenant's facts, each write an event."""

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
