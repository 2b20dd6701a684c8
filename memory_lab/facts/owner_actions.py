"""What the owner does to a fact: forget it, restore it, undo a change."""

from __future__ import annotations

from datetime import datetime

from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.events import make_event
from memory_lab.facts.fact_rows import FactRows
from memory_lab.types import MemoryEvent


class FactOwnerActions(FactRows):
    """Forget, restore and undo, each an event a UI can show."""

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
