"""A purge a killed process left running, finished in a process of its own.

An engine opening a folder must finish such a purge before reading any store,
but not in its own process: the purge reads the text it removes, and Chroma
writes each new index straight from memory it never cleared (see `disk`), so
an engine that had held the text could later write it back to disk. A child
process does the purge, clears the indexes it made and exits.

Run as `python -m memory_lab.owner.resume DATA_DIR EMBEDDER_NAME DIM`.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from memory_lab.embeddings import Embedder
from memory_lab.errors import MemoryLabError
from memory_lab.owner.empty_trash import empty_trash_apart
from memory_lab.owner.purge import DATABASE, NameOnly, any_running, finish_purges


class PurgeResumeError(MemoryLabError):
    """A purge left running could not be finished; the folder is not opened."""


def finish_purges_apart(data_dir: str | Path, embedder: Embedder) -> None:
    """Finish the folder's running purges in a child process (none: one query).

    Raises:
        PurgeResumeError: with the child's last error line, when it failed.
    """
    folder = Path(data_dir)
    if not any_running(folder / DATABASE):
        return
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_lab.owner.resume",
            str(folder),
            embedder.name,
            str(embedder.dim),
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit {done.returncode}"]
        raise PurgeResumeError(
            f"{folder}: a purge left running could not be finished: {lines[-1]}"
        )


def settle_folder(
    data_dir: Path, embedder: Embedder, now: datetime, trash_keep: timedelta
) -> None:
    """What an engine does to a data folder before it reads any store.

    A purge a killed process left half done is finished, then the chats and
    items past their restore window are purged, each in a child process.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    finish_purges_apart(data_dir, embedder)
    empty_trash_apart(data_dir, embedder, now, trash_keep)


def main(argv: list[str]) -> int:
    """Finish the purges of the folder named in `argv`."""
    folder, name, dim = argv
    finish_purges(folder, NameOnly(name, int(dim)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
