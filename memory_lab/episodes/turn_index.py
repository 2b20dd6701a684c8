"""Every turn not shown verbatim, searchable by words and by meaning, in one ranking.

The excerpt index (BM25 over compressed turns) finds names and numbers; a turn's
own embedding finds paraphrases; the episode a turn belongs to says what it was
about when the turn alone is too short to tell ("Yes, last Friday!"). Turns still
in the window but not shown verbatim are ranked with the rest, with the window's
recency as a fourth signal: a stored turn is shown, summarised or findable, never
lost. The rankings are fused by reciprocal rank, so no scale is tuned against
another.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from rank_bm25 import BM25Okapi

from memory_lab.context.fusion import RRF_K, fuse_ranks
from memory_lab.embeddings import Embedder
from memory_lab.episodes.excerpts import ExcerptIndex, sorted_terms
from memory_lab.stores.base import EpisodeStore, TranscriptStore
from memory_lab.types import Episode, Message

EPISODE_WEIGHT = 1.0
"""Weight of the episode's rank against the turn's own BM25 and cosine ranks."""


class TurnIndex(ExcerptIndex):
    """The excerpt index plus turn embeddings and the episode ranking, fused.

    Vectors are a cache: compressed turns are embedded when they are indexed (one
    batch per compression), window turns the first time they are searched; the
    transcript stays the truth.
    """

    def __init__(self, embedder: Embedder) -> None:
        super().__init__()
        self.embedder = embedder
        self._matrix: dict[str, np.ndarray] = {}
        self._window_vectors: dict[str, np.ndarray] = {}
        self._pool: dict[str, tuple[tuple[str, ...], BM25Okapi | None]] = {}
        self._vec_lock = threading.Lock()

    def add(self, tenant: str, turns: Sequence[Message]) -> None:
        """Index just-compressed turns and embed them now, so questions stay fast."""
        super().add(tenant, turns)
        if tenant in self._matrix:
            self._indexed_vectors(tenant, self._turns[tenant])

    def _indexed_vectors(self, tenant: str, turns: Sequence[Message]) -> np.ndarray:
        """One row per indexed turn, in order; only the new tail is embedded."""
        with self._vec_lock:
            have = self._matrix.get(tenant, np.zeros((0, 0), dtype=np.float32))
            if len(have) < len(turns):
                tail = list(turns[len(have) :])
                fresh = [self._window_vectors.pop(m.id, None) for m in tail]
                todo = [
                    m.content for m, v in zip(tail, fresh, strict=True) if v is None
                ]
                made = iter(self.embedder.embed(todo) if todo else [])
                rows = np.stack([v if v is not None else next(made) for v in fresh])
                have = rows if len(have) == 0 else np.vstack([have, rows])
                self._matrix[tenant] = have
            return have[: len(turns)]

    def _extra_vectors(self, turns: Sequence[Message]) -> np.ndarray:
        """Window turns are embedded once and kept until they are compressed."""
        with self._vec_lock:
            missing = [m for m in turns if m.id not in self._window_vectors]
            if missing:
                vectors = self.embedder.embed([m.content for m in missing])
                self._window_vectors.update(
                    zip((m.id for m in missing), vectors, strict=True)
                )
            return np.stack([self._window_vectors[m.id] for m in turns])

    def _pool_bm25(
        self, tenant: str, turns: Sequence[Message], extra: Sequence[Message]
    ) -> BM25Okapi | None:
        """BM25 over the indexed turns plus the unshown window turns, cached.

        Rebuilt only when either set changed since the last question.
        """
        key = (str(len(turns)), *(m.id for m in extra))
        cached = self._pool.get(tenant)
        if cached is not None and cached[0] == key:
            return cached[1]
        corpus = list(self._terms[tenant]) + [
            sorted_terms(m.content) or ["_"] for m in extra
        ]
        bm25 = BM25Okapi(corpus) if corpus else None
        self._pool[tenant] = (key, bm25)
        return bm25

    def rank(
        self,
        transcript: TranscriptStore,
        episodes: EpisodeStore,
        tenant: str,
        query: str,
        hits: Sequence[tuple[Episode, float]],
        extra: Sequence[Message] = (),
    ) -> list[tuple[Message, float]]:
        """Compressed and unshown window turns, best fused rank first."""
        if not query.strip():
            return []
        indexed, _ = self._index(transcript, episodes, tenant)
        seen = {m.id for m in indexed}
        pool = list(indexed) + [m for m in extra if m.id not in seen]
        if not pool:
            return []
        with self._lock:
            bm25 = self._pool_bm25(tenant, indexed, pool[len(indexed) :])
        terms = sorted_terms(query)
        lexical: list[int] = []
        if terms and bm25 is not None:
            scores = bm25.get_scores(terms)
            lexical = sorted(
                (i for i in range(len(pool)) if scores[i] > 0),
                key=lambda i: (-float(scores[i]), -pool[i].seq),
            )
        query_vec = self.embedder.embed([query])[0]
        parts = [self._indexed_vectors(tenant, indexed) @ query_vec] if indexed else []
        if len(pool) > len(indexed):
            parts.append(self._extra_vectors(pool[len(indexed) :]) @ query_vec)
        cosines = np.round(np.concatenate(parts), 6)
        dense = sorted(
            range(len(pool)), key=lambda i: (-float(cosines[i]), -pool[i].seq)
        )
        # The window's own order is the fourth signal: among equally relevant
        # turns, the ones just said win, as they would in a plain chat window.
        recent = list(range(len(pool) - 1, len(indexed) - 1, -1))
        fused = fuse_ranks([lexical, dense, recent])
        episode_rank: dict[int, int] = {}
        for rank, (ep, _) in enumerate(hits, start=1):
            for seq in range(ep.first_seq, ep.last_seq + 1):
                episode_rank.setdefault(seq, rank)
        for i, m in enumerate(pool):
            rank = episode_rank.get(m.seq)
            if rank is not None:
                fused[i] = fused.get(i, 0.0) + EPISODE_WEIGHT / (RRF_K + rank)
        order = sorted(fused, key=lambda i: (-fused[i], pool[i].seq))
        return [(pool[i], fused[i]) for i in order]
