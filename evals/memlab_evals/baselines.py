"""Baselines that keep raw turns: the whole history, a recent window, retrieval.

They are what a memory recipe is compared against; none summarises or extracts.
"""

from __future__ import annotations

import re

import numpy as np

from memlab_evals.system_types import Context, KeepsNoMemory
from memory_lab.text import truncate_to_tokens, turn_line
from memory_lab.tokens import TokenCounter
from memory_lab.types import Message


class _TurnBaseline(KeepsNoMemory):
    """Shared bookkeeping of baselines that keep raw turns."""

    def __init__(self, name: str, budget: int | None, counter: TokenCounter) -> None:
        self.name = name
        self.budget = budget
        self.counter = counter
        self.turns: list[Message] = []
        self.lines: list[str] = []
        self.costs: list[int] = []

    def ingest(self, msg: Message) -> None:
        """Keep the turn and its rendered cost (counted once, not per question)."""
        line = turn_line(msg)
        self.turns.append(msg)
        self.lines.append(line)
        self.costs.append(self.counter.count(line))

    def stored_tokens(self) -> int:
        """Every raw turn: retrieval over turns has to keep them all."""
        return sum(self.costs)

    def close(self) -> None:
        """Nothing to release."""

    def _render(self, chosen: list[int]) -> Context:
        """Chosen turns in chronological order, trimmed until the budget holds.

        The greedy fill estimates one token per joining newline; the exact count of
        the joined text is the judge, and the lowest-ranked line goes first.
        """
        order = list(chosen)
        while True:
            ordered = sorted(order)
            text = "\n".join(self.lines[i] for i in ordered)
            tokens = self.counter.count(text)
            if self.budget is None or tokens <= self.budget or not order:
                return Context(text, tokens, [self.turns[i].id for i in ordered])
            order.pop()

    def _fill(self, ranked: list[int]) -> list[int]:
        """Take turns in rank order while they fit; skip the ones that do not."""
        assert self.budget is not None
        taken: list[int] = []
        used = 0
        for i in ranked:
            cost = self.costs[i] + (1 if taken else 0)
            if used + cost <= self.budget:
                taken.append(i)
                used += cost
        return taken


class FullHistory(_TurnBaseline):
    """`full`: every turn so far, no budget; the ceiling on recall and on cost."""

    def __init__(self, counter: TokenCounter) -> None:
        super().__init__("full", None, counter)

    def context(self, question: str) -> Context:
        """The whole history."""
        return self._render(list(range(len(self.turns))))


class RecentWindow(_TurnBaseline):
    """`window`: the last turns that fit the budget, as a chat app without memory."""

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        super().__init__("window", budget, counter)

    def _held(self) -> list[int]:
        taken: list[int] = []
        used = 0
        for i in range(len(self.turns) - 1, -1, -1):
            cost = self.costs[i] + (1 if taken else 0)
            if used + cost > (self.budget or 0):
                break
            taken.append(i)
            used += cost
        return taken

    def context(self, question: str) -> Context:
        """The newest turns, oldest first; a newest turn too long alone is cut."""
        held = self._held()
        if held or not self.turns:
            return self._render(held)
        assert self.budget is not None
        text = _truncate(self.counter, self.lines[-1], self.budget)
        tokens = self.counter.count(text)
        return Context(text, tokens, [self.turns[-1].id] if text else [])

    def stored_tokens(self) -> int:
        """Only what the window holds: older turns are gone for good."""
        held = self._held()
        return sum(self.costs[i] for i in held)


def _truncate(counter: TokenCounter, text: str, budget: int) -> str:
    """The longest prefix of `text` within `budget` tokens."""
    cut = getattr(counter, "truncate", None)
    if cut is not None:
        return cut(text, budget)
    return truncate_to_tokens(text, budget, counter)


_WORD = re.compile(r"\w+", re.UNICODE)


def bm25_tokens(text: str) -> list[str]:
    """Lower-cased word tokens: the same for turns and questions."""
    return _WORD.findall(text.lower())


class BM25Retrieval(_TurnBaseline):
    """`rag-bm25`: BM25 over raw turns, best first, up to the budget.

    Only turns sharing a term with the question (score above zero) are candidates:
    padding the budget with unrelated turns would credit the baseline with luck.
    """

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        from memory_lab.episodes.bm25 import Bm25Index

        super().__init__("rag-bm25", budget, counter)
        self._index = Bm25Index()

    def context(self, question: str) -> Context:
        """Top turns by BM25 score (ties: newer first), in chronological order."""
        if not self.turns:
            return Context("", 0, [])
        return self._render(self._fill(self.ranked(question)))

    def ranked(self, question: str) -> list[int]:
        """Indices of the turns sharing a term with the question, best first."""
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


class EmbeddingRetrieval(_TurnBaseline):
    """`rag-embed`: cosine over MiniLM turn embeddings, best first, to the budget."""

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        from memory_lab.embeddings import default_embedder

        super().__init__("rag-embed", budget, counter)
        self.embedder = default_embedder()
        self._vectors: list[np.ndarray] = []

    def ingest(self, msg: Message) -> None:
        """Embed at ingest, as a vector store would, so its cost lands there."""
        super().ingest(msg)
        self._vectors.append(self.embedder.embed([msg.content])[0])

    def context(self, question: str) -> Context:
        """Top turns by cosine similarity (ties: newer first), chronological."""
        if not self.turns:
            return Context("", 0, [])
        return self._render(self._fill(self.ranked(question)))

    def ranked(self, question: str) -> list[int]:
        """Indices of every turn, most similar to the question first."""
        if not self.turns:
            return []
        query = self.embedder.embed([question])[0]
        # Unit vectors: the dot product is the cosine. Rounding keeps ties (and so
        # the order) stable across processes and BLAS thread counts.
        scores = np.round(np.stack(self._vectors) @ query, 6)
        return sorted(range(len(self.turns)), key=lambda i: (-float(scores[i]), -i))


class NoMemory(_TurnBaseline):
    """`none`: an empty context; the floor every memory must beat."""

    def __init__(self, counter: TokenCounter) -> None:
        super().__init__("none", 0, counter)

    def ingest(self, msg: Message) -> None:
        """Forget the turn."""

    def context(self, question: str) -> Context:
        """Nothing."""
        return Context("", 0, [])
