"""Several budgets from one ingestion: the same logs as one run per budget."""

from __future__ import annotations

import argparse

import pytest
from memlab_datasets import load_dataset
from memlab_evals.cli import budget_folder, budget_list
from memlab_evals.running import runner

pytestmark = pytest.mark.slow

SPEC = "synthetic:conversations=2,sessions=3,turns-per-session=8"
SYSTEMS = "A,C,window,rag-hybrid,full"


def test_one_ingestion_gives_each_budget_the_log_its_own_run_gives():
    data = load_dataset(SPEC)
    together = runner.run_evals(data, SYSTEMS, [250, 700], progress=False)
    assert list(together) == [250, 700]
    for budget, log in together.items():
        alone = runner.run_eval(data, SYSTEMS, budget, progress=False)
        assert runner.strip_timing(log) == runner.strip_timing(alone)
    small, large = (together[b] for b in (250, 700))
    # The budgets did cut differently: a test that could not fail proves nothing.
    assert sum(p.context_tokens for p in small.probes) < sum(
        p.context_tokens for p in large.probes
    )


def test_budgets_on_the_command_line_are_checked_and_foldered(tmp_path):
    assert budget_list("600,1500") == [600, 1500]
    assert budget_list("1500") == [1500]
    assert budget_list("600,600") == [600]
    for bad in ("", "600,x", "0", "-5"):
        with pytest.raises(argparse.ArgumentTypeError):
            budget_list(bad)
    assert budget_folder(tmp_path, 1500, [1500]) == tmp_path
    assert budget_folder(tmp_path, 600, [600, 1500]) == tmp_path / "budget-600"
