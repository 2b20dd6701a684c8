"""What a purge does to the files themselves, and the byte scan that checks it.

A row deleted from SQLite stays in the file (free pages, WAL frames) until the
file is rewritten, and a dropped Chroma collection leaves its HNSW segment
folder behind. Chroma's HNSW files leak a third way: whenever it (re)creates
an index file, even when a process merely opens a collection whose vectors
are still in its log, it writes the file at full capacity straight from memory
it never cleared, so the slots past the last element hold whatever that process
had freed; this project's purge tests found purged text there. These helpers
rewrite, remove and clear, on files no client holds open. A process that held
the text before a purge can still write it back when it opens the folder
again; open a purged folder from a new process.

They use plain sqlite3 connections, not the stores' `Database`: VACUUM and a WAL
truncation rewrite the file itself, which needs a connection no store holds (a
store's own connection would keep the WAL in use), and `chroma.sqlite3` is
Chroma's file, outside our schema.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import struct
import time
from contextlib import closing
from pathlib import Path

_SEGMENT = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
"""Chroma names a segment's folder by the segment's UUID."""


def compact_file(path: Path, *, vacuum: bool = True) -> None:
    """VACUUM a SQLite file with `secure_delete`, then empty its WAL into it.

    Other connections may stay open while idle (none may be inside a
    transaction); the WAL is copied back and truncated to zero bytes.

    Raises:
        sqlite3.OperationalError: when another connection's read kept the WAL
            from being emptied for several seconds; calling again finishes.
    """
    with closing(sqlite3.connect(path, timeout=30, isolation_level=None)) as conn:
        conn.execute("PRAGMA secure_delete = ON")
        if vacuum:
            conn.execute("VACUUM")
        for _ in range(50):
            if not conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]:
                return
            time.sleep(0.1)
    raise sqlite3.OperationalError(f"{path}: the WAL stayed in use")


def remove_orphan_segments(chroma: Path) -> int:
    """Delete segment folders no collection owns any more; returns how many.

    Chroma drops a collection's rows but not its HNSW files; the vectors in
    them were computed from the purged text.
    """
    database = chroma / "chroma.sqlite3"
    if not database.is_file():
        return 0
    with closing(sqlite3.connect(database, timeout=30)) as conn:
        owned = {row[0] for row in conn.execute("SELECT id FROM segments")}
    removed = 0
    for folder in chroma.iterdir():
        if folder.is_dir() and _SEGMENT.match(folder.name) and folder.name not in owned:
            shutil.rmtree(folder)
            removed += 1
    return removed


_HNSW_HEADER = struct.Struct("<iQQQQ")
"""hnswlib's header.bin starts: version, offsetLevel0, max_elements,
cur_element_count, size_data_per_element."""
_HNSW_VERSION = 1


def clear_hnsw_slack(chroma: Path) -> tuple[int, int]:
    """Zero every HNSW segment's unused capacity; returns (cleared, unrecognised).

    Only the bytes past the index's last element are cleared: hnswlib clears
    an element's own bytes when it is added, and never reads past the last
    one. A header of another layout is left alone and counted, so a Chroma
    that changed its format is reported instead of damaged.
    """
    cleared = unrecognised = 0
    for header in sorted(chroma.glob("*/header.bin")):
        raw = header.read_bytes()
        if len(raw) < _HNSW_HEADER.size:
            unrecognised += 1
            continue
        version, _, capacity, count, size = _HNSW_HEADER.unpack_from(raw)
        level0 = header.parent / "data_level0.bin"
        if (
            version != _HNSW_VERSION
            or not 0 <= count <= capacity
            or not level0.is_file()
            or level0.stat().st_size > capacity * size
        ):
            unrecognised += 1
            continue
        _zero_from(level0, count * size)
        _zero_from(header.parent / "length.bin", count * 4)
        cleared += 1
    return cleared, unrecognised


def _zero_from(path: Path, offset: int) -> None:
    if not path.is_file():
        return
    end = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(offset)
        while f.tell() < end:
            f.write(bytes(min(1 << 20, end - f.tell())))


def files_holding(folder: Path, text: str) -> list[Path]:
    """Every file under `folder` whose bytes contain `text` (UTF-8), sorted."""
    needle = text.encode("utf-8")
    return sorted(
        path
        for path in Path(folder).rglob("*")
        if path.is_file() and needle in path.read_bytes()
    )
