"""The goal verdict: best recipe against best raw-turn retriever, paired by probe."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from memlab_evals.reports.goal import against_retrieval, best_of, paired_difference


def frame(scores: dict[str, list[float]]) -> pd.DataFrame:
    rows = [
        {"system": system, "conversation": "c", "probe_id": f"q{i}", "recall": v}
        for system, values in scores.items()
        for i, v in enumerate(values)
    ]
    return pd.DataFrame(rows)


def test_a_small_lead_on_every_probe_is_ahead_though_the_spreads_overlap():
    base = [0.1 * (i % 10) for i in range(60)]
    probes = frame({"A": [v + 0.02 for v in base], "rag": base})
    found = paired_difference(probes, "A", "rag", "recall")
    assert found.n == 60 and math.isclose(found.difference, 0.02)
    assert found.verdict == "ahead" and found.low > 0


def test_mixed_differences_around_zero_are_tied_and_a_deficit_is_behind():
    base = [0.5] * 40
    noisy = [0.5 + (0.3 if i % 2 else -0.3) for i in range(40)]
    assert (
        paired_difference(frame({"A": noisy, "r": base}), "A", "r", "recall").verdict
        == "tied"
    )
    lower = [v - 0.1 for v in base]
    assert (
        paired_difference(frame({"A": lower, "r": base}), "A", "r", "recall").verdict
        == "behind"
    )


def test_probes_unscored_on_either_side_are_left_out_not_zeroed():
    probes = frame({"A": [1.0, math.nan, 1.0], "r": [0.0, 1.0, math.nan]})
    found = paired_difference(probes, "A", "r", "recall")
    assert found.n == 1 and found.difference == 1.0


def test_the_best_of_each_side_is_compared_and_absent_sides_give_none():
    probes = frame(
        {"A": [0.6] * 5, "B": [0.8] * 5, "bm25": [0.7] * 5, "hyb": [0.5] * 5}
    )
    assert best_of(probes, ["A", "B"], "recall") == "B"
    found = against_retrieval(probes, ["A", "B"], ["bm25", "hyb"], "recall")
    assert (found.system, found.other) == ("B", "bm25")
    assert math.isclose(found.difference, 0.1)
    assert against_retrieval(probes, ["A"], ["rag-embed"], "recall") is None


def test_the_main_job_goal_table_and_plot_come_from_the_stored_runs(tmp_path):
    from memlab_evals.reports.goal_table import COLUMNS, goal_of_runs

    from tests.evals.test_aggregate import conv, make_log, probe

    log = make_log()
    extra = [probe("rag-bm25", i, 4 if i < 6 else 1, held=True) for i in range(10)]
    with_retriever = log.model_copy(
        update={
            "probes": log.probes + extra,
            "conversations": log.conversations + [conv("rag-bm25", 0, [])],
        }
    )
    (tmp_path / "main-a").mkdir()
    with_retriever.save(tmp_path / "main-a" / "run.json")
    (tmp_path / "main-b").mkdir()
    log.save(tmp_path / "main-b" / "run.json")  # no retriever: no row
    table = goal_of_runs([tmp_path / "main-a", tmp_path / "main-b"], tmp_path)
    assert list(table.columns) == COLUMNS
    evidence = table[table["metric"] == "evidence_recall"].iloc[0]
    assert (evidence["run"], evidence["recipe"], evidence["retriever"]) == (
        "main-a",
        "A",
        "rag-bm25",
    )
    assert math.isclose(evidence["difference"], -0.4)
    assert evidence["verdict"] == "behind" and evidence["n"] == 10
    assert set(table["run"]) == {"main-a"}
    written = pd.read_csv(tmp_path / "main-goal.csv")
    assert len(written) == len(table)
    assert (tmp_path / "main-goal.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_the_main_job_writes_each_run_and_the_goal_across_them(
    tmp_path, monkeypatch, capsys
):
    from memlab_evals import cli

    monkeypatch.setattr(
        cli,
        "MAIN_SYNTHETIC",
        "synthetic:conversations=1,sessions=2,turns_per_session=8",
    )
    monkeypatch.setattr(cli, "MAIN_SYSTEMS", "A,rag-bm25,none")
    monkeypatch.setattr(cli, "MAIN_BUDGETS", (300,))
    monkeypatch.setattr(cli, "LOCOMO_DEV", tmp_path / "no-locomo.json")
    assert cli.main_job(runs=tmp_path / "runs") == 0
    run = tmp_path / "runs" / "main-synthetic-300"
    assert {"run.json", "summary.csv", "report.md"} <= {p.name for p in run.iterdir()}
    goal = pd.read_csv(tmp_path / "runs" / "main-goal.csv")
    assert set(goal["run"]) == {"main-synthetic-300"}
    assert set(goal["recipe"]) == {"A"} and set(goal["retriever"]) == {"rag-bm25"}
    assert "main-synthetic-300 evidence_recall: A" in capsys.readouterr().out
