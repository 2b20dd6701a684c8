"""stale_answer_rate: update probes whose context serves an older value as current.

A context is stale when (a) an older value appears on a facts line (facts blocks
hold only current rows, so that line asserts the old value), or (b) an older value
appears anywhere while the newest value appears nowhere, so a reader can only answer
with the old one. An old value mentioned beside the new one in raw turns is history,
not staleness. Probes that are not updates, or whose update has no older value
different from the answer, score NaN.
"""

from __future__ import annotations

import math

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.text import fact_lines, key_matches, mentions

NAME = "stale_answer_rate"
VERSION = "3"
HIGHER_IS_BETTER = False


def _asserted(case: ProbeCase, value: str) -> bool:
    keys = getattr(case.probe, "fact_keys", None) or []
    for line in fact_lines(case.probe.context):
        if keys and not any(key_matches(line, k) for k in keys):
            continue
        if mentions(line.value, value) and not mentions(line.value, case.probe.answer):
            return True
    return False


def diagnose(case: ProbeCase) -> str | None:
    """How a context is stale ('facts line' or 'old value only'), None when not."""
    probe = case.probe
    stale = [s for s in probe.stale_answers if s and s != probe.answer]
    if probe.kind != "update" or not stale:
        return None
    if any(_asserted(case, s) for s in stale):
        return "facts line"
    if mentions(probe.context, probe.answer):
        return None
    return "old value only" if any(mentions(probe.context, s) for s in stale) else None


def score(case: ProbeCase) -> float:
    """1 when the context serves a stale value as current, else 0; NaN off updates."""
    probe = case.probe
    if probe.kind != "update" or not any(
        s and s != probe.answer for s in probe.stale_answers
    ):
        return math.nan
    return float(diagnose(case) is not None)
