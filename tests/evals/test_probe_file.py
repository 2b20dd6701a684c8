"""probes.csv holds the probes the summary's means are made of, one by one."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from memlab_evals.reports.probe_file import (
    COLUMNS,
    NAME,
    read_probe_scores,
    write_probe_scores,
)

from memlab_cli.main import main

TINY = "synthetic:conversations=2,sessions=2,turns-per-session=10"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("eval") / "run"
    argv = ["eval", "--dataset", TINY, "--systems", "A,rag-bm25", "--budget", "300"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    return out


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["evidence_recall", "answer_recall"])
def test_the_probes_average_to_the_summarys_all_rows(run_dir: Path, metric: str):
    probes = read_probe_scores(run_dir / NAME)
    summary = pd.read_csv(run_dir / "summary.csv")
    means = summary[summary["category"].astype(str) == "all"].set_index("system")
    assert set(probes["system"]) == {"A", "rag-bm25"}
    for system, rows in probes.groupby("system"):
        assert rows[metric].mean() == pytest.approx(means.loc[system, metric], 1e-6)
        assert rows["probe_id"].is_unique  # one row per probe and system


def test_ids_stay_text_and_a_missing_metric_is_written_empty(tmp_path: Path):
    frame = pd.DataFrame(
        {
            "system": ["A"],
            "conversation": ["007"],
            "probe_id": ["012"],
            "category": ["1"],
            "evidence_recall": [2 / 3],
            "retrieve_ms": [5.0],  # not kept: the file holds what pairing reads
        }
    )
    read = read_probe_scores(write_probe_scores(frame, tmp_path))
    assert list(read.columns) == COLUMNS
    assert (read.loc[0, "conversation"], read.loc[0, "probe_id"]) == ("007", "012")
    assert read.loc[0, "evidence_recall"] == pytest.approx(2 / 3, abs=5e-7)
    assert read["answer_recall"].isna().all()


def test_a_file_without_a_metric_column_is_refused_naming_it(tmp_path: Path):
    path = tmp_path / NAME
    pd.DataFrame({c: [1] for c in COLUMNS if c != "answer_recall"}).to_csv(path)
    with pytest.raises(ValueError, match=f"{NAME}: no column answer_recall"):
        read_probe_scores(path)
