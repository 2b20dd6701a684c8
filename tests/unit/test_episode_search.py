"""Episode search (meaning plus the query's words) and the excerpt index."""

from __future__ import annotations

import numpy as np

from memory_lab.config import RetrievalConfig
from memory_lab.episodes.excerpts import ExcerptIndex, sorted_terms
from memory_lab.episodes.search import search_episodes
from memory_lab.stores.memory import InMemoryEpisodeStore, InMemoryTranscriptStore
from memory_lab.types import Episode
from tests.helpers import T0, msg


class FlatEmbedder:
    """Every text gets the same vector: only the lexical term can rank."""

    name, dim = "flat", 4

    def embed(self, texts):
        return np.tile(np.array([1.0, 0, 0, 0], dtype=np.float32), (len(texts), 1))


def episode(i: int, summary: str, first: int, last: int) -> Episode:
    return Episode(
        id=f"ep{i}",
        tenant="t1",
        session="s1",
        thread="main",
        first_seq=first,
        last_seq=last,
        turn_ids=[f"m{s}" for s in range(first, last + 1)],
        start=T0,
        end=T0,
        original_message_count=last - first + 1,
        original_tokens=100,
        summary_tokens=10,
        summary=summary,
        created_at=T0,
        brain="test",
    )


def test_the_lexical_term_breaks_ties_between_equally_close_episodes():
    store = InMemoryEpisodeStore(FlatEmbedder())
    store.add(
        "t1",
        [
            episode(0, "We talked about the weather.", 0, 1),
            episode(1, "The user adopted a cat named Miso.", 2, 3),
        ],
    )
    hits = search_episodes(store, "t1", "What is the cat called?", RetrievalConfig())
    assert [ep.id for ep, _ in hits] == ["ep1", "ep0"]
    flat = RetrievalConfig(lexical_weight=0.0)
    hits = search_episodes(store, "t1", "What is the cat called?", flat)
    assert [ep.id for ep, _ in hits] == ["ep0", "ep1"]  # ties fall back to id


def test_search_of_an_empty_query_finds_nothing_and_top_k_holds():
    store = InMemoryEpisodeStore(FlatEmbedder())
    store.add("t1", [episode(i, f"note {i}", i, i) for i in range(5)])
    assert search_episodes(store, "t1", "   ", RetrievalConfig()) == []
    assert len(search_episodes(store, "t1", "note", RetrievalConfig(top_k=2))) == 2


def test_sorted_terms_keep_order_and_repeats_but_drop_stop_words():
    assert sorted_terms("The cat and the cat sat") == ["cat", "cat", "sat"]


def test_excerpts_rank_exact_words_and_favour_turns_of_found_episodes():
    transcript = InMemoryTranscriptStore()
    turns = transcript.append(
        "t1",
        "main",
        [
            msg(0, "My cat Miso likes tuna."),
            msg(1, "Miso is a good name."),
            msg(2, "It rained all day."),
        ],
    )
    episodes = InMemoryEpisodeStore(FlatEmbedder())
    episodes.add("t1", [episode(0, "pets", 0, 1), episode(1, "weather", 2, 2)])
    index = ExcerptIndex()
    found = index.search(transcript, episodes, "t1", "Miso", [], dense_bonus=0.3)
    assert {m.id for m, _ in found} == {"m0", "m1"}
    hit = [(episode(0, "pets", 1, 1), 0.1)]
    boosted = index.search(transcript, episodes, "t1", "Miso", hit, dense_bonus=5.0)
    assert boosted[0][0].id == "m1"
    assert index.search(transcript, episodes, "t1", "the", [], dense_bonus=0.3) == []
    assert turns[2].seq == 2


def test_excerpt_index_learns_new_turns_once_loaded():
    transcript = InMemoryTranscriptStore()
    episodes = InMemoryEpisodeStore(FlatEmbedder())
    index = ExcerptIndex()
    assert index.search(transcript, episodes, "t1", "kiwi", [], dense_bonus=0.3) == []
    # BM25 needs a few documents before a rare word weighs anything.
    texts = ["I grow kiwi fruit.", "Rain again.", "Lunch at noon."]
    new = transcript.append("t1", "main", [msg(i, t) for i, t in enumerate(texts)])
    index.add("t1", new)
    found = index.search(transcript, episodes, "t1", "kiwi", [], dense_bonus=0.3)
    assert [m.id for m, _ in found] == ["m0"]
