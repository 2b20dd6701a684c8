"""Stage 2 retrieval: episodes by meaning, re-ranked with the query's exact words.

Dense embeddings find paraphrases; names, numbers and rare words are where they
are weakest, so a small lexical term breaks near-ties in favour of episodes that
share the question's content words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rank_bm25 import BM25Okapi

from memory_lab.assembly import content_words
from memory_lab.config import RetrievalConfig
from memory_lab.stores.base import EpisodeStore, TranscriptStore
from memory_lab.types import Episode, Message

LEXICAL_WEIGHT = 0.35
"""Weight of the lexical overlap share against cosine similarity (0..1 each)."""


def search_episodes(
    store: EpisodeStore, tenant: str, query: str, config: RetrievalConfig
) -> list[tuple[Episode, float]]:
    """Top episodes for `query`, best first; the distance returned is the cosine one."""
    if not query.strip() or store.count(tenant) == 0:
        return []
    hits = store.search(tenant, query, top_k=config.top_k * 3, max_distance=config.max_distance)
    words = content_words(query)

    def score(hit: tuple[Episode, float]) -> tuple[float, str]:
        ep, dist = hit
        text_words = content_words(ep.render() + " " + " ".join(ep.key_facts))
        overlap = len(words & text_words) / len(words) if words else 0.0
        return (-((1 - dist / 2) + LEXICAL_WEIGHT * overlap), ep.id)

    return sorted(hits, key=score)[: config.top_k]


def _terms(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w in content_words(w)]


def expand_episodes(
    transcript: TranscriptStore,
    tenant: str,
    query: str,
    hits: Sequence[tuple[Episode, float]],
) -> list[tuple[Message, float]]:
    """Source turns of the retrieved episodes that share words with the query, best first.

    Summaries keep the gist; the exact name, date or number a question asks for is
    often in one turn the summary dropped. The episodes found by meaning bound the
    search, and BM25 over their turns picks the excerpts.
    """
    turns: list[Message] = []
    for ep, _ in hits:
        turns.extend(transcript.messages(tenant, ep.thread, first_seq=ep.first_seq, last_seq=ep.last_seq))
    query_terms = _terms(query)
    if not turns or not query_terms:
        return []
    corpus = [_terms(m.content) or ["_"] for m in turns]
    scores = BM25Okapi(corpus).get_scores(query_terms)
    ranked = sorted(zip(turns, scores, strict=True), key=lambda p: (-p[1], p[0].seq))
    return [(m, float(s)) for m, s in ranked if s > 0]
