"""`rag-embed`: cosine over MiniLM turn embeddings, best first, to the budget."""

from __future__ import annotations

import numpy as np

from memlab_evals.systems.baselines.base import RankedBaseline, baseline
from memory_lab.tokens import TokenCounter
from memory_lab.types import Message


@baseline(
    "rag-embed",
    "cosine over MiniLM embeddings of raw turns, best first, to the budget",
    retrieval=True,
    order=40,
)
class EmbeddingRetrieval(RankedBaseline):
    """Every turn is a candidate, ranked by similarity to the question."""

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        from memory_lab.embeddings import default_embedder

        super().__init__(budget, counter)
        self.embedder = default_embedder()
        self._vectors: list[np.ndarray] = []

    def ingest(self, msg: Message) -> None:
        """Embed at ingest, as a vector store would, so its cost lands there."""
        super().ingest(msg)
        self._vectors.append(self.embedder.embed([msg.content])[0])

    def ranked(self, question: str) -> list[int]:
        """Indices of every turn, most similar to the question first, ties newer."""
        if not self.turns:
            return []
        query = self.embedder.embed([question])[0]
        # Unit vectors: the dot product is the cosine. Rounding keeps ties (and so
        # the order) stable across processes and BLAS thread counts.
        scores = np.round(np.stack(self._vectors) @ query, 6)
        return sorted(range(len(self.turns)), key=lambda i: (-float(scores[i]), -i))
