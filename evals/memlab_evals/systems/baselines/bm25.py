"""`rag-bm25`: BM25 over raw turns, best first, up to the budget."""

from __future__ import annotations

import re

from memlab_evals.systems.baselines.base import RankedBaseline, baseline
from memory_lab.tokens import TokenCounter

_WORD = re.compile(r"\w+", re.UNICODE)


def bm25_tokens(text: str) -> list[str]:
    """Lower-cased word tokens: the same for turns and questions."""
    return _WORD.findall(text.lower())


@baseline(
    "rag-bm25",
    "BM25 over raw turns, best first, to the budget",
    retrieval=True,
    order=30,
)
class BM25Retrieval(RankedBaseline):
    """Only turns sharing a term with the question (score above zero) are candidates.

    Padding the budget with unrelated turns would credit the baseline with luck.
    """

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        from memory_lab.episodes.bm25 import Bm25Index

        super().__init__(budget, counter)
        self._index = Bm25Index()

    def ranked(self, question: str) -> list[int]:
        """Turns sharing a term with the question by BM25 score, ties newer first."""
        if not self.turns:
            return []
        # The turns that arrived since the last question extend the inverted
        # index; its scores are BM25Okapi's (rank_bm25), bit for bit.
        new = self.turns[len(self._index) :]
        self._index.add([bm25_tokens(m.content) or [""] for m in new])
        scores = self._index.view().get_scores(bm25_tokens(question))
        return sorted(
            (i for i in range(len(self.turns)) if scores[i] > 0),
            key=lambda i: (-float(scores[i]), -i),
        )
