"""A LongMemEval file, named through the registry, evaluated end to end."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd
import pytest
from memlab_datasets import load_dataset
from memlab_evals import cli
from memlab_evals.running.log import RunLog

FIXTURE = (
    Path(__file__).parents[1] / "data" / "longmemeval" / "longmemeval_fixture.json"
)
SPEC = f"longmemeval:{FIXTURE}"
RAW = json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_load_dataset_names_longmemeval_through_the_registry():
    data = load_dataset(SPEC)
    assert data.metadata["source"] == "longmemeval"
    assert len(data.conversations) == len(RAW)


@pytest.mark.slow
def test_eval_on_longmemeval_reports_evidence_recall(tmp_path):
    parser = argparse.ArgumentParser(prog="memory-lab")
    cli.register_eval(parser.add_subparsers(dest="command", required=True))
    out = tmp_path / "run"
    args = parser.parse_args(
        [
            "eval",
            "--dataset",
            SPEC,
            "--systems",
            "A,window",
            "--budget",
            "600",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert args.func(args) == 0
    summary = pd.read_csv(out / "summary.csv")
    alls = summary[summary["category"] == "all"].set_index("system")
    assert list(alls.index) == ["A", "window"]
    assert alls["n"].tolist() == [len(RAW), len(RAW)]
    for system in ("A", "window"):
        assert 0.0 <= alls.loc[system, "evidence_recall"] <= 1.0
    # Question types are the categories (7 to 12), abstention included.
    assert {"7", "10", "11", "12"} <= set(summary["category"].astype(str))
    log = RunLog.load(out / "run.json")
    assert log.config.budget == 600
    assert log.config.source == "longmemeval"
    # Answer sessions are named, so session recall is measured beside evidence.
    assert alls.loc["A", "session_recall"] == 1.0  # the recipe keeps every session
    assert alls.loc["window", "session_recall"] < 1.0  # a long haystack's start
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "| A | 10 | multi-session |" in report
    assert "| 12 | temporal-reasoning | temporal |" in report
    assert "trap kind" not in report  # held to the retrieval targets, not traps


def test_the_question_is_asked_at_its_date_with_the_memory_clock_there(monkeypatch):
    from memlab_evals.running import runner
    from memlab_evals.running.runner import Unit, run_unit
    from memlab_evals.systems import make_system

    conv = load_dataset(f"{SPEC}:question_type=temporal-reasoning,limit=1")
    conv = conv.conversations[0]
    clock_at_question = []

    def watched(name, **kwargs):
        system = make_system(name, **kwargs)
        context = system.context

        def context_now(question):
            clock_at_question.append(system.engine.clock.now())
            return context(question)

        system.context = context_now
        return system

    monkeypatch.setattr(runner, "make_system", watched)
    _, (record,) = run_unit(Unit(0, 0, conv, "A", (600,)))[600]
    question_date = conv.probes[0].asked_at
    assert question_date > conv.turns[-1].timestamp
    assert clock_at_question == [question_date]
    assert record.asked_at == question_date.isoformat()
    assert set(record.evidence_sessions) == set(conv.probes[0].evidence_sessions)
    assert record.evidence_sessions["fx_t_ans2"][-1].startswith("Great, and I bought")


def test_a_system_without_a_clock_still_records_the_question_date():
    from memlab_evals.running.runner import Unit, run_unit

    conv = load_dataset(f"{SPEC}:limit=1").conversations[0]
    _, (record,) = run_unit(Unit(0, 0, conv, "window", (600,)))[600]
    assert record.asked_at == conv.probes[0].asked_at.isoformat()
