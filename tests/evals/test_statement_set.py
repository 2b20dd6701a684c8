"""The held-out statement set through the real engine, with the parser brain.

The floors are regression gates set just under what the parser brain measured
when the set was committed (recall 0.301, precision 0.495, two forbidden values
stored; the rules alone: 0.078, 0.650, none); `python -m
memlab_evals.running.statement_set --verbose` prints every case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from memlab_evals.readme.extraction import statement_cell
from memlab_evals.readme.stamps import stamps_of
from memlab_evals.running.provenance import git_commit
from memlab_evals.running.statement_set import load_cases, main, score_statements

RECALL_FLOOR = 0.28
PRECISION_FLOOR = 0.45
MAX_FORBIDDEN = 3


@pytest.mark.slow
def test_the_parser_brain_stores_what_ordinary_sentences_state() -> None:
    score = score_statements("parse")
    assert len(score.cases) == len(load_cases()) >= 80
    print(
        f"statement set: recall {score.recall:.3f}, precision "
        f"{score.precision:.3f}, forbidden {score.violations}"
    )
    assert score.recall >= RECALL_FLOOR
    assert score.precision >= PRECISION_FLOOR
    assert score.violations <= MAX_FORBIDDEN
    noise = [c for c in score.cases if c.topic == "noise"]
    assert noise and not any(c.active for c in noise)


def test_the_written_figures_carry_the_commit_the_stamps_read(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    case = {
        "id": "pets-01",
        "topic": "pets",
        "turns": [{"speaker": "", "text": "My dog is called Biscuit."}],
        "expect": [{"subject": "user", "value": "Biscuit", "status": "active"}],
        "forbid": [],
    }
    cases.write_text(json.dumps(case) + "\n", encoding="utf-8")
    out = tmp_path / "evals/results/extraction/statements-x-rules.txt"
    assert main(["--extractor", "rules", "--path", str(cases), "--out", str(out)]) == 0
    (stamp,) = stamps_of(out, tmp_path)
    commit = git_commit()
    assert stamp.commit == commit.removesuffix("+dirty")
    assert stamp.dirty == commit.endswith("+dirty")
    assert out.read_text(encoding="utf-8").startswith("set cases.jsonl; git commit")
    assert statement_cell(out).endswith(", 0")
