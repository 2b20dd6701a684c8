"""The trash for facts and episodes: deleted by their owner, restorable for a while.

Deleting a fact or an episode moves it here. A trashed fact is forgotten (its
validity ends, as `forget` does, so no read uses it); a trashed episode is left
out of every read of the episode tier. Both come back whole on restore. Once the
restore window has passed, the item is purged for real by the same durable purge
as `memory-lab purge --fact/--episode`, when an engine next opens the folder
(`owner.empty_trash`), with a tombstone saying the trash asked for it.

Chats keep their trash in the chat catalog: a chat has a title and a place in a
list, which this table does not need.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.events import EventKind, make_event
from memory_lab.stores.sql_trash import SqlTrashRows

if TYPE_CHECKING:
    from memory_lab.clock import Clock
    from memory_lab.facts.memory import FactMemory
    from memory_lab.jobs.committed import CommittedEpisodeStore
    from memory_lab.stores.base import EventLog
    from memory_lab.types import MemoryEvent

TrashKind = Literal["fact", "episode"]
TRASH_KINDS: tuple[TrashKind, ...] = get_args(TrashKind)

_LABEL_CHARS = 120


class TrashError(MemoryLabError):
    """A trash request that names nothing trashable; the message says what."""


@dataclass(frozen=True)
class TrashedItem:
    """One fact or episode in the trash, with a line saying what it held."""

    kind: TrashKind
    item: str
    label: str
    trashed_at: datetime

    def restorable_until(self, keep: timedelta) -> datetime:
        """When the item stops being restorable and is due to be purged."""
        return self.trashed_at + keep


class TrashBin:
    """Move facts and episodes to the trash, list it, and restore from it."""

    def __init__(
        self,
        database: Any,
        facts: FactMemory,
        episodes: CommittedEpisodeStore,
        events: EventLog,
        clock: Clock,
        on_episodes_changed: Callable[[str], None] = lambda tenant: None,
    ) -> None:
        self._rows = SqlTrashRows(database)
        self._facts = facts
        self._episodes = episodes
        self._events = events
        self._clock = clock
        # Caches built from the episode tier (the excerpt index) are told, so
        # a trashed episode's turns stop being searched too.
        self._episodes_changed = on_episodes_changed
        episodes.hide_with(lambda tenant: self.hidden(tenant, "episode"))

    # --- reads ---------------------------------------------------------------

    def items(self, tenant: str) -> list[TrashedItem]:
        """The tenant's trash, most recently trashed first."""
        found = [
            TrashedItem(cast(TrashKind, kind), item, label, at)
            for kind, item, label, at in self._rows.rows(require_tenant(tenant))
        ]
        return sorted(found, key=lambda t: (t.trashed_at, t.item), reverse=True)

    def hidden(self, tenant: str, kind: TrashKind) -> set[str]:
        """Ids of the tenant's items of `kind` in the trash."""
        return self._rows.items(tenant, kind)

    # --- writes --------------------------------------------------------------

    def trash_fact(self, tenant: str, fact_id: str) -> MemoryEvent:
        """Forget an active fact and keep it restorable; the `moved_to_trash` event.

        Raises:
            TrashError: when the tenant holds no active fact with this id.
        """
        tenant = require_tenant(tenant)
        fact = next((f for f in self._facts.active(tenant) if f.id == fact_id), None)
        if fact is None:
            raise TrashError(
                f"no active fact {fact_id!r} is held for tenant {tenant!r}"
            )
        self._facts.forget(tenant, fact_id)
        label = f"{fact.category}.{fact.key} = {fact.value}"
        return self._put(tenant, "fact", fact_id, label)

    def trash_episode(self, tenant: str, episode_id: str) -> MemoryEvent:
        """Leave a committed episode out of every read, restorably; the event.

        Raises:
            TrashError: when the tenant holds no such episode, or it is trashed.
        """
        tenant = require_tenant(tenant)
        if episode_id in self.hidden(tenant, "episode"):
            raise TrashError(f"episode {episode_id!r} is already in the trash")
        found = self._episodes.get(tenant, [episode_id])
        if not found:
            raise TrashError(f"no episode {episode_id!r} is held for tenant {tenant!r}")
        event = self._put(tenant, "episode", episode_id, found[0].summary)
        self._episodes_changed(tenant)
        return event

    def restore(self, tenant: str, kind: TrashKind, item: str) -> MemoryEvent:
        """Bring an item back from the trash as it was; its event.

        Raises:
            TrashError: when the item is not in the tenant's trash.
        """
        tenant = require_tenant(tenant)
        held = next(
            (t for t in self.items(tenant) if t.kind == kind and t.item == item), None
        )
        if held is None:
            raise TrashError(f"{kind} {item!r} is not in the trash of {tenant!r}")
        with self._facts.exclusive():
            if kind == "fact":
                self._facts.restore(tenant, item)
            self.drop(tenant, kind, item)
        if kind == "episode":
            self._episodes_changed(tenant)
        return self._log(tenant, "restored_from_trash", held)

    def drop(self, tenant: str, kind: TrashKind, item: str) -> None:
        """Remove the trash row (after a restore, or once the item is purged)."""
        self._rows.remove(tenant, kind, item)

    def _put(self, tenant: str, kind: TrashKind, item: str, label: str) -> MemoryEvent:
        line = " ".join(label.split())
        if len(line) > _LABEL_CHARS:
            line = line[: _LABEL_CHARS - 3].rstrip() + "..."
        held = TrashedItem(kind, item, line, self._clock.now())
        self._rows.put(tenant, kind, item, held.label, held.trashed_at)
        return self._log(tenant, "moved_to_trash", held)

    def _log(self, tenant: str, kind: EventKind, held: TrashedItem) -> MemoryEvent:
        verb = "Moved to the trash" if kind == "moved_to_trash" else "Restored"
        event = make_event(
            tenant,
            kind,
            self._clock.now(),
            f"{verb}: {held.kind} {held.label!r}",
            [held.item],
            {"op": "restore_from_trash", "kind": held.kind, "item": held.item}
            if kind == "moved_to_trash"
            else None,
        )
        self._events.append(tenant, [event])
        return event
