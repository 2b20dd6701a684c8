"""The worker embeds, after its drain, what the next question would embed."""

from __future__ import annotations

from memory_lab import ManualClock, MemoryEngine
from memory_lab.embeddings import CachingEmbedder
from memory_lab.jobs.worker import MemoryWorker
from tests.helpers import T0, msg
from tests.unit.test_turn_index import CountingEmbedder as WordEmbedder


class CountingEmbedder(WordEmbedder):
    """The turn index's word vectors, named and sized as a store needs."""

    name, dim = "counting-words", 6


SAID = [
    "My name is Ana and I live in Porto.",
    "I work as a nurse at the city hospital.",
    "We talked about the parrot and its cage.",
    "I prefer green tea to coffee in the morning.",
    "The train to Lisbon leaves at nine.",
    "My budget for the flight is 300 euros.",
]


def _engine(tmp_path) -> tuple[MemoryEngine, CachingEmbedder]:
    embedder = CachingEmbedder(CountingEmbedder())
    engine = MemoryEngine(tmp_path / "data", clock=ManualClock(T0), embedder=embedder)
    return engine, embedder


def _talk(engine: MemoryEngine, turns: int) -> None:
    for i in range(turns):
        engine.ingest("t1", [msg(i, SAID[i % len(SAID)], minutes=i)])


def test_a_question_after_flush_embeds_nothing_but_itself(tmp_path):
    engine, embedder = _engine(tmp_path)
    with engine:
        for turns in (7, 19):  # a second batch: new turns and facts since a question
            _talk(engine, turns)
            assert engine.flush(timeout=60)
            question = f"What did we say about the train? ({turns})"
            embedder.embed([question])
            made = embedder.computed
            bundle = engine.assemble("t1", question)
            assert bundle.total_tokens > 0
            assert embedder.computed == made


def test_without_the_warm_up_the_question_embeds_the_new_turns(tmp_path, monkeypatch):
    """The check above can fail: unwarmed, the first question pays for the turns."""
    monkeypatch.setattr(MemoryEngine, "_warm_turn_vectors", lambda self: None)
    engine, embedder = _engine(tmp_path)
    with engine:
        _talk(engine, 7)
        assert engine.flush(timeout=60)
        question = "What did we say about the train?"
        embedder.embed([question])
        made = embedder.computed
        engine.assemble("t1", question)
        assert embedder.computed > made


def test_a_failing_warm_up_leaves_the_worker_running(tmp_path, caplog):
    from memory_lab.jobs.ledger import JobLedger

    calls: list[int] = []

    def broken() -> None:
        calls.append(1)
        raise RuntimeError("embedder gone")

    worker = MemoryWorker(
        JobLedger(tmp_path / "ledger.sqlite3"), lambda job: [], after_drain=broken
    )
    try:
        assert worker.flush(timeout=10)
        assert worker.flush(timeout=10)  # still serving after the failure
    finally:
        worker.stop()
    assert len(calls) >= 2
    assert "preparing reads after a drain failed" in caplog.text


def test_a_recipe_without_turn_ranking_warms_nothing_for_it(tmp_path, monkeypatch):
    from memory_lab import MemoryConfig
    from memory_lab.episodes.turn_index import TurnIndex

    warmed: list[str] = []
    monkeypatch.setattr(TurnIndex, "warm", lambda self, *a: warmed.append("turns"))
    monkeypatch.setattr(TurnIndex, "warm_facts", lambda self, f: warmed.append("facts"))
    config = MemoryConfig()
    for expand_turns in (False, True):
        retrieval = config.retrieval.model_copy(update={"expand_turns": expand_turns})
        engine = MemoryEngine(
            tmp_path / f"data-{expand_turns}",
            config=config.model_copy(update={"retrieval": retrieval}),
            clock=ManualClock(T0),
            embedder=CachingEmbedder(CountingEmbedder()),
        )
        with engine:
            _talk(engine, 3)
            assert engine.flush(timeout=60)
        assert bool(warmed) is expand_turns
