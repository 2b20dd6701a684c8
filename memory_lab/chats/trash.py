"""Emptying the trash: chats past their restore window are purged for real.

A trashed chat is restorable for `TRASH_DAYS`; after that its turns, the facts
said in it, the episodes built only from it and its catalog row are removed by
the same durable purge as `memory-lab purge --chat ID`, with a tombstone that
says the trash asked for it. A purge needs the folder's stores closed (Chroma
can write purged text back from a process that held it), so an engine empties
the trash when it opens a data folder, in a child process, before it reads any
store, the way it finishes a purge a killed process left running.

Run as `python -m memory_lab.chats.trash DATA_DIR NOW EMBEDDER_NAME DIM KEEP_DAYS`.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

from memory_lab.embeddings import Embedder
from memory_lab.errors import MemoryLabError

DATABASE = "memory.sqlite3"
REQUESTED_BY = "trash (restore window passed)"


class TrashError(MemoryLabError):
    """The trash could not be emptied; the folder is not opened."""


def due(database: Path, now: datetime, keep: timedelta) -> list[tuple[str, str]]:
    """(tenant, chat) of every trashed chat whose restore window has passed."""
    if not database.is_file():
        return []
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        has = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chats'"
        ).fetchone()
        if not has:
            return []
        rows = conn.execute(
            "SELECT tenant, thread, trashed_at FROM chats"
            " WHERE trashed_at IS NOT NULL ORDER BY tenant, thread"
        ).fetchall()
    return [
        (tenant, thread)
        for tenant, thread, trashed in rows
        if datetime.fromisoformat(trashed) + keep <= now
    ]


def empty_trash_apart(
    data_dir: str | Path, embedder: Embedder, now: datetime, keep: timedelta
) -> int:
    """Purge the folder's chats past their window in a child process; how many.

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
            "memory_lab.chats.trash",
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
) -> list[tuple[str, str]]:
    """Purge every chat past its window, in this process (the folder must be closed)."""
    from memory_lab.owner.purge import purge
    from memory_lab.owner.selection import PurgeRequestError, Selection, check_request

    folder = Path(data_dir)
    emptied = due(folder / DATABASE, now, keep)
    for tenant, thread in emptied:
        selection = Selection(chat=thread)
        try:
            check_request(folder / DATABASE, tenant, selection)
        except PurgeRequestError:
            _drop_row(folder / DATABASE, tenant, thread)
            continue
        purge(folder, tenant, selection, requested_by=REQUESTED_BY, embedder=embedder)
        _drop_row(folder / DATABASE, tenant, thread)
    return emptied


def _drop_row(database: Path, tenant: str, thread: str) -> None:
    """The catalog row of a chat with nothing left to purge, its bytes zeroed."""
    with closing(sqlite3.connect(database)) as conn, conn:
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute(
            "DELETE FROM chats WHERE tenant = ? AND thread = ?", (tenant, thread)
        )


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
