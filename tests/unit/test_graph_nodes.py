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


def test_routing_follows_the_decision_and_the_respond_flag():
    assert routing.after_check({"decision": {"fire": True}}) == "compress_window"
    assert routing.after_check({"decision": {"fire": False}}) == "extract_facts"
    assert routing.after_check({}) == "extract_facts"
    assert routing.after_extract({"respond": True}) == "assemble_context"
    assert routing.after_extract({"respond": False}) == END


def test_ingest_takes_in_turns_a_crash_left_out_of_the_window():
    eng = engine()
    eng.transcript.append("t1", "main", [msg(0), msg(1)])  # stored, never checkpointed
    out = run(
        nodes.ingest_turn,
        {"tenant": "t1", "thread": "main", "incoming": dumps([msg(2, session="s2")])},
        eng,
    )
    assert [m["id"] for m in out["window"]] == ["m0", "m1", "m2"]
    assert out["last_seq"] == 2
    assert out["session"] == "s2"
    assert out["step_events"] == [] and out["context"] is None


def test_check_triggers_logs_a_fired_trigger():
    eng = engine(a_max_messages=3, a_keep_last=1)
    window = dumps(eng.transcript.append("t1", "main", [msg(i) for i in range(3)]))
    state = {"tenant": "t1", "thread": "main", "window": window, "last_seq": 2}
    out = run(nodes.check_triggers, state, eng)
    assert out["decision"]["fire"] and out["decision"]["compress_count"] == 2
    assert [e["kind"] for e in out["step_events"]] == ["trigger_fired"]
    assert [e.kind for e in eng.events.events("t1")] == ["trigger_fired"]
    quiet = run(nodes.check_triggers, {**state, "window": window[:1]}, eng)
    assert not quiet["decision"]["fire"] and quiet["step_events"] == []


def test_compress_keeps_the_rest_and_a_retry_does_not_duplicate_episodes():
    eng = engine(a_max_messages=3, a_keep_last=1)
    stored = eng.transcript.append("t1", "main", [msg(i) for i in range(4)])
    state = {
        "tenant": "t1",
        "thread": "main",
        "window": dumps(stored),
        "decision": {"fire": True, "compress_count": 3, "triggers": ["A"]},
    }
    out = run(nodes.compress_window, state, eng)
    assert [m["id"] for m in out["window"]] == ["m3"]
    assert out["summary"]
    assert out["step_events"][-1]["kind"] == "compressed"
    first = eng.episodes.get("t1")
    assert [(e.first_seq, e.last_seq) for e in first] == [(0, 2)]
    run(nodes.compress_window, state, eng)  # the checkpoint was lost: same span again
    assert [e.id for e in eng.episodes.get("t1")] == [e.id for e in first]


def test_extract_waits_for_enough_turns_unless_the_session_closes():
    config = MemoryConfig(window={"extract_every": 5})
    eng = MemoryEngine(
        None, config=config, clock=ManualClock(T0), embedder=FlatEmbedder()
    )
    eng.transcript.append("t1", "main", [msg(0, "My name is Ada Lovelace.")])
    state = {"tenant": "t1", "thread": "main", "last_seq": 0, "extracted_upto": -1}
    assert run(nodes.extract_facts, state, eng) == {}
    out = run(nodes.extract_facts, {**state, "close_session": True}, eng)
    assert out["extracted_upto"] == 0
    assert any(e["kind"] == "fact_added" for e in out["step_events"])
    assert eng.facts.active("t1")


def test_assemble_and_respond_store_the_reply_as_the_next_turn():
    eng = engine()
    stored = eng.transcript.append("t1", "main", [msg(0, "What do you know?")])
    state = {
        "tenant": "t1",
        "thread": "main",
        "incoming": dumps(stored),
        "window": dumps(stored),
        "last_seq": 0,
    }
    ctx = run(nodes.assemble_context, state, eng)["context"]
    assert ctx["total_tokens"] <= ctx["budget"]
    out = run(nodes.respond, {**state, "context": ctx}, eng)
    assert out["reply"]
    assert [m["role"] for m in out["window"]] == ["user", "assistant"]
    assert out["last_seq"] == 1
    assert eng.transcript.count("t1", "main") == 2
