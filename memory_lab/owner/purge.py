"""Purge: content removed from every tier of a data folder and from its files.

`forget` ends a fact's validity and keeps the row; a purge deletes. It is one
durable job over the folder's SQLite database, Chroma folder and the LLM
response cache:

1. the intent is recorded first: a tombstone row (`tombstones.PurgeLog`),
   status `running`, with the selection and the plan of ids (`plan.make_plan`);
2. the tiers (`tiers`) run in order, each idempotent, each recorded in the
   tombstone as it finishes (in its own transaction where the tier lives in
   the database):
   `events` and `llm_cache` (matched on the purged text, so they go while that
   text is still held to be read), `transcript`, `facts`, `episodes` (the
   ledger's records: removed, or marked lost with their text gone; the
   running summaries rebuilt from the episodes left; marks and jobs past the
   newest turn left brought back to it), `index` (the Chroma collections of
   episodes and of daily and weekly summaries, rebuilt without them), `disk`
   (orphaned HNSW folders removed, every HNSW index's unused capacity zeroed,
   both SQLite files vacuumed with `secure_delete` and their WAL emptied);
3. the tombstone is marked `done` and its plan cleared.

A process killed midway leaves the tombstone `running`. The next `memory-lab
purge` on the folder calls `finish_purges` first; a `MemoryEngine` calls it
through `resume.finish_purges_apart`, in a child process, before any store is
read. A kill inside the `index` tier may leave a collection short of episodes
it should keep: the engine re-indexes committed episodes the index lacks when
it opens, and re-summarises a missing day on the thread's next job.

Summaries are not re-written by a brain: an episode that lost some of its turns
keeps covering the rest (they stay verbatim in the transcript and the excerpt
index) with the summary `LOST`, because re-summarising needs the brain that
built the memory, which a purge must not depend on; daily and weekly summaries
are removed and the worker makes them again from the turns left.

`phases.reached("purge:<tier>")` is called after each tier, so a test can stop
the process there: the command's test-only hook `MEMORY_LAB_PURGE_CRASH_AFTER=
<tier>` SIGKILLs it at that point (see `memlab_cli.purge_cmd`).

This is the purge of a data folder's own files; on Postgres or a Chroma server
the same tiers run through an engine on them (`owner.held`). A process
that held the purged text before the purge should not reopen the folder: Chroma
can write that text back from its memory into new index files (see `disk`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock

from memory_lab.clock import Clock, SystemClock
from memory_lab.jobs import phases
from memory_lab.owner.disk import compact_file
from memory_lab.owner.needles import PhraseMatcher
from memory_lab.owner.plan import PurgePlan, make_plan
from memory_lab.owner.selection import Selection
from memory_lab.owner.tiers import (
    DATABASE,
    TIER_RUNS,
    TIERS,
    NameOnly,
    PurgeFolder,
    phrase_matcher,
)
from memory_lab.owner.tombstones import Tombstone
from memory_lab.stores.folder_peek import any_running_purge as any_running

if TYPE_CHECKING:
    from memory_lab.embeddings import Embedder

__all__ = ["DATABASE", "NameOnly", "any_running", "finish_purges", "purge"]


def purge(
    data_dir: str | Path,
    tenant: str,
    selection: Selection,
    *,
    requested_by: str,
    cache_path: str | Path | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
) -> Tombstone:
    """Remove the selection from every tier and from the disk; returns the tombstone.

    Check the request first (`selection.check_request`): this trusts it. A
    purge left running in the folder is finished before this one starts.
    `cache_path` is the LLM response cache to search (None: none).
    """
    folder = Path(data_dir)
    clock = clock or SystemClock()
    with _lock(folder):
        opened = PurgeFolder(folder, embedder)
        try:
            _finish_running(opened, clock)
            plan = make_plan(
                tenant,
                selection,
                transcript=opened.transcript,
                facts=opened.facts,
                ledger=opened.ledger,
                index=opened.index("episodes"),
                periods=opened.index("periods"),
            )
            purge_id = opened.log.start(
                tenant,
                selection.to_json(),
                plan.to_json(),
                requested_by=requested_by,
                at=clock.now(),
                cache_path=str(cache_path) if cache_path is not None else None,
            )
            _carry_out(opened, opened.log.get(purge_id), clock)
            return opened.log.get(purge_id)
        finally:
            opened.close()


def finish_purges(
    data_dir: str | Path,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
) -> list[Tombstone]:
    """Finish every purge a killed process left running in the folder.

    Cheap when there is none (one query); called before a folder's stores open.
    """
    folder = Path(data_dir)
    if not any_running(folder / DATABASE):
        return []
    with _lock(folder):
        opened = PurgeFolder(folder, embedder)
        try:
            return _finish_running(opened, clock or SystemClock())
        finally:
            opened.close()


def _lock(folder: Path) -> FileLock:
    # Two processes opening the folder at once must not both carry out a purge.
    return FileLock(str(folder / ".memlab-purge.lock"))


def _finish_running(opened: PurgeFolder, clock: Clock) -> list[Tombstone]:
    finished = []
    for tombstone in opened.log.running():
        _carry_out(opened, tombstone, clock)
        finished.append(opened.log.get(tombstone.id))
    return finished


def _carry_out(opened: PurgeFolder, tombstone: Tombstone, clock: Clock) -> None:
    """Run the tiers the tombstone does not record as done, then mark it done."""
    plan = PurgePlan.from_json(tombstone.plan or {})
    matcher: list[PhraseMatcher] = []

    def phrases() -> PhraseMatcher:
        # Built once, and only while the purged text is still held.
        if not matcher:
            matcher.append(phrase_matcher(opened, tombstone.tenant, plan))
        return matcher[0]

    for tier in TIERS:
        if tier in tombstone.counts:
            continue
        TIER_RUNS[tier](opened, tombstone, plan, phrases)
        phases.reached(f"purge:{tier}")
    opened.log.finish(tombstone.id, clock.now())
    # The tombstone's last write leaves a WAL frame of ids only; empty it too.
    compact_file(opened.data_dir / DATABASE, vacuum=False)
