"""The bench report names the brain its ingest ran with, from the committed results."""

import argparse
import json
from pathlib import Path

from memlab_bench.cli import out_folder
from memlab_bench.report import markdown, targets

from memlab_cli.settings import Settings

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def _load(name: str) -> dict:
    return json.loads((RESULTS / name).read_text())


def test_an_llm_run_is_labelled_with_its_model_everywhere():
    run = _load("llm/bench-quick.json")
    page = markdown(run)
    assert "rule-based" not in page.split("## Ingest")[0]  # header and targets
    assert "LLM brain `SmolLM2-135M-Instruct.Q4_1`" in page
    assert "--brain llm" in run["command"]
    latency = next(t for t in targets(run) if t["target"].startswith("compression"))
    assert "LLM brain" in latency["target"]


def test_a_rule_based_run_still_says_rule_based():
    run = _load("bench-quick.json")
    assert "brain" not in run
    assert all("LLM" not in t["target"] for t in targets(run))
    assert "rule-based brain, parse extractor, local MiniLM" in markdown(run)


def test_a_bench_run_writes_under_runs_unless_told_where() -> None:
    settings = Settings(runs=Path("/tmp/some-runs"))
    default = argparse.Namespace(out=None, settings=settings)
    assert out_folder(default) == Path("/tmp/some-runs/bench")
    named = argparse.Namespace(out=RESULTS, settings=settings)
    assert out_folder(named) == RESULTS
