"""The held-out statement set through the real engine, with the parser brain.

The floors are regression gates set just under what the parser brain measured
when the set was committed (recall 0.301, precision 0.495, two forbidden values
stored; the rules alone: 0.078, 0.650, none); `python -m
memlab_evals.running.statement_set --verbose` prints every case.
"""

from __future__ import annotations

import pytest
from memlab_evals.running.statement_set import load_cases, score_statements

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
