"""A purge carried out on the stores an engine holds open.

`purge.purge` opens a data folder's files itself and needs every other process
off them. Retention and the app's "forget me" run where the stores are already
open, so here the same tiers (`owner.tiers`) run on the engine's own stores:
the records leave every read at once. The one tier that needs the files
closed, `disk` (vacuum, WAL, HNSW slack), is left to the next process that opens
the folder, which finishes the tombstone (`running` until then) before it
reads anything, as after a killed purge. A store without files of the engine's
(Postgres, a Chroma server) has nothing to wait for: its tombstone is done.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory_lab.errors import MemoryLabError
from memory_lab.jobs import phases
from memory_lab.owner.plan import PurgePlan, make_plan
from memory_lab.owner.selection import PurgeRequestError, Selection
from memory_lab.owner.tiers import TIER_RUNS, TIERS, phrase_matcher
from memory_lab.owner.tombstones import PurgeLog, Tombstone

if TYPE_CHECKING:
    from memory_lab.memory_parts import MemoryParts
    from memory_lab.owner.open_stores import OpenStores

IN_PROCESS_TIERS = tuple(t for t in TIERS if t != "disk")
"""The tiers a process holding the stores may run; `disk` waits for a new one.
The LLM response cache is not searched (the tombstone names none)."""


class HeldStores:
    """The engine's own stores, shaped as the purge tiers read a folder.

    Chroma's clients stay open (they are the engine's), so `close_indexes` does
    nothing; the `disk` tier is never run through this.
    """

    def __init__(self, deps: OpenStores, data_dir: Path | None) -> None:
        self.deps = deps
        self.data_dir = data_dir
        self.db = deps.jobs.db
        self.transcript = deps.transcript
        self.facts = deps.facts.store
        self.events = deps.events
        self.ledger = deps.jobs
        self.log = PurgeLog(deps.jobs.db)

    def index(self, name: str) -> Any:
        """The `episodes` or `periods` store the engine searches."""
        if name == "episodes":
            return self.deps.episodes.index
        return self.deps.periods.store if self.deps.periods is not None else None

    def close_indexes(self) -> None:
        """Nothing: the engine keeps its clients."""


def purge_held(
    deps: OpenStores,
    local_files: Path | None,
    tenant: str,
    selection: dict[str, Any],
    plan: PurgePlan,
    *,
    requested_by: str,
    at: datetime,
) -> Tombstone:
    """Run the plan's tiers on the engine's stores; the tombstone.

    `local_files` is the data folder whose files hold the stores (None when
    none does): its tombstone stays `running` until a new process rewrites them.
    """
    held = HeldStores(deps, local_files)
    log = held.log
    stone_id = log.start(
        tenant,
        selection,
        plan.to_json(),
        requested_by=requested_by,
        at=at,
        cache_path=None,
    )
    _run_tiers(held, log, stone_id, tenant, plan)
    if local_files is None:
        log.finish(stone_id, at)
    # The engine's caches were built from what is gone.
    deps.facts.refresh(tenant)
    deps.excerpts.drop(tenant)
    return log.get(stone_id)


def check_held(deps: OpenStores, tenant: str, selection: Selection) -> None:
    """Refuse a purge that selects nothing the engine's stores hold.

    The same rules as `selection.check_request` (which reads a folder's file),
    asked of the stores themselves, so they hold on Postgres too.

    Raises:
        PurgeRequestError: naming the tenant, fact, chat or episode not held, or
            the date before which nothing is held.
    """
    turns = deps.transcript.messages(tenant)
    rows = deps.facts.store.rows(tenant)
    if not (turns or rows or deps.events.events(tenant, limit=1)):
        raise PurgeRequestError(f"no memory is held for tenant {tenant!r}")
    if (
        selection.fact is not None
        and deps.facts.store.get(tenant, selection.fact) is None
    ):
        raise PurgeRequestError(
            f"no fact {selection.fact!r} is held for tenant {tenant!r}"
        )
    if selection.chat is not None:
        chat = selection.chat
        in_thread = deps.transcript.messages(tenant, chat)
        if not (
            in_thread
            or any(m.session == chat for m in turns)
            or any(f.session == chat for f in rows)
        ):
            raise PurgeRequestError(f"no chat {chat!r} is held for tenant {tenant!r}")
    if selection.episode is not None and not deps.jobs.episodes(
        tenant, [selection.episode]
    ):
        raise PurgeRequestError(
            f"no episode {selection.episode!r} is held for tenant {tenant!r}"
        )
    if selection.before is not None:
        before = selection.before
        if not (
            any(m.timestamp < before for m in turns)
            or any(f.created_at < before for f in rows)
        ):
            raise PurgeRequestError(
                f"nothing is held for tenant {tenant!r} before {before.isoformat()}"
            )


def purge_selection(
    deps: OpenStores,
    local_files: Path | None,
    tenant: str,
    selection: Selection,
    *,
    requested_by: str,
    at: datetime,
) -> Tombstone:
    """Check the selection, resolve it to ids and purge them from the stores."""
    check_held(deps, tenant, selection)
    plan = make_plan(
        tenant,
        selection,
        transcript=deps.transcript,  # type: ignore[arg-type]
        facts=deps.facts.store,  # type: ignore[arg-type]
        ledger=deps.jobs,
        index=deps.episodes.index,
        periods=deps.periods.store if deps.periods is not None else None,
    )
    return purge_held(
        deps,
        local_files,
        tenant,
        selection.to_json(),
        plan,
        requested_by=requested_by,
        at=at,
    )


def purge_open(
    deps: OpenStores,
    parts: MemoryParts,
    tenant: str,
    selection: Selection | None,
    *,
    requested_by: str,
    at: datetime,
    settle: Callable[[], object],
    step_lock: AbstractContextManager,
) -> Tombstone:
    """Purge what `selection` names (all of the tenant when None), held open.

    `settle` finishes the memory's owed work first, so none of it writes
    afterwards; the tiers run under the memory's step lock.

    Raises:
        PurgeRequestError: when the selection names nothing held.
        MemoryLabError: for memory held in this process only.
    """
    if parts.in_process:
        raise MemoryLabError(
            "this memory is held in this process only: close the engine to drop it"
        )
    settle()
    with step_lock:
        return purge_selection(
            deps,
            parts.local_files,
            tenant,
            selection or Selection(),
            requested_by=requested_by,
            at=at,
        )


def finish_held(
    deps: OpenStores, local_files: Path | None, at: datetime
) -> list[Tombstone]:
    """Finish the purges a killed process left running on these stores.

    Each runs the tiers its tombstone does not record as done; `disk` is left to
    `purge.finish_purges` where local files hold the stores.
    """
    held = HeldStores(deps, local_files)
    log = held.log
    finished = []
    for stone in log.running():
        plan = PurgePlan.from_json(stone.plan or {})
        _run_tiers(held, log, stone.id, stone.tenant, plan)
        if local_files is None:
            log.finish(stone.id, at)
        finished.append(log.get(stone.id))
        deps.facts.refresh(stone.tenant)
        deps.excerpts.drop(stone.tenant)
    return finished


def _run_tiers(
    held: HeldStores, log: PurgeLog, stone_id: int, tenant: str, plan: PurgePlan
) -> None:
    """The in-process tiers the tombstone does not record as done, in order."""
    matcher: list[Any] = []

    def phrases() -> Any:
        # Built once, and only while the purged text is still held.
        if not matcher:
            matcher.append(phrase_matcher(held, tenant, plan))  # type: ignore[arg-type]
        return matcher[0]

    for tier in IN_PROCESS_TIERS:
        if tier in log.get(stone_id).counts:
            continue
        TIER_RUNS[tier](held, log.get(stone_id), plan, phrases)  # type: ignore[arg-type]
        phases.reached(f"purge:{tier}")
