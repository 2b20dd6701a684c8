"""A persistent cache of chat completions in one SQLite file.

Evals replay the same prompts many times (re-runs, sweeps, re-scoring), and every
call to a model costs time or money; with the exact request as key, a repeated run
sends nothing. Several threads and processes share one file: WAL lets readers run
beside the writer, each operation opens its own short-lived connection (so no
connection crosses a thread or a fork), and a busy timeout absorbs brief write locks.
Its SQL stays here, not under `stores/`: the file is a cache of its own, always
SQLite, that no memory store reads or migrates.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_lab.cache_file import CacheFile

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    created_at TEXT NOT NULL
)
"""


def default_cache_path() -> Path:
    """`$XDG_CACHE_HOME/memory-lab/llm-cache.sqlite`, or under `~/.cache`.

    The XDG location keeps the cache out of the repository and shared by every
    checkout on the machine, which is what makes re-runs free.
    """
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "memory-lab" / "llm-cache.sqlite"


def request_key(base_url: str, body: Mapping[str, Any]) -> str:
    """sha256 of the endpoint and the whole request, canonicalised.

    Sorting keys and fixing separators makes two equal requests hash alike however
    their dicts were built. The endpoint is part of the key because the same model
    name on two servers can be two different models. The API key is not: it does not
    change the answer and must never be written to disk.
    """
    canonical = json.dumps(
        {"base_url": base_url.rstrip("/"), "request": body},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache(CacheFile):
    """Completion records keyed by `request_key`; safe across threads and processes.

    Args:
        path: The SQLite file; its folder is created. Defaults to
            `default_cache_path()`.
        busy_timeout_s: How long a write waits for another writer's lock.
    """

    def __init__(self, path: str | Path | None = None, busy_timeout_s: float = 30.0):
        super().__init__(
            Path(path) if path is not None else default_cache_path(),
            _SCHEMA,
            busy_timeout_s,
        )

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored record for `key`, or None."""
        with self._connection() as db:
            row = db.execute(
                "SELECT record FROM responses WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, record: Mapping[str, Any]) -> None:
        """Store `record` (JSON-serialisable) under `key`, replacing any older one."""
        stamp = datetime.now(UTC).isoformat()
        with self._connection() as db:
            db.execute(
                "INSERT OR REPLACE INTO responses (key, record, created_at) "
                "VALUES (?, ?, ?)",
                (key, json.dumps(record, ensure_ascii=False), stamp),
            )

    def __len__(self) -> int:
        with self._connection() as db:
            return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def clear(self) -> None:
        """Forget every stored completion."""
        with self._connection() as db:
            db.execute("DELETE FROM responses")

    def delete_older_than(self, cutoff: datetime) -> int:
        """Delete every record stored before `cutoff`, leaving no copy in the file.

        For retention; removed as `delete_matching` removes. Returns how many.
        """
        with closing(sqlite3.connect(self.path, timeout=self.busy_timeout_s)) as db:
            stamps = db.execute("SELECT key, created_at FROM responses").fetchall()
        old = {key for key, stamp in stamps if datetime.fromisoformat(stamp) < cutoff}
        return self.delete_matching_keys(old)

    def delete_matching(self, match: Callable[[dict[str, Any]], bool]) -> int:
        """Delete every record `match` accepts, leaving no copy in the file.

        For a purge: the freed bytes are overwritten (`secure_delete`) and the
        WAL is copied back and emptied, so the text is gone from the disk, not
        only from reads. Requests are stored as their hash alone, so a record is
        recognised by its response. Returns how many were deleted.

        Raises:
            sqlite3.OperationalError: when other readers kept the WAL from being
                emptied for several seconds; calling again finishes the job.
        """
        with closing(sqlite3.connect(self.path, timeout=self.busy_timeout_s)) as db:
            rows = db.execute("SELECT key, record FROM responses").fetchall()
        return self.delete_matching_keys(
            {key for key, record in rows if match(json.loads(record))}
        )

    def delete_matching_keys(self, keys: set[str]) -> int:
        """Delete these records with `secure_delete`, then empty the WAL; how many."""
        with closing(sqlite3.connect(self.path, timeout=self.busy_timeout_s)) as db:
            db.execute("PRAGMA secure_delete = ON")
            with db:
                db.executemany(
                    "DELETE FROM responses WHERE key = ?", [(k,) for k in keys]
                )
            for _ in range(50):
                if not db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]:
                    return len(keys)
                time.sleep(0.1)
        raise sqlite3.OperationalError(f"{self.path}: the WAL stayed in use")
