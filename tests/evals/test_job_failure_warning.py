"""`memory-lab eval` warns, and logs, when a recipe's memory jobs failed for good.

The probes are still scored, but against a memory without the failed jobs'
work; the run's status says 'errors' and stderr names the first failure.
"""

from __future__ import annotations

import re

import pytest
from memlab_evals.running.log import RunLog

from memlab_cli.main import main
from memory_lab.brains.offline import RuleBasedBrain

SPEC = "synthetic:conversations=1,sessions=2,turns_per_session=6"


def _eval(out):
    return main(
        ["eval", "--dataset", SPEC, "--systems", "A", "--budget", "600"]
        + ["--workers", "1", "--quiet", "--out", str(out)]
    )


@pytest.mark.slow
def test_a_recipe_whose_extraction_always_raises_is_reported(
    tmp_path, monkeypatch, capsys
):
    def extract(self, messages, *, known=()):
        raise RuntimeError("extraction is broken")

    monkeypatch.setattr(RuleBasedBrain, "extract", extract)
    assert _eval(tmp_path) == 0  # scored as usual; the warning says what it lacks
    err = capsys.readouterr().err
    (line,) = [x for x in err.splitlines() if "failed for good" in x]
    assert re.fullmatch(
        r"memory-lab eval: warning: \d+ memory jobs? failed for good in \S+/A: "
        r"extract of turns \d+\.\.\d+ failed for good: "
        r"RuntimeError\('extraction is broken'\)",
        line,
    ), line
    (run,) = RunLog.load(tmp_path / "run.json").conversations
    assert run.status == "errors"
    assert run.errors["job_failed"] >= 1
    assert run.events[0]["stage"] == "memory job"


@pytest.mark.slow
def test_a_healthy_recipe_warns_of_nothing(tmp_path, capsys):
    assert _eval(tmp_path) == 0
    assert "warning" not in capsys.readouterr().err
    (run,) = RunLog.load(tmp_path / "run.json").conversations
    assert run.status == "ok"
