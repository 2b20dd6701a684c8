"""A LongMemEval file, named through the registry, evaluated end to end."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
from memlab_datasets import load_dataset
from memlab_evals import cli
from memlab_evals.running.log import RunLog

FIXTURE = (
    Path(__file__).parents[1] / "data" / "longmemeval" / "longmemeval_fixture.json"
)
SPEC = f"longmemeval:{FIXTURE}"


def test_load_dataset_names_longmemeval_through_the_registry():
    data = load_dataset(SPEC)
    assert data.metadata["source"] == "longmemeval"
    assert len(data.conversations) == 6


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
    assert alls["n"].tolist() == [6, 6]
    for system in ("A", "window"):
        assert 0.0 <= alls.loc[system, "evidence_recall"] <= 1.0
    # Question types are the categories (7 to 12), abstention included.
    assert {"7", "10", "11", "12"} <= set(summary["category"].astype(str))
    log = RunLog.load(out / "run.json")
    assert log.config.budget == 600
