"""The job ledger, the background worker and the turn's hand-over to it."""

import threading

import pytest

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.embeddings import default_embedder
from memory_lab.jobs.ledger import MAX_ATTEMPTS, JobLedger
from memory_lab.recipes import recipe
from memory_lab.stores import SqlTranscriptStore
from memory_lab.stores.sqlite_db import SqliteDatabase
from memory_lab.window.view import one_instant
from tests.helpers import T0, msg

CONFIG = MemoryConfig(
    recipe=recipe("A(a_max_messages=4,a_keep_last=1)")
)


class GatedBrain(RuleBasedBrain):
    """Summarising waits for the test to open the gate; extraction may fail."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.gate = threading.Event()
        self.fail_extract = False

    def summarize(self, messages, *, max_tokens):
        assert self.gate.wait(30), "the test never opened the gate"
        return super().summarize(messages, max_tokens=max_tokens)

    def extract(self, messages, *, known=()):
        if self.fail_extract:
            raise RuntimeError("extraction broke")
        return super().extract(messages, known=known)


def _engine(path=None, brain=None, clock=None):
    return MemoryEngine(
        path,
        config=CONFIG,
        clock=clock or ManualClock(T0),
        brain=brain or RuleBasedBrain(categories=CONFIG.facts),
    )


def _partition_holds(engine, tenant="t1"):
    # One committed instant, as the engine's own reads see it.
    with one_instant(engine.deps):
        stored = {m.id for m in engine.transcript.messages(tenant)}
        window = {m.id for m in engine.window(tenant)}
        in_eps = [t for ep in engine.episodes.get(tenant) for t in ep.turn_ids]
    return (
        len(in_eps) == len(set(in_eps))
        and not window & set(in_eps)
        and window | set(in_eps) == stored
    )


def test_a_turn_returns_before_its_compression_and_the_window_keeps_the_turns():
    brain = GatedBrain(categories=CONFIG.facts)
    engine = _engine(brain=brain)
    steps = [engine.ingest("t1", [msg(i)]) for i in range(4)]
    assert steps[-1].compressed  # the trigger fired on this turn...
    assert engine.pending_jobs("t1") >= 1  # ...and its work is still owed
    assert engine.episodes.count("t1") == 0
    assert [m.id for m in engine.window("t1")] == ["m0", "m1", "m2", "m3"]
    brain.gate.set()
    assert engine.flush(30)
    assert engine.pending_jobs("t1") == 0
    assert [m.id for m in engine.window("t1")] == ["m3"]
    assert [ep.turn_ids for ep in engine.episodes.get("t1")] == [["m0", "m1", "m2"]]
    engine.close()


def test_a_fired_trigger_is_not_asked_again_while_its_compression_is_pending():
    brain = GatedBrain(categories=CONFIG.facts)
    engine = _engine(brain=brain)
    fired = [engine.ingest("t1", [msg(i)]).compressed for i in range(6)]
    # A fires at 4 turns; turns 5 and 6 make a planned window of 3, below 4.
    assert fired == [False, False, False, True, False, False]
    brain.gate.set()
    engine.flush(30)
    assert _partition_holds(engine)
    engine.close()


@pytest.mark.slow
def test_reads_see_each_turn_exactly_once_while_the_worker_runs(tmp_path):
    engine = _engine(tmp_path)
    seen_bad = []
    for i in range(40):
        engine.ingest("t1", [msg(i)])
        if not _partition_holds(engine):
            seen_bad.append(i)
    engine.flush(60)
    assert _partition_holds(engine)
    assert engine.episodes.count("t1") >= 5
    assert seen_bad == []
    engine.close()


def test_a_restart_resumes_the_work_a_stopped_engine_left(tmp_path):
    first = _engine(tmp_path)
    first.worker.stop()  # as if the process died before the worker ran
    for i in range(9):
        first.ingest("t1", [msg(i, "My name is Ada.")] if i == 0 else [msg(i)])
    owed = first.pending_jobs("t1")
    assert owed >= 2 and first.episodes.count("t1") == 0
    first.close(wait=False)
    second = _engine(tmp_path)
    assert second.flush(60)
    assert second.pending_jobs("t1") == 0 and second.episodes.count("t1") >= 2
    assert [f.value for f in second.facts.active("t1")] == ["Ada"]
    assert _partition_holds(second)
    second.close()


def test_a_job_that_keeps_failing_is_given_up_and_logged():
    brain = GatedBrain(categories=CONFIG.facts)
    brain.gate.set()
    brain.fail_extract = True
    engine = _engine(brain=brain)
    engine.ingest("t1", [msg(0, "My name is Ada.")])
    for _ in range(MAX_ATTEMPTS):
        engine.flush(30)
    assert engine.jobs.count("t1", status="failed") == 1
    failures = [e for e in engine.events.events("t1") if e.kind == "job_failed"]
    assert len(failures) == MAX_ATTEMPTS and "for good" in failures[-1].detail
    assert engine.state("t1")["extracted_upto"] == -1
    engine.close()


def test_uncommitted_episodes_in_the_index_are_invisible(tmp_path):
    engine = _engine(tmp_path)
    for i in range(4):
        engine.ingest("t1", [msg(i)])
    engine.flush(30)
    ep = engine.episodes.get("t1")[0]
    orphan = ep.model_copy(update={"id": "ep_orphan", "summary": "half written"})
    engine.episodes.index.add("t1", [orphan])  # indexed, never committed
    assert engine.episodes.index.count("t1") == 2
    assert engine.episodes.count("t1") == 1
    assert [e.id for e in engine.episodes.get("t1")] == [ep.id]
    hits = engine.episodes.search("t1", "half written", top_k=5, max_distance=2.0)
    assert [e.id for e, _ in hits] == [ep.id]
    engine.close()


def test_a_lost_index_is_rebuilt_from_the_ledger(tmp_path):
    import shutil

    engine = _engine(tmp_path)
    for i in range(8):
        engine.ingest("t1", [msg(i)])
    engine.close()
    shutil.rmtree(tmp_path / "chroma")
    again = _engine(tmp_path)
    committed = again.episodes.get("t1")
    assert committed and again.episodes.index.count("t1") == len(committed)
    again.close()


def test_ledger_records_a_job_once_and_runs_them_in_order():
    ledger = JobLedger(":memory:")
    ledger.add_jobs("t1", "main", [("compress", 0, 3, "A"), ("extract", 0, 3, "")], T0)
    ledger.add_jobs("t1", "main", [("compress", 0, 3, "A")], T0)
    jobs = ledger.pending()
    assert [(j.kind, j.first_seq, j.last_seq) for j in jobs] == [
        ("compress", 0, 3),
        ("extract", 0, 3),
    ]
    assert jobs[0].asked_at == T0
    with ledger.db.write():
        assert ledger.claim(jobs[0])
        ledger.finish(jobs[0])
    assert not ledger.claim(jobs[0])
    assert [j.kind for j in ledger.pending()] == ["extract"]
    gave_up = [ledger.record_failure(jobs[1], "boom") for _ in range(MAX_ATTEMPTS)]
    assert gave_up == [False] * (MAX_ATTEMPTS - 1) + [True]
    assert ledger.pending() == [] and ledger.count("t1", status="failed") == 1


def test_stores_sharing_a_database_commit_or_roll_back_together(tmp_path):
    db = SqliteDatabase(tmp_path / "m.sqlite3")
    transcript, ledger = SqlTranscriptStore(db), JobLedger(db)
    with pytest.raises(RuntimeError), db.write():
        transcript.append("t1", "main", [msg(0)])
        ledger.add_jobs("t1", "main", [("extract", 0, 0, "")], T0)
        raise RuntimeError("crash before commit")
    assert transcript.count("t1") == 0 and ledger.count("t1") == 0
    with db.write():
        transcript.append("t1", "main", [msg(0)])
        ledger.add_jobs("t1", "main", [("extract", 0, 0, "")], T0)
    assert transcript.count("t1") == 1 and ledger.count("t1") == 1


def test_background_work_uses_the_time_its_turn_asked_for_it():
    clock = ManualClock(T0)
    brain = GatedBrain(categories=CONFIG.facts)
    engine = _engine(brain=brain, clock=clock)
    for i in range(4):
        engine.ingest("t1", [msg(i)])
    asked = clock.now()
    clock.set(T0.replace(year=2026))  # the worker gets to it a year later
    brain.gate.set()
    engine.flush(30)
    assert [ep.created_at for ep in engine.episodes.get("t1")] == [asked]
    assert {f.created_at for f in engine.facts.rows("t1")} <= {asked, T0}
    engine.close()


def test_the_default_embedder_is_shared(tmp_path):
    # The engine reuses the process-wide embedder (cheap restarts in the fault bench).
    engine = _engine(tmp_path)
    assert engine.embedder is default_embedder()
    engine.close()


def test_no_memory_work_runs_on_the_turn_thread():
    # With an LLM brain every summarise or extract call would be a model call; none
    # of them may run on the thread that ingests.
    calls = []

    class Recording(RuleBasedBrain):
        def summarize(self, messages, *, max_tokens):
            calls.append(threading.current_thread())
            return super().summarize(messages, max_tokens=max_tokens)

        def extract(self, messages, *, known=()):
            calls.append(threading.current_thread())
            return super().extract(messages, known=known)

    engine = _engine(brain=Recording(categories=CONFIG.facts))
    for i in range(9):
        engine.ingest("t1", [msg(i)])
    engine.close_session("t1")
    engine.flush(30)
    assert calls and threading.current_thread() not in calls
    engine.close()
