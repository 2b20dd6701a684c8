"""A question is embedded once however many tiers search with it."""

from __future__ import annotations

import numpy as np

from memory_lab.embeddings import QUERY_CACHE, default_embedder


def test_a_repeated_single_text_is_embedded_once_and_gives_the_same_vector(
    monkeypatch,
):
    embedder = default_embedder()
    calls: list[list[str]] = []
    real = embedder._embed_batch

    def counting(texts):
        calls.append(list(texts))
        return real(texts)

    monkeypatch.setattr(embedder, "_embed_batch", counting)
    question = "what did Melanie paint after the camping trip? (cache test)"
    first = embedder.embed([question])
    second = embedder.embed([question])
    assert np.array_equal(first, second)
    assert calls == [[question]]
    second[0, 0] = 42.0  # a caller's edit must not reach the next caller
    assert embedder.embed([question])[0, 0] == first[0, 0]
    for i in range(QUERY_CACHE):
        embedder.embed([f"filler question {i}"])
    embedder.embed([question])
    assert calls.count([question]) == 2  # evicted after QUERY_CACHE newer texts
