"""Peer systems without a model server: skipped without an LLM, marked on failure.

A scripted backend stands in for the library, so these run in a second; the real
libraries against the real local server are in tests/integration/test_peers_llm.py.
"""

from __future__ import annotations

import math

import pytest
from memlab_datasets import load_dataset
from memlab_evals import peers
from memlab_evals.reports.aggregate import COLUMNS, summarize
from memlab_evals.reports.report import health_lines
from memlab_evals.running.runner import run_eval
from memlab_evals.systems import check_system, make_system, names, system_params

from memory_lab.config import LLMSettings
from memory_lab.tokens import default_counter

DATASET = "synthetic:conversations=1,sessions=2,turns_per_session=4"
LLM = LLMSettings(base_url="http://127.0.0.1:9/v1", model="scripted", use_cache=False)


class ScriptedBackend:
    """Remembers every turn verbatim; the adds listed in `fail_on` raise."""

    def __init__(self, fail_on: set[int] = frozenset()) -> None:
        self.fail_on = fail_on
        self.adds = 0
        self.held: list[peers.PeerMemory] = []

    def add(self, turns):
        self.adds += 1
        if self.adds in self.fail_on:
            raise TimeoutError(f"scripted failure on add {self.adds}")
        written = [peers.PeerMemory(f"m{t.id}", t.content) for t in turns]
        self.held += written
        return written

    def search(self, question, limit):
        words = set(question.lower().split())
        return sorted(
            self.held, key=lambda m: -len(words & set(m.text.lower().split()))
        )[:limit]

    def memories(self):
        return list(self.held)

    def usage(self):
        return {"calls": self.adds, "prompt_tokens": 10 * self.adds}

    def close(self):
        pass


@pytest.fixture
def scripted(monkeypatch):
    def install(name: str, backend: ScriptedBackend) -> ScriptedBackend:
        monkeypatch.setitem(peers.BACKENDS, name, lambda llm, workdir: backend)
        return backend

    return install


def test_peer_names_are_systems_without_recipe_parameters():
    for name in names("peer"):
        check_system(name)
        assert system_params(name) == {}


def test_without_an_llm_a_peer_is_skipped_not_scored():
    data = load_dataset(DATASET)
    log = run_eval(data, "mem0,langmem,rag-bm25", 300, progress=False)
    for name in ("mem0", "langmem"):
        (run,) = [r for r in log.conversations if r.system == name]
        assert run.status == peers.NEEDS_LLM
        assert not [p for p in log.probes if p.system == name]
    summary = summarize(log)
    rows = summary[summary["category"] == "all"].set_index("system")
    assert rows.loc["mem0", "n"] == 0
    assert math.isnan(rows.loc["mem0", "evidence_recall"])
    assert rows.loc["mem0", "status"].startswith("skipped")
    assert rows.loc["rag-bm25", "status"] == "ok"
    assert any("`mem0`: skipped: needs an LLM" in line for line in health_lines(log))


@pytest.mark.slow
def test_a_peer_that_raises_mid_run_is_marked_and_the_eval_completes(scripted):
    scripted("mem0", ScriptedBackend(fail_on={3}))
    data = load_dataset(DATASET)
    log = run_eval(data, "mem0,rag-bm25,A", 300, progress=False, llm=LLM)
    (run,) = [r for r in log.conversations if r.system == "mem0"]
    assert run.status == "errors"
    assert run.errors == {"ingest:TimeoutError": 1}
    assert run.events[0]["stage"] == "ingest"
    assert "scripted failure on add 3" in run.events[0]["error"]
    mine = [p for p in log.probes if p.system == "mem0"]
    theirs = [p for p in log.probes if p.system == "rag-bm25"]
    assert len(mine) == len(theirs) > 0  # marked, not dropped
    marked = [p for p in mine if p.error]
    assert marked and all("1 failed adds" in p.error for p in marked)
    # Probes before the failure are clean; the failed pair's turns were not stored.
    assert any(p.error is None for p in mine)
    assert run.brain_calls == 4
    summary = summarize(log)
    assert list(summary.columns) == COLUMNS
    rows = summary[summary["category"] == "all"].set_index("system")
    assert rows.loc["mem0", "status"] == "errors"
    assert rows.loc["mem0", "errors"] == 1
    assert rows.loc["mem0", "marked_probes"] == len(marked)
    assert rows.loc["A", "status"] == "ok"
    assert not math.isnan(rows.loc["mem0", "hallucinated_memory_rate"])


def test_a_peer_gives_up_after_failures_in_a_row(scripted):
    backend = scripted("langmem", ScriptedBackend(fail_on={1, 2, 3, 4, 5, 6}))
    data = load_dataset(DATASET)
    log = run_eval(data, "langmem", 300, progress=False, llm=LLM)
    (run,) = log.conversations
    assert run.status == "failed"
    assert backend.adds == peers.MAX_CONSECUTIVE_FAILURES
    assert run.errors["ingest_skipped_turns"] > 0
    assert all(p.error and "gave up" in p.error for p in log.probes[-1:])


def test_a_backend_that_cannot_be_built_is_a_failed_row(monkeypatch):
    def broken(llm, workdir):
        raise RuntimeError("bad config")

    monkeypatch.setitem(peers.BACKENDS, "mem0", broken)
    data = load_dataset(DATASET)
    log = run_eval(data, "mem0", 300, progress=False, llm=LLM)
    (run,) = log.conversations
    assert run.status == "failed"
    assert run.events[0]["stage"] == "build"
    assert log.probes and all(p.error for p in log.probes)


def test_memories_are_cut_to_the_budget(scripted):
    backend = scripted("mem0", ScriptedBackend())
    counter = default_counter()
    data = load_dataset(DATASET)
    conv = data.conversations[0]
    system = make_system(
        "mem0",
        budget=12,
        tenant=conv.tenant,
        start=conv.turns[0].timestamp,
        counter=counter,
        llm=LLM,
    )
    for turn in conv.turns:
        system.ingest(turn)
    ctx = system.context("what did I say")
    assert 0 < ctx.tokens <= 12
    assert ctx.tokens == counter.count(ctx.text)
    assert set(ctx.items) <= {m.id for m in backend.held}
    facts = system.stored_facts()
    assert {f.value for f in facts} == {t.content for t in conv.turns}
    assert all(f.turn_ids for f in facts)
    system.close()


def test_langmem_model_caps_its_reply_in_the_field_llama_cpp_reads():
    """ChatOpenAI's own cap travels as max_completion_tokens, which llama.cpp drops."""
    from memlab_evals.peers.langmem_backend import chat_model
    from memlab_evals.peers.metering import UsageMeter
    from memlab_evals.peers.system import MAX_TOKENS

    from tests.integration.openai_server import FakeOpenAIServer, text

    with FakeOpenAIServer() as server:
        server.script(text("ok"))
        llm = LLMSettings(base_url=server.base_url, model="scripted", use_cache=False)
        meter = UsageMeter()
        chat_model(llm, meter).invoke("hello")
    (request,) = server.requests
    assert request.body["max_tokens"] == MAX_TOKENS
    assert "max_completion_tokens" not in request.body
    assert meter.counts["calls"] == 1
