"""LLM mode end to end against the real llama.cpp server on the packaged SmolLM2.

What a researcher runs on day one: `memory-lab eval --brain llm --answer` with a
judge, on a tiny synthetic set, then the same command again (all from the cache),
then an eval whose server dies half-way (it completes, the failures are marked) and
a re-run against the restarted server (it resumes from the cache). SmolLM2-135M's
answers are not checked for truth, only that they were made, scored and counted.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from memlab_evals.cli import evaluate, publish
from memlab_evals.judging.endpoints import CallOptions, Endpoint
from memlab_evals.judging.model_pass import ModelPlan, RunModels

from memlab_cli.main import main
from memory_lab.llm_client.local_server import LocalModelServer, free_port
from tests.helpers import LLM_COLUMNS

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("llama_server")]

DATASET = "synthetic:conversations=1,sessions=2,turns_per_session=8"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(local_model: LocalModelServer) -> LocalModelServer:
    return local_model


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "llm-cache.sqlite"
    monkeypatch.setenv("MEMORY_LAB_LLM_CACHE", str(path))
    # The brain's client may use the default cache location: keep it in the test.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    for name in list(os.environ):
        if name.startswith("MEMORY_LAB_") and name != "MEMORY_LAB_LLM_CACHE":
            monkeypatch.delenv(name)
    return path


def eval_args(server: LocalModelServer, out: Path) -> list[str]:
    url, model = server.base_url, server.model or ""
    return [
        "eval",
        "--dataset", DATASET,
        "--systems", "A,full,none",
        "--budget", "600",
        "--brain", "llm", "--llm-base-url", url, "--llm-model", model,
        "--answer",
        "--judge-base-url", url, "--judge-model", model,
        # The judge is checked before J; a small check keeps the test short.
        "--judge-check-per-kind", "2",
        # Requests queue at the one-slot server; a timeout under a loaded CI
        # machine would leave a request uncached and the re-run would send it.
        "--llm-timeout", "300",
        "--quiet",
        "--out", str(out),
    ]  # fmt: skip


def all_rows(out: Path) -> dict[str, dict]:
    with open(out / "summary.csv", encoding="utf-8") as f:
        return {r["system"]: r for r in csv.DictReader(f) if r["category"] == "all"}


def sent(out: Path) -> int:
    """Requests the run sent, over every role (brain, answers, judge)."""
    log = json.loads((out / "run.json").read_text(encoding="utf-8"))
    return sum(u.get("calls", 0) for u in log["llm"]["usage"].values())


def test_an_llm_eval_fills_the_columns_and_reruns_from_the_cache(
    server, cache, tmp_path
):
    first, again = tmp_path / "first", tmp_path / "again"
    assert main(eval_args(server, first)) == 0
    rows = all_rows(first)
    assert set(rows) == {"A", "full", "none"}
    for system, row in rows.items():
        assert set(LLM_COLUMNS) <= set(row)
        assert row["answer_f1"] != "" and row["answer_bleu1"] != "", system
        assert row["judged_accuracy"] != "", system
        assert 0.0 <= float(row["judged_accuracy"]) <= 1.0
        assert float(row["llm_calls"]) > 0 and float(row["llm_prompt_tokens"]) > 0
    log = json.loads((first / "run.json").read_text(encoding="utf-8"))
    assert log["llm"]["brain"].startswith("llm:")
    assert log["llm"]["answer_endpoint"]["base_url"] == server.base_url
    assert {"answer", "answer_judge"} <= set(log["llm"]["prompts"])
    assert all(p["model_answer"] is not None for p in log["probes"])
    assert sent(first) > 0
    # The judge was checked first and its rates stand beside J.
    check = log["llm"]["judge_calibration"]
    assert check["per_kind"] == 2 and check["items"] > 0
    assert "checked first" in (first / "report.md").read_text(encoding="utf-8")

    started = time.perf_counter()
    assert main(eval_args(server, again)) == 0
    rerun_seconds = time.perf_counter() - started
    assert sent(again) == 0, "a repeated run must send no request"
    rows = all_rows(again)
    assert all(float(r["llm_calls"]) == 0 for r in rows.values())
    assert all(float(r["llm_cache_hits"]) > 0 for r in rows.values())
    replayed = json.loads((again / "run.json").read_text(encoding="utf-8"))
    assert [p["model_answer"]["text"] for p in replayed["probes"]] == [
        p["model_answer"]["text"] for p in log["probes"]
    ]
    print(f"cached re-run: {rerun_seconds:.1f} s")


def test_a_server_killed_mid_eval_loses_nothing_and_the_rerun_resumes(cache, tmp_path):
    port = free_port("127.0.0.1")
    server = LocalModelServer(port=port, n_ctx=4096).start()
    end = Endpoint(server.base_url, server.model or "")
    models = RunModels(
        plan=ModelPlan(
            answerer=end,
            judge=end,
            options=CallOptions(
                cache_path=cache, max_connections=2, max_attempts=2, backoff_s=0.1,
                timeout_s=60,
            ),
        )
    )  # fmt: skip
    result: dict = {}

    def run() -> None:
        result["log"] = evaluate(
            DATASET, "A,full,none", 600, progress=False, models=models
        )

    worker = threading.Thread(target=run)
    worker.start()
    try:
        deadline = time.monotonic() + 600
        while _cached(cache) < 6 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _cached(cache) >= 6, "the eval never got going"
        os.killpg(server.pid, signal.SIGKILL)  # a crash, not a clean stop
        worker.join(timeout=600)
        assert not worker.is_alive()
    finally:
        server.stop()
    log = result["log"]
    full = evaluate(DATASET, "A,full,none", 600, progress=False)
    assert len(log.probes) == len(full.probes), "no probe may be lost"
    failed = [p for p in log.probes if p.model_answer.status == "failed"]
    answered = [p for p in log.probes if p.model_answer.status == "ok"]
    assert failed and answered
    assert all(p.model_answer.error for p in failed)
    publish(log, tmp_path / "killed")
    rows = all_rows(tmp_path / "killed")
    assert sum(float(r["answer_failures"]) for r in rows.values()) == len(failed)

    restarted = LocalModelServer(port=port, n_ctx=4096).start()
    try:
        assert restarted.base_url == end.base_url  # same endpoint, same cache keys
        resumed = evaluate(DATASET, "A,full,none", 600, progress=False, models=models)
    finally:
        restarted.stop()
    assert all(p.model_answer.status == "ok" for p in resumed.probes)
    hits = resumed.llm.usage["answer"]["cache_hits"]
    calls = resumed.llm.usage["answer"]["calls"]
    assert hits == len(answered)  # what was answered before is not asked again
    assert calls >= len(failed)  # what failed is sent again


def _cached(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=1) as db:
            return db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_llm_serve_prints_its_url_and_stops_cleanly_on_sigterm():
    port = free_port("127.0.0.1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "memlab_cli.main", "llm", "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    base = f"http://127.0.0.1:{port}/v1"
    try:
        # The URL is printed once the server answers: wait for the line, not
        # for the port (it opens a moment before the line is written).
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            if any(base in line for line in list(lines)):
                break
            time.sleep(0.2)
        with urllib.request.urlopen(f"{base}/models", timeout=10) as reply:
            models = json.loads(reply.read())
        assert models["data"][0]["id"]
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        reader.join(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    output = "".join(lines)
    assert proc.returncode == 0, output
    assert f"http://127.0.0.1:{port}/v1" in output
    assert "SmolLM2" in output
