"""abstention_violation_rate: contexts that assert an answer to a never-stated question.

LoCoMo category 5: the question presumes something never said about the speaker it
asks about; the context violates when it holds the adversarial answer at all (as the
metric is defined: the reader is handed the tempting wrong answer).

Synthetic abstention probes ask about a slot the user never filled, often after a
trap (a friend's choice, a hypothetical) named a value. Raw trap turns in a window
are transcript, not assertion, so only facts lines count: the context violates when
a facts line serves the trap's value or (when the log carries the probe's fact
keys) gives the asked key any value. Every data set but LoCoMo is read this way,
plug-ins included.

A probe that names neither a tempting value nor a key scores NaN here: there is
nothing in the context to look for. LongMemEval's ``_abs`` questions are such
probes (their gold explains what was said instead; it names no wrong answer), so
their context is unscored and their reply is scored by
``answer_abstention_accuracy`` (``eval --answer``), which needs no such value.
"""

from __future__ import annotations

import math

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.text import fact_lines, key_matches, mentions

NAME = "abstention_violation_rate"
VERSION = "3"
HIGHER_IS_BETTER = False


def score(case: ProbeCase) -> float:
    """1 when the context asserts an answer, 0 when not, NaN off abstention probes."""
    probe = case.probe
    if probe.kind != "abstention":
        return math.nan
    tempting = probe.adversarial_answer or ""
    if case.source == "locomo":
        return float(mentions(probe.context, tempting)) if tempting else math.nan
    keys = getattr(probe, "fact_keys", None) or []
    if not keys and not tempting:
        # Without the slot's key or a tempting value there is nothing to look for.
        return math.nan
    lines = fact_lines(probe.context)
    keyed = any(key_matches(ln, k) for ln in lines for k in keys)
    served = bool(tempting) and any(mentions(ln.value, tempting) for ln in lines)
    return float(keyed or served)
