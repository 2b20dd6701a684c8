"""fact_recall (data with planted values): the planted value is in the context.

The planted values of a probe are the gold facts stated at its evidence turns (and,
when the log carries the probe's fact keys, only those keys). The synthetic set
plants them; LoCoMo's gold facts are observation sentences, not planted values, and
LongMemEval has none, so their probes score NaN, as do abstention probes (nothing
was planted) and probes whose evidence states no fact. Whether a value was planted
is read from the gold facts themselves, not the data set's name, so a plug-in data
set with planted facts is scored too.
"""

from __future__ import annotations

import math

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.text import mentions

NAME = "fact_recall"
VERSION = "1"
HIGHER_IS_BETTER = True


def planted_values(case: ProbeCase) -> list[str]:
    """Gold values the probe's evidence turns plant, without duplicates."""
    if case.run is None:
        return []
    evidence = set(case.probe.evidence)
    keys = set(getattr(case.probe, "fact_keys", None) or [])
    values: list[str] = []
    for fact in case.run.gold_facts:
        if fact.get("category") == "observation":
            continue
        stated = {fact.get("turn_id"), *fact.get("turn_ids", [])}
        if not stated & evidence or (keys and fact.get("key") not in keys):
            continue
        if fact["value"] not in values:
            values.append(fact["value"])
    return values


def score(case: ProbeCase) -> float:
    """Share of the planted values present in the context."""
    if case.probe.kind == "abstention":
        return math.nan
    values = planted_values(case)
    if not values:
        return math.nan
    return sum(mentions(case.probe.context, v) for v in values) / len(values)
