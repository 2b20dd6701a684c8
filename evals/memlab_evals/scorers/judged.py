"""judged_accuracy (J) and context_judged_accuracy: what an LLM judge said.

J grades the answer model's reply against the gold answer, as published LoCoMo
results do; abstention probes are left out of it (they are scored as abstention).
The context judge grades whether the context alone could answer. Both read verdicts
stored in the log, so re-scoring never calls a judge; a probe without a verdict
(no judge, or the call failed) is unscored, never a zero.
"""

from __future__ import annotations

import math

from memlab_evals.running.llm_records import JudgeVerdict
from memlab_evals.scorers.base import ProbeCase

ANSWER = "judged_accuracy"
CONTEXT = "context_judged_accuracy"
VERSION = "1"


def _value(verdict: JudgeVerdict | None) -> float:
    if verdict is None or verdict.label is None:
        return math.nan
    return 1.0 if verdict.label == "CORRECT" else 0.0


def score_answer(case: ProbeCase) -> float:
    """1 when the judge called the answer CORRECT; NaN off-scope or unjudged."""
    probe = case.probe
    if probe.kind == "abstention" or probe.category == 5:
        return math.nan
    return _value(probe.answer_verdict)


def score_context(case: ProbeCase) -> float:
    """1 when the judge found the context enough to answer; NaN when unjudged."""
    return _value(case.probe.context_verdict)
