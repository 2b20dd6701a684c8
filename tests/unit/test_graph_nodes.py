"""Graph nodes and routing, called directly with an in-memory engine's deps."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from langgraph.graph import END

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.graph import nodes, routing
from memory_lab.recipes import recipe
from tests.helpers import T0, msg


class FlatEmbedder:
    name, dim = "flat", 4

    def embed(self, texts):
        return np.tile(np.array([1.0, 0, 0, 0], dtype=np.float32), (len(texts), 1))


def engine(**params) -> MemoryEngine:
    config = MemoryConfig(recipe=recipe("A").with_params(**params))
    return MemoryEngine(
        None, config=config, clock=ManualClock(T0), embedder=FlatEmbedder()
    )


def run(node, state, eng):
    return node(state, SimpleNamespace(context=eng.deps))


def dumps(messages):
    return [m.model_dump(mode="json") for m in messages]


def quiet_engine(**params) -> MemoryEngine:
    """An engine whose worker is stopped, so jobs wait for the test to run them."""
    eng = engine(**params)
    eng.worker.stop()
    return eng


def test_routing_follows_the_respond_flag_and_the_job_kind():
    assert routing.after_check({"respond": True}) == "assemble_context"
    assert routing.after_check({"respond": False}) == END
    assert routing.after_check({}) == END
    job = SimpleNamespace(kind="compress")
    assert routing.by_job_kind({"job": job}) == "compress_window"
    job.kind = "extract"
    assert routing.by_job_kind({"job": job}) == "extract_facts"


def test_a_turn_stored_but_never_decided_is_decided_with_the_next():
    eng = quiet_engine()
    eng.transcript.append("t1", "main", [msg(0), msg(1)])  # a crash before deciding
    state = {
        "tenant": "t1",
        "thread": "main",
        "incoming": dumps([msg(2, session="s2")]),
    }
    out = run(nodes.ingest_turn, state, eng)
    assert out["step_events"] == [] and out["context"] is None
    out = run(nodes.check_triggers, state, eng)
    assert [m["id"] for m in out["window"]] == ["m0", "m1", "m2"]
    marks = eng.jobs.marks("t1", "main")
    assert (marks.decided_upto, marks.session) == (2, "s2")


def test_check_triggers_records_a_job_once_and_logs_the_firing():
    eng = quiet_engine(a_max_messages=3, a_keep_last=1)
    eng.transcript.append("t1", "main", [msg(i) for i in range(3)])
    state = {"tenant": "t1", "thread": "main"}
    out = run(nodes.check_triggers, state, eng)
    assert out["decision"]["fire"] and out["decision"]["compress_count"] == 2
    assert [e["kind"] for e in out["step_events"]] == ["trigger_fired"]
    assert [e.kind for e in eng.events.events("t1")] == ["trigger_fired"]
    jobs = eng.jobs.pending()
    assert [
        (j.kind, j.first_seq, j.last_seq) for j in jobs if j.kind == "compress"
    ] == [("compress", 0, 1)]
    # The window still holds the turns; the planned ones are not asked for again.
    assert [m["id"] for m in out["window"]] == ["m0", "m1", "m2"]
    again = run(nodes.check_triggers, state, eng)
    assert not again["decision"]["fire"] and again["step_events"] == []


def test_compress_commits_the_span_and_a_retry_changes_nothing():
    eng = quiet_engine(a_max_messages=3, a_keep_last=1)
    eng.transcript.append("t1", "main", [msg(i) for i in range(4)])
    run(nodes.check_triggers, {"tenant": "t1", "thread": "main"}, eng)
    job = next(j for j in eng.jobs.pending() if j.kind == "compress")
    out = run(nodes.compress_window, {"job": job}, eng)
    assert out["events"][-1]["kind"] == "compressed"
    first = eng.episodes.get("t1")
    assert [(e.first_seq, e.last_seq) for e in first] == [(0, 2)]
    assert [m.id for m in eng.window("t1")] == ["m3"]
    assert eng.jobs.marks("t1", "main").summary
    # Done already (another worker, or a crash after the commit): nothing happens.
    assert run(nodes.compress_window, {"job": job}, eng) == {"events": []}
    assert [e.id for e in eng.episodes.get("t1")] == [e.id for e in first]


def test_extract_waits_for_enough_turns_unless_the_session_closes():
    config = MemoryConfig(window={"extract_every": 5})
    eng = MemoryEngine(
        None, config=config, clock=ManualClock(T0), embedder=FlatEmbedder()
    )
    eng.worker.stop()
    eng.transcript.append("t1", "main", [msg(0, "My name is Ada Lovelace.")])
    state = {"tenant": "t1", "thread": "main"}
    run(nodes.check_triggers, state, eng)
    assert eng.jobs.pending() == []
    run(nodes.check_triggers, {**state, "close_session": True}, eng)
    [job] = eng.jobs.pending()
    out = run(nodes.extract_facts, {"job": job}, eng)
    assert any(e["kind"] == "fact_added" for e in out["events"])
    assert eng.jobs.marks("t1", "main").extracted_upto == 0
    assert eng.facts.active("t1")


def test_assemble_and_respond_store_the_reply_as_the_next_turn():
    eng = engine()
    stored = eng.transcript.append("t1", "main", [msg(0, "What do you know?")])
    state = {"tenant": "t1", "thread": "main", "incoming": dumps(stored)}
    assembled = run(nodes.assemble_context, state, eng)
    ctx = assembled["context"]
    assert ctx["total_tokens"] <= ctx["budget"]
    out = run(nodes.respond, {**state, **assembled}, eng)
    assert out["reply"]
    assert [m["role"] for m in out["window"]] == ["user", "assistant"]
    assert eng.transcript.count("t1", "main") == 2
