"""Vectors of texts already embedded, kept on disk by a hash of the text.

An eval feeds the same turns to every system it compares: each recipe's turn
index, `rag-embed` and `rag-hybrid` all embed them, and a re-run embeds them all
again. Keyed by a hash of the text, a vector is made once per machine and every
later asker reads it. This is exact, not approximate: the embedder makes each
text's vector alone (`MiniLMEmbedder.embed`), so a kept vector is the one a fresh
call would make, bit for bit, and no result depends on what was kept.

The file keeps hashes and vectors, never the texts. It is still derived from
what was said, so the library keeps vectors in memory only unless told a file
(`embeddings.CachingEmbedder.keep_on_disk`); the evals, whose datasets are
public, use `default_vector_path()`. Several processes share one file the way
the response cache does: WAL, a short-lived connection per operation, a busy
timeout. Its SQL stays here, not under `stores/`, for the same reason: the file
is a cache of its own, always SQLite, that no memory store reads or migrates.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memory_lab.cache_file import CacheFile

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    key BLOB PRIMARY KEY,
    vector BLOB NOT NULL
) WITHOUT ROWID
"""
_CHUNK = 500  # under SQLite's bound-parameter limit


DEFAULT_MODEL = "all-MiniLM-L6-v2-int8"
"""The default embedder's name (`embeddings.MiniLMEmbedder.name` reads it here)."""


def default_vector_path(model: str | None = None) -> Path:
    """`$XDG_CACHE_HOME/memory-lab/vectors-<model>.sqlite`, or under `~/.cache`.

    `model` defaults to the default embedder's name.

    One file per model, so a key never has to name its model, and shared by every
    checkout on the machine, which is what makes a re-run's embeddings free.
    """
    if model is None:
        model = DEFAULT_MODEL
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", model)
    return Path(root) / "memory-lab" / f"vectors-{safe}.sqlite"


def text_key(text: str) -> bytes:
    """16 bytes of BLAKE2b over the text: the key, so no text is written."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class VectorFile(CacheFile):
    """Vectors of one model in one SQLite file, keyed by `text_key`."""

    def __init__(self, path: str | Path, dim: int, busy_timeout_s: float = 30.0):
        super().__init__(Path(path), _SCHEMA, busy_timeout_s)
        self.dim = dim

    def get(self, keys: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        """The kept vectors among `keys`; a row of the wrong length is ignored."""
        found: dict[bytes, np.ndarray] = {}
        with self._connection() as db:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk
                )
                for key, blob in rows:
                    vector = np.frombuffer(blob, dtype=np.float32)
                    if vector.shape == (self.dim,):
                        found[key] = vector
        return found

    def count(self) -> int:
        """How many vectors the file holds."""
        with self._connection() as db:
            return int(db.execute("SELECT count(*) FROM vectors").fetchone()[0])

    def put(self, items: dict[bytes, np.ndarray]) -> None:
        """Keep these vectors; a key already kept keeps its first vector."""
        rows = [
            (k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()
        ]
        with self._connection() as db:
            db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?)", rows)
