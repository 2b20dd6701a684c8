"""The bench report names the brain its ingest ran with, from the committed results."""

import json
from pathlib import Path

from memlab_bench.report import markdown, targets

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
    assert "rule-based brain, local MiniLM" in markdown(run)
