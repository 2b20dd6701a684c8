"""The engine on real files: replay, restart, supersession, bad input, tenants, network."""

import socket
from datetime import timedelta

import pytest

from memlab_cli.conversation_io import builtin
from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe
from memory_lab.errors import InvalidMessageError, TenantRequiredError
from memory_lab.graph import mermaid
from tests.helpers import T0, msg

CONV = builtin()


def _engine(path, spec="A", start=None):
    return MemoryEngine(
        path,
        config=MemoryConfig(recipe=recipe(spec)),
        clock=ManualClock(start or CONV.messages[0].timestamp),
    )


def _replay(engine, messages=CONV.messages, tenant=CONV.tenant):
    for m in messages:
        engine.ingest(tenant, [m])


def _covered(engine, tenant):
    window = {m.id for m in engine.window(tenant)}
    episodes = {t for ep in engine.episodes.get(tenant) for t in ep.turn_ids}
    return window | episodes


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["A", "B", "C", "A+B+C"])
def test_every_message_is_recoverable(tmp_path, spec):
    engine = _engine(tmp_path, spec)
    _replay(engine)
    ids = [m.id for m in CONV.messages]
    assert [m.id for m in engine.transcript.messages(CONV.tenant)] == ids
    assert set(ids) <= _covered(engine, CONV.tenant)
    for ep in engine.episodes.get(CONV.tenant):
        assert [m.id for m in engine.expand_episode(CONV.tenant, ep.id)] == ep.turn_ids
    engine.close()


@pytest.mark.slow
def test_thread_resumes_after_restart(tmp_path):
    half = len(CONV.messages) // 2
    first = _engine(tmp_path, "A")
    _replay(first, CONV.messages[:half])
    first.flush()
    window_before = [m.id for m in first.window(CONV.tenant)]
    first.close()
    second = _engine(tmp_path, "A", CONV.messages[half].timestamp)
    assert [m.id for m in second.window(CONV.tenant)] == window_before
    _replay(second, CONV.messages[half:])
    assert set(m.id for m in CONV.messages) <= _covered(second, CONV.tenant)
    second.close()


@pytest.mark.slow
def test_correction_supersedes_and_keeps_the_chain(tmp_path):
    engine = _engine(tmp_path, "C")
    _replay(engine)
    engine.flush()
    rows = [f for f in engine.facts.rows(CONV.tenant) if f.key == "accounting_standard"]
    values = [(f.value, f.status) for f in rows]
    assert ("K2", "superseded") in values and ("K3", "active") in values
    old = next(f for f in rows if f.value == "K2")
    new = next(f for f in rows if f.value == "K3")
    assert old.superseded_by == new.id and old.valid_until is not None
    context = engine.assemble(CONV.tenant, "Which accounting standard do we use?")
    facts_text = context.block("facts").text
    assert "K3" in facts_text and "= K2" not in facts_text
    engine.close()


def test_bad_input_is_refused_and_nothing_is_lost(tmp_path):
    engine = _engine(tmp_path, "A", T0)
    engine.ingest("t1", [msg(1), msg(2)])
    for bad, reason in [
        (msg(3, "   "), "empty"),
        (msg(4, "x\x00y"), "NUL"),
        (msg(5, "a" * 300_000), "limit"),
        (msg(6, "bad \ud800 char"), "invalid character"),
    ]:
        with pytest.raises(InvalidMessageError, match=reason):
            engine.ingest(
                "t1", [msg(7), bad]
            )  # the good one in the batch is not stored either
    assert [m.id for m in engine.transcript.messages("t1")] == ["m1", "m2"]
    assert [m.id for m in engine.window("t1")] == ["m1", "m2"]
    with pytest.raises(TenantRequiredError):
        engine.ingest("", [msg(8)])
    engine.close()


def test_tenants_never_see_each_other(tmp_path):
    engine = _engine(tmp_path, "A", T0)
    engine.ingest(
        "alice", [msg(1, "My name is Alice and I live in Lisbon.", tenant="alice")]
    )
    engine.ingest("bob", [msg(1, "My name is Bob and I live in Oslo.", tenant="bob")])
    a = engine.assemble("alice", "where do I live?").text
    b = engine.assemble("bob", "where do I live?").text
    assert "Lisbon" in a and "Oslo" not in a and "Bob" not in a
    assert "Oslo" in b and "Lisbon" not in b
    assert all(f.tenant == "alice" for f in engine.facts.rows("alice"))
    engine.close()


def test_trigger_c_fires_on_tick_after_a_day(tmp_path):
    clock = ManualClock(T0)
    engine = MemoryEngine(
        tmp_path, config=MemoryConfig(recipe=recipe("C")), clock=clock
    )
    engine.ingest("t1", [msg(i) for i in range(5)])
    engine.flush()
    assert engine.episodes.count("t1") == 0
    clock.advance(timedelta(days=1))
    step = engine.tick("t1")
    assert step.compressed and step.decision.triggers == ["C"]
    # The turns stay in the window until the background compression commits.
    engine.flush()
    assert engine.episodes.count("t1") == 1 and engine.window("t1") == []
    assert any(e.kind == "trigger_fired" for e in step.events)
    engine.close()


def test_chat_answers_offline_and_says_so(tmp_path):
    engine = _engine(tmp_path, "A", T0)
    step = engine.chat("t1", "My name is Ada. What do you remember about me?")
    assert "offline" in step.reply.lower()
    assert step.context is not None and step.context.total_tokens <= step.context.budget
    roles = [m.role for m in engine.window("t1")]
    assert roles == ["user", "assistant"]
    engine.close()


def test_session_close_extracts_past_the_watermark(tmp_path):
    config = MemoryConfig(recipe=recipe("A"))
    config = config.model_copy(
        update={"window": config.window.model_copy(update={"extract_every": 50})}
    )
    engine = MemoryEngine(tmp_path, config=config, clock=ManualClock(T0))
    engine.ingest("t1", [msg(1, "My name is Ada.")])
    engine.flush()
    assert engine.facts.active("t1") == []  # not due yet
    engine.close_session("t1")
    engine.flush()
    assert [f.value for f in engine.facts.active("t1")] == ["Ada"]
    assert engine.state("t1")["extracted_upto"] == 0
    engine.close()


def test_graph_diagrams_name_every_node():
    turn, work = mermaid(), mermaid("maintenance")
    for node in ("ingest_turn", "check_triggers", "assemble_context", "respond"):
        assert node in turn and node not in work
    # A turn never compresses or extracts: those run in the maintenance graph.
    for node in ("compress_window", "extract_facts"):
        assert node in work and node not in turn


def test_no_socket_leaves_loopback_during_replay(tmp_path, monkeypatch):
    seen = []
    real_connect = socket.socket.connect

    def guarded(self, address):
        seen.append(address)
        host = address[0] if isinstance(address, tuple) else str(address)
        if self.family in (socket.AF_INET, socket.AF_INET6) and host not in (
            "127.0.0.1",
            "::1",
            "localhost",
        ):
            raise AssertionError(f"network connection attempted to {address}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    engine = _engine(tmp_path, "A+B+C")
    _replay(engine)
    engine.assemble(CONV.tenant, "what did we decide?")
    engine.close()
    remote = [
        a
        for a in seen
        if isinstance(a, tuple) and a[0] not in ("127.0.0.1", "::1", "localhost")
    ]
    assert remote == []
