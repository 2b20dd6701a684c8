"""One SQLite file that several threads and processes share as a cache.

The LLM response cache and the vector cache keep what costs time to make again
in a file under the user's cache folder, read and written by every worker of a
run at once. WAL lets readers run beside the writer, each operation opens its
own short-lived connection (so none crosses a thread or a fork), and a busy
timeout absorbs brief write locks.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path


class CacheFile:
    """A SQLite file with `schema`, its folder made, in WAL mode."""

    def __init__(self, path: Path, schema: str, busy_timeout_s: float = 30.0):
        self.path = path
        self.busy_timeout_s = busy_timeout_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connection() as db:
            # WAL is a property of the file, so setting it once is enough.
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(schema)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.path)!r})"

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=self.busy_timeout_s)) as db:
            # NORMAL is durable enough for a cache under WAL and avoids an fsync
            # per write; a lost last entry only costs making it again.
            db.execute("PRAGMA synchronous=NORMAL")
            with db:
                yield db
