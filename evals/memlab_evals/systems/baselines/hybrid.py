"""`rag-hybrid`: raw-turn retrieval fusing BM25 and embeddings, the strongest baseline.

BM25 finds names, numbers and rare words that embeddings blur; embeddings find
paraphrases that share no word with the question. Reciprocal rank fusion keeps what
each ranker is sure of without putting their scores on one scale. A memory recipe
has to beat this at the same budget to show that memory, not retrieval, helps.
"""

from __future__ import annotations

from memlab_evals.systems.baselines.base import RankedBaseline, baseline
from memlab_evals.systems.baselines.bm25 import BM25Retrieval
from memlab_evals.systems.baselines.embed import EmbeddingRetrieval
from memory_lab.fusion import fuse_ranks
from memory_lab.tokens import TokenCounter
from memory_lab.types import Message


@baseline(
    "rag-hybrid",
    "BM25 and embedding ranks of raw turns fused by reciprocal rank, best first, "
    "to the budget",
    retrieval=True,
    order=50,
)
class HybridRetrieval(RankedBaseline):
    """Turns ranked by the reciprocal rank fusion of BM25 and cosine, to the budget.

    The two rankers keep their own copies of the turns; this one only fuses their
    rankings, so each ranker stays exactly the baseline it is named after.
    """

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        super().__init__(budget, counter)
        self._bm25 = BM25Retrieval(budget, counter)
        self._embed = EmbeddingRetrieval(budget, counter)

    def ingest(self, msg: Message) -> None:
        """Keep the turn and hand it to both rankers."""
        super().ingest(msg)
        self._bm25.ingest(msg)
        self._embed.ingest(msg)

    def ranked(self, question: str) -> list[int]:
        """Indices of every turn, best fused rank first, ties newer."""
        fused = fuse_ranks([self._bm25.ranked(question), self._embed.ranked(question)])
        return sorted(fused, key=lambda i: (-fused[i], -i))
