"""Episode search: episodes by meaning, re-ranked with the query's exact words.

Dense embeddings find paraphrases; names, numbers and rare words are where they
are weakest, so a small lexical term (`RetrievalConfig.lexical_weight`) breaks
near-ties in favour of episodes that share the question's content words.
"""

from __future__ import annotations

from memory_lab.config import RetrievalConfig
from memory_lab.stores.base import EpisodeStore
from memory_lab.text import content_words, stored_content_words
from memory_lab.types import Episode


def search_episodes(
    store: EpisodeStore, tenant: str, query: str, config: RetrievalConfig
) -> list[tuple[Episode, float]]:
    """Top episodes for `query`, best first; the distance returned is the cosine one."""
    if not query.strip():
        return []
    hits = store.search(
        tenant, query, top_k=config.top_k * 3, max_distance=config.max_distance
    )
    words = content_words(query)

    def score(hit: tuple[Episode, float]) -> tuple[float, str]:
        ep, dist = hit
        text_words = stored_content_words(ep.render() + " " + " ".join(ep.key_facts))
        overlap = len(words & text_words) / len(words) if words else 0.0
        return (-((1 - dist / 2) + config.lexical_weight * overlap), ep.id)

    return sorted(hits, key=score)[: config.top_k]
