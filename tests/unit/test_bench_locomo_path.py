"""`bench` finds the LoCoMo file where `main` and `eval` do, not at a fixed path."""

from __future__ import annotations

from pathlib import Path

import pytest
from memlab_bench import cli as bench_cli
from memlab_bench import locomo as bench_locomo
from memlab_evals.cli import LOCOMO_DEV

from memlab_cli.main import main


class Measured(Exception):
    """Raised in place of the benchmarks, carrying what they were given."""


def test_the_bench_reads_memory_lab_locomo(monkeypatch, tmp_path: Path):
    given = tmp_path / "my-locomo.json"
    monkeypatch.setenv("MEMORY_LAB_LOCOMO", str(given))

    def measure(mode, seed, out, llm=None, locomo=None):
        raise Measured(locomo)

    monkeypatch.setattr(bench_cli, "measure", measure)
    with pytest.raises(Measured) as seen:
        main(["bench", "--quick", "--out", str(tmp_path / "out")])
    assert seen.value.args[0] == given


def test_without_it_the_bench_uses_the_main_job_s_default():
    assert bench_locomo.DATASET == LOCOMO_DEV
    assert not LOCOMO_DEV.is_absolute()


def test_a_missing_file_is_named_and_nothing_runs(tmp_path: Path):
    missing = tmp_path / "nowhere.json"
    result = bench_locomo.time_locomo_eval(tmp_path / "out", dataset=missing)
    assert result["seconds"] is None
    assert result["error"] == f"{missing} not found"
    assert f"locomo:{missing}" in result["command"]
