"""A text is embedded once, and a kept vector is the fresh one, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from memory_lab.embeddings import CachingEmbedder, MiniLMEmbedder, default_embedder
from memory_lab.vector_cache import VectorFile, text_key


class Counting:
    """The real model, counting the texts it is asked to embed."""

    def __init__(self, model: MiniLMEmbedder) -> None:
        self.model = model
        self.name, self.dim = model.name, model.dim
        self.asked: list[str] = []

    def embed(self, texts):
        self.asked += list(texts)
        return self.model.embed(texts)


@pytest.fixture(scope="module")
def model() -> MiniLMEmbedder:
    return default_embedder().inner


def test_a_text_is_embedded_once_and_callers_get_their_own_rows(model) -> None:
    inner = Counting(model)
    cache = CachingEmbedder(inner, memory_size=3)
    question = "what did Melanie paint after the camping trip?"
    first = cache.embed([question, question, "a second text"])
    assert inner.asked == [question, "a second text"]
    again = cache.embed([question])
    assert np.array_equal(again[0], first[0]) and np.array_equal(first[0], first[1])
    again[0, 0] = 42.0  # a caller's edit must not reach the next caller
    assert cache.embed([question])[0, 0] == first[0, 0]
    cache.embed(["filler one", "filler two", "filler three"])
    cache.embed([question])
    assert inner.asked.count(question) == 2  # evicted by three newer texts
    assert cache.computed == len(inner.asked)


def test_a_vector_does_not_depend_on_the_texts_beside_it(model) -> None:
    texts = [
        "ok",
        "I finally went to the pottery class I kept talking about last spring, "
        "and the teacher let me keep the lopsided bowl I made on the wheel.",
        "We moved to Lisbon in March.",
    ]
    together = model.embed(texts)
    for row, text in enumerate(texts):
        assert np.array_equal(model.embed([text])[0], together[row])
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    # The tokenizer file pads to 128 tokens; a short turn then cost three times
    # its own length's work, with the same vector.
    assert model._tok.padding is None


def test_the_file_serves_a_new_process_and_keeps_no_text(model, tmp_path) -> None:
    path = tmp_path / "vectors.sqlite"
    secret = "my locker code is 4417 and nobody else knows it"
    texts = [secret, "the weather was grey all week"]
    writer = CachingEmbedder(Counting(model))
    writer.keep_on_disk(path)
    made = writer.embed(texts)
    reader_inner = Counting(model)
    reader = CachingEmbedder(reader_inner)  # empty memory, as a new process has
    reader.keep_on_disk(path)
    assert np.array_equal(reader.embed(list(reversed(texts))), made[::-1])
    assert reader_inner.asked == []
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"locker" not in stored and b"4417" not in stored
    assert set(VectorFile(path, model.dim).get([text_key(t) for t in texts])) == {
        text_key(t) for t in texts
    }


def test_a_file_that_is_not_a_database_is_left_alone(model, tmp_path, caplog) -> None:
    path = tmp_path / "vectors.sqlite"
    inner = Counting(model)
    cache = CachingEmbedder(inner)
    cache.keep_on_disk(path)
    path.write_bytes(b"this is not an SQLite database" * 100)
    vectors = cache.embed(["still embedded"])
    assert inner.asked == ["still embedded"]
    assert np.array_equal(vectors[0], model.embed(["still embedded"])[0])
    assert cache.disk is None
    assert "vector cache" in caplog.text and "left alone" in caplog.text


def test_a_folder_that_cannot_hold_the_file_is_left_alone(model, tmp_path, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    cache = CachingEmbedder(Counting(model))
    cache.keep_on_disk(blocker / "vectors.sqlite")
    assert cache.disk is None and "left alone" in caplog.text
    assert cache.embed(["still embedded"]).shape == (1, model.dim)
