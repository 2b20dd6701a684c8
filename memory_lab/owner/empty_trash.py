"""Emptying the trash: chats, facts and episodes past their restore window go.

A trashed item is restorable for the engine's `trash_keep` (30 days unless
told); after that it is removed by the same durable purge as `memory-lab purge
--chat/--fact/--episode ID`: a chat's turns, the facts said in it and the
episodes built only from it, with its catalog row; a fact with its history and
the turns it was read from; an episode with the turns it summarised. The
tombstone says the trash asked for it. A purge needs the folder's stores closed
(Chroma can write purged text back from a process that held it), so an engine
empties the trash when it opens a data folder, in a child process, before it
reads any store, the way it finishes a purge a killed process left running.
An engine with a retention policy also empties its tenant's trash in the
maintenance graph's retention job (`empty_held_trash`), on its own stores.

Run as `python -m memory_lab.owner.empty_trash DATA_DIR NOW EMBEDDER DIM KEEP_DAYS`.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from memory_lab.embeddings import Embedder
from memory_lab.errors import MemoryLabError
from memory_lab.stores import folder_peek
from memory_lab.stores.sql_trash import SqlTrashRows

if TYPE_CHECKING:
    from memory_lab.owner.open_stores import OpenStores
    from memory_lab.owner.selection import Selection

DATABASE = "memory.sqlite3"
REQUESTED_BY = "trash (restore window passed)"


class TrashError(MemoryLabError):
    """The trash could not be emptied; the folder is not opened."""


TrashKind = Literal["chat", "fact", "episode"]


@dataclass(frozen=True)
class DueItem:
    """One trashed thing whose restore window has passed."""

    tenant: str
    kind: TrashKind
    item: str


def _selection(entry: DueItem) -> Selection:
    """The purge request for one due item: its kind names the field."""
    from memory_lab.owner.selection import Selection

    match entry.kind:
        case "chat":
            return Selection(chat=entry.item)
        case "fact":
            return Selection(fact=entry.item)
        case "episode":
            return Selection(episode=entry.item)
        case _:
            raise TypeError(f"no purge selects a {entry.kind!r}")


def due(database: Path, now: datetime, keep: timedelta) -> list[DueItem]:
    """Every trashed chat, fact and episode whose restore window has passed."""
    found = [
        DueItem(tenant, cast(TrashKind, kind), item)
        for tenant, kind, item, trashed in folder_peek.trashed_rows(database)
        if datetime.fromisoformat(trashed) + keep <= now
    ]
    # Chats first, as their purge takes the facts and episodes said in them.
    return [d for d in found if d.kind == "chat"] + [
        d for d in found if d.kind != "chat"
    ]


def empty_trash_apart(
    data_dir: str | Path, embedder: Embedder, now: datetime, keep: timedelta
) -> int:
    """Purge the folder's trash past its window in a child process; how many.

    Raises:
        TrashError: with the child's last error line, when it failed.
    """
    folder = Path(data_dir)
    found = due(folder / DATABASE, now, keep)
    if not found:
        return 0
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_lab.owner.empty_trash",
            str(folder),
            now.isoformat(),
            embedder.name,
            str(embedder.dim),
            str(keep / timedelta(days=1)),
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit {done.returncode}"]
        raise TrashError(f"{folder}: the trash could not be emptied: {lines[-1]}")
    return len(found)


def empty_trash(
    data_dir: str | Path, now: datetime, keep: timedelta, embedder: Embedder
) -> list[DueItem]:
    """Purge everything past its window, in this process (the folder must be closed).

    A fact made active again since it was trashed (an Undo of its forget) is
    not purged: its trash row just goes.
    """
    from memory_lab.owner.purge import purge
    from memory_lab.owner.selection import PurgeRequestError, check_request

    folder = Path(data_dir)
    database = folder / DATABASE
    emptied = due(database, now, keep)
    for entry in emptied:
        selection = _selection(entry)
        if entry.kind == "fact" and _active(database, entry.tenant, entry.item):
            _drop_row(database, entry)
            continue
        try:
            check_request(database, entry.tenant, selection)
        except PurgeRequestError:
            _drop_row(database, entry)
            continue
        purge(
            folder,
            entry.tenant,
            selection,
            requested_by=REQUESTED_BY,
            embedder=embedder,
        )
        _drop_row(database, entry)
    return emptied


def empty_held_trash(
    deps: OpenStores,
    local_files: Path | None,
    tenant: str,
    now: datetime,
    keep: timedelta,
) -> int:
    """Purge the tenant's trash past its window from the engine's own stores.

    What the maintenance graph does (with the retention job) in a running
    engine, through `owner.held`; the same rules as `empty_trash`. Returns how
    many items were emptied.
    """
    from memory_lab.owner.held import purge_selection
    from memory_lab.owner.selection import PurgeRequestError

    trash = SqlTrashRows(deps.jobs.db)
    due = [
        DueItem(tenant, cast(TrashKind, kind), item)
        for kind, item, trashed in sorted(trash.trashed(tenant))
        if datetime.fromisoformat(trashed) + keep <= now
    ]
    for entry in due:
        fact = (
            deps.facts.store.get(tenant, entry.item) if entry.kind == "fact" else None
        )
        if fact is None or fact.status != "active":
            try:
                purge_selection(
                    deps,
                    local_files,
                    tenant,
                    _selection(entry),
                    requested_by=REQUESTED_BY,
                    at=now,
                )
            except PurgeRequestError:
                pass  # nothing of it is held any more: only its row goes
        trash.remove(tenant, entry.kind, entry.item)
    return len(due)


def _active(database: Path, tenant: str, fact_id: str) -> bool:
    return folder_peek.fact_status(database, tenant, fact_id) == "active"


def _drop_row(database: Path, entry: DueItem) -> None:
    """The trash row of an item with nothing left to purge, its bytes zeroed."""
    folder_peek.drop_trash_row(database, entry.tenant, entry.kind, entry.item)


def main(argv: list[str]) -> int:
    """Empty the trash of the folder named in `argv`."""
    from memory_lab.owner.purge import NameOnly

    folder, now, name, dim, keep_days = argv
    empty_trash(
        folder,
        datetime.fromisoformat(now),
        timedelta(days=float(keep_days)),
        NameOnly(name, int(dim)),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
