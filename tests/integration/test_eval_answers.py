"""`eval --answer` with a judge against the scripted loopback server.

The rule-based brain builds the memories (fast and deterministic); the answer model
and the judge are the scripted server, so failures, slowness and the cache can be
set up exactly. The real model runs in `test_llm_mode.py`.
"""

from __future__ import annotations

import asyncio
import csv
import math
import threading
import time

import pytest
from memlab_evals.cli import evaluate, publish
from memlab_evals.judging import judges
from memlab_evals.judging.bounded import Gate
from memlab_evals.judging.endpoints import CallOptions, Endpoint
from memlab_evals.judging.model_pass import ModelPlan, RunModels
from pydantic import SecretStr

from memory_lab.prompts import answer as answer_prompt
from tests.helpers import LLM_COLUMNS
from tests.integration.openai_server import (
    Behaviour,
    FakeOpenAIServer,
    http_error,
    ok,
    text,
    timeout,
)

DATASET = "synthetic:conversations=1,sessions=2,turns_per_session=8"
SYSTEMS = "A,full,none"
SECRET = "sk-do-not-log-me"


def answering(body) -> Behaviour:
    """Judge requests (they ask for JSON) get CORRECT; answers get a short phrase."""
    if body.get("response_format"):
        return ok({"label": "CORRECT", "reasoning": "same fact"})
    return text("not known")


def plan(
    server: FakeOpenAIServer, tmp_path, judge_check_per_kind: int = 0, **options
) -> RunModels:
    end = Endpoint(server.base_url, "scripted", SecretStr(SECRET))
    defaults = {"cache_path": tmp_path / "cache.sqlite", "backoff_s": 0.01}
    return RunModels(
        plan=ModelPlan(
            answerer=end,
            judge=end,
            options=CallOptions(**{**defaults, **options}),
            judge_check_per_kind=judge_check_per_kind,
        )
    )


def run(server, tmp_path, name: str, judge_check_per_kind: int = 0, **options):
    models = plan(server, tmp_path, judge_check_per_kind, **options)
    log = evaluate(DATASET, SYSTEMS, 600, progress=False, models=models)
    out = tmp_path / name
    publish(log, out)
    rows = list(csv.DictReader(open(out / "summary.csv", encoding="utf-8")))
    return log, {r["system"]: r for r in rows if r["category"] == "all"}, out


@pytest.fixture
def server():
    with FakeOpenAIServer(responder=answering) as running:
        yield running


@pytest.mark.slow
def test_answers_and_verdicts_fill_the_new_columns(server, tmp_path):
    log, rows, out = run(server, tmp_path, "first")
    assert set(LLM_COLUMNS) <= set(rows["A"])
    for system in ("A", "full", "none"):
        row = rows[system]
        assert row["answer_f1"] != "" and row["answer_bleu1"] != ""
        # the judge-free floor is scored beside J ("not known" matches no gold)
        assert float(row["answer_exact_match"]) == 0.0
        assert float(row["answer_contains_gold"]) == 0.0
        assert float(row["judged_accuracy"]) == 1.0
        assert int(float(row["llm_calls"])) > 0
    # the same model answered every system, each with one request per probe
    per_system = {s: sum(p.system == s for p in log.probes) for s in ("A", "none")}
    assert log.llm.answer_usage["A"]["calls"] == per_system["A"]
    assert log.llm.answer_usage["none"]["calls"] == per_system["none"]
    # abstention probes are scored as abstention and kept out of J
    abstentions = [p for p in log.probes if p.category == 5]
    assert abstentions and all(p.answer_verdict is None for p in abstentions)
    assert all(p.model_answer.text == "not known" for p in abstentions)
    assert float(rows["none"]["answer_abstention_accuracy"]) == 1.0
    # the rule brain proposes no LLM facts: the rate is unscored, not zero
    assert rows["A"]["extraction_rejected_rate"] == ""
    saved = (out / "run.json").read_text(encoding="utf-8")
    assert SECRET not in saved
    assert log.llm.prompts["answer"] == answer_prompt.VERSION
    assert (
        log.llm.prompts["answer_judge"]
        == judges.prompt_versions(answers=True, contexts=False)["answer_judge"]
    )
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "served from the cache" in report


@pytest.mark.slow
def test_a_second_identical_run_sends_nothing(server, tmp_path):
    run(server, tmp_path, "first")
    sent = len(server.requests)
    assert sent > 0
    log, rows, _ = run(server, tmp_path, "again")
    assert len(server.requests) == sent
    assert all(float(r["llm_calls"]) == 0 for r in rows.values())
    assert all(float(r["llm_cache_hits"]) > 0 for r in rows.values())
    assert log.llm.usage["judge"]["calls"] == 0
    # --no-cache sends every answer and verdict, even repeats within the run
    uncached, _, _ = run(server, tmp_path, "uncached", use_cache=False)
    records = sum(
        (p.model_answer is not None) + (p.answer_verdict is not None)
        for p in uncached.probes
    )
    assert len(server.requests) - sent == records


@pytest.mark.slow
def test_failures_are_marked_and_counted_never_dropped(server, tmp_path):
    first = evaluate(DATASET, "none", 600, progress=False)
    doomed = first.probes[0].question

    def flaky(body) -> Behaviour:
        prompt = " ".join(str(m.get("content")) for m in body["messages"])
        if doomed in prompt and not body.get("response_format"):
            return timeout(2.0)  # longer than the client waits
        return answering(body)

    server.responder = flaky
    # Three 429s first: retried, so nothing fails because of them.
    server.script(http_error(429), http_error(429), http_error(429))
    log, rows, _ = run(
        server, tmp_path, "flaky", timeout_s=0.3, max_attempts=4, max_connections=2
    )
    assert len(log.probes) == 3 * len(first.probes)
    failed = [p for p in log.probes if p.model_answer.status == "failed"]
    assert {p.question for p in failed} == {doomed}
    assert all("Timeout" in p.model_answer.error for p in failed)
    assert sum(float(r["answer_failures"]) for r in rows.values()) == len(failed)
    for p in failed:
        assert p.answer_verdict is None  # nothing to judge, and not a WRONG
    fine = [p for p in log.probes if p.model_answer.status == "ok"]
    assert fine and all(p.model_answer.text for p in fine)


@pytest.mark.slow
def test_in_flight_requests_never_exceed_max_connections(server, tmp_path):
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}

    def slow(body) -> Behaviour:
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return answering(body)

    server.responder = slow
    run(server, tmp_path, "bounded", max_connections=3, use_cache=False)
    assert state["peak"] == 3


def test_the_gate_bounds_coroutines_and_reports_its_peak():
    gate = Gate(3)

    async def main() -> None:
        async def work() -> int:
            await asyncio.sleep(0.01)
            return 1

        done = await asyncio.gather(*(gate.run(work) for _ in range(20)))
        assert sum(done) == 20

    asyncio.run(main())
    assert gate.peak == 3 and gate.in_flight == 0
    with pytest.raises(ValueError):
        Gate(0)


@pytest.mark.slow
def test_without_answers_the_columns_are_present_and_unscored(tmp_path):
    log = evaluate(DATASET, SYSTEMS, 600, progress=False)
    publish(log, tmp_path)
    rows = list(csv.DictReader(open(tmp_path / "summary.csv", encoding="utf-8")))
    assert set(LLM_COLUMNS) <= set(rows[0])
    for row in rows:
        assert row["answer_f1"] == "" and row["judged_accuracy"] == ""
        if row["category"] == "all":
            assert float(row["llm_calls"]) == 0  # nothing was sent: a true zero
    assert not math.isnan(float(rows[-1]["evidence_recall"]))


@pytest.mark.slow
def test_j_comes_with_its_judge_checked_first(server, tmp_path):
    """A judge that calls everything CORRECT is marked unreliable beside its J."""
    log, rows, out = run(server, tmp_path, "checked", judge_check_per_kind=2)
    check = log.llm.judge_calibration
    assert check is not None and check["per_kind"] == 2
    assert check["false_accept"]["rate"] == 1.0 and not check["reliable"]
    assert float(rows["A"]["judged_accuracy"]) == 1.0
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "judge UNRELIABLE" in report and "not a measurement" in report
    items = (out / "judge-calibration.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(items) == check["items"]
    # the check shares the run's cache: a repeat sends nothing
    sent = len(server.requests)
    run(server, tmp_path, "checked-again", judge_check_per_kind=2)
    assert len(server.requests) == sent
