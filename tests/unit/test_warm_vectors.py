"""The worker embeds, after its drain, what the next question would embed."""

from __future__ import annotations

import threading

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.embeddings import CachingEmbedder
from memory_lab.jobs.worker import MemoryWorker
from memory_lab.memory_work import MemoryWork
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
    # Two sentences: each is embedded on its own too (`episodes.sentences`).
    "The train to Lisbon leaves at nine. I booked a window seat on it.",
    "My budget for the flight is 300 euros.",
]


def _engine(tmp_path) -> tuple[MemoryEngine, CachingEmbedder]:
    embedder = CachingEmbedder(CountingEmbedder())
    engine = MemoryEngine(tmp_path / "data", clock=ManualClock(T0), embedder=embedder)
    return engine, embedder


def _talk(engine: MemoryEngine, turns: int) -> None:
    for i in range(turns):
        engine.ingest("t1", [msg(i, SAID[i % len(SAID)], minutes=i)])


@pytest.mark.slow
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
    monkeypatch.setattr(MemoryWork, "warm_turn_vectors", lambda self: None)
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
    monkeypatch.setattr(
        TurnIndex, "warm_index", lambda self, *a: warmed.append("turns") or []
    )
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


class _OwnedLock:
    """A lock that says which thread holds it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.owner: int | None = None

    def __enter__(self) -> _OwnedLock:
        self._lock.acquire()
        self.owner = threading.get_ident()
        return self

    def __exit__(self, *exc: object) -> None:
        self.owner = None
        self._lock.release()


def test_the_warm_up_reads_the_stores_in_a_questions_lock_order(tmp_path):
    """Holding the index's lock, the worker reads the stores only inside a read.

    A question holds the stores' read, then takes the index's lock; a warm-up
    that took the lock first and then waited for the stores deadlocked with it.
    """
    engine, _ = _engine(tmp_path)
    with engine:
        _talk(engine, 7)
        assert engine.flush(timeout=60)
        index = engine.deps.excerpts
        index._lock = lock = _OwnedLock()
        database = engine.jobs.db._lock
        reads: list[tuple[str, bool]] = []
        revision = engine.episodes.revision

        def watched_revision(tenant: str) -> int:
            if lock.owner == threading.get_ident():
                reads.append((threading.current_thread().name, database._is_owned()))
            return revision(tenant)

        engine.episodes.revision = watched_revision
        index.drop("t1")  # the next warm-up loads the index from the stores
        _talk(engine, 9)
        assert engine.flush(timeout=60)
        engine.assemble("t1", "What did we say about the train?")
    by_worker = [held for name, held in reads if name == "memory-worker"]
    assert by_worker, "the warm-up never loaded the index"
    assert all(held for _, held in reads), reads


def test_the_warm_up_waits_while_work_keeps_coming(tmp_path):
    """After a drain during which more work was asked comes a drain, not a warm-up."""
    from memory_lab.jobs.ledger import JobLedger

    ledger = JobLedger(tmp_path / "ledger.sqlite3")
    ledger.add_jobs("t1", "main", [("compress", 0, 3, "A")], T0)
    order: list[str] = []
    worker: MemoryWorker | None = None
    started = threading.Event()

    def run(job) -> list:
        started.wait(10)
        order.append("job")
        assert worker is not None
        worker.notify()  # a turn arrived while the job ran
        ledger.finish(job)
        return []

    worker = MemoryWorker(
        ledger, run, after_drain=lambda: order.append("warm"), poll_s=600
    )
    started.set()
    try:
        assert worker.flush(timeout=30)
    finally:
        worker.stop()
    assert order == ["job", "warm"]
