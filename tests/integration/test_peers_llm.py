"""The peer libraries against the real llama.cpp server on the packaged SmolLM2.

Mem0 and LangMem run their own pipelines on a tiny synthetic set beside a recipe
and a baseline. SmolLM2-135M can do neither Mem0's JSON nor LangMem's tool calls
reliably, so what is checked is the plumbing: each peer yields a row with every
column the others have, its requests and tokens are counted, and whatever failed
is counted and marked rather than dropped.
"""

from __future__ import annotations

import csv
import json
import os

import pytest

from memlab_cli.main import main
from memory_lab.llm_client.local_server import LocalModelServer
from tests.helpers import LLM_COLUMNS

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("llama_server")]

DATASET = "synthetic:conversations=1,sessions=1,turns_per_session=4"


@pytest.fixture(scope="module")
def server(local_model: LocalModelServer) -> LocalModelServer:
    return local_model


@pytest.fixture
def isolated(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("MEM0_DIR", str(tmp_path / "mem0"))
    for name in list(os.environ):
        if name.startswith("MEMORY_LAB_"):
            monkeypatch.delenv(name)


def test_peers_run_against_the_local_server_with_every_column(
    server, isolated, tmp_path
):
    out = tmp_path / "run"
    args = [
        "eval", "--dataset", DATASET, "--systems", "mem0,langmem,rag-bm25",
        "--budget", "300", "--brain", "llm",
        "--llm-base-url", server.base_url, "--llm-model", server.model or "",
        "--llm-timeout", "60", "--quiet", "--out", str(out),
    ]  # fmt: skip
    assert main(args) == 0
    with open(out / "summary.csv", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        columns = reader.fieldnames
        rows = {r["system"]: r for r in reader if r["category"] == "all"}
    assert set(rows) == {"mem0", "langmem", "rag-bm25"}
    assert set(LLM_COLUMNS) <= set(columns)
    log = json.loads((out / "run.json").read_text(encoding="utf-8"))
    probes = [p for p in log["probes"] if p["system"] == "rag-bm25"]
    for peer in ("mem0", "langmem"):
        row = rows[peer]
        assert row["status"] in ("ok", "errors", "failed"), row["status"]
        assert float(row["llm_calls"]) > 0 and float(row["llm_prompt_tokens"]) > 0
        assert float(row["brain_calls"]) > 0
        assert row["ingest_ms_p50"] != "" and row["retrieve_ms_p50"] != ""
        assert int(row["n"]) == len(probes), "a peer's probes are never dropped"
        assert float(row["context_tokens_mean"]) <= 300
        (run,) = [r for r in log["conversations"] if r["system"] == peer]
        if run["status"] != "ok":
            assert run["errors"], "a failing peer counts its failures"
    report = (out / "report.md").read_text(encoding="utf-8")
    for peer in ("mem0", "langmem"):
        if rows[peer]["status"] != "ok":
            assert f"`{peer}`:" in report


def test_without_a_model_the_peers_are_skipped_with_a_line(isolated, tmp_path, capsys):
    out = tmp_path / "rule"
    args = [
        "eval", "--dataset", DATASET, "--systems", "mem0,langmem,none",
        "--budget", "300", "--brain", "rule", "--quiet", "--out", str(out),
    ]  # fmt: skip
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "`mem0`: skipped: needs an LLM" in printed
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "`langmem`: skipped: needs an LLM" in report
