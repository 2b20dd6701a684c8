"""Whether the best memory recipe beats the best retrieval over raw turns.

Both systems answer the same probes, so the question is settled on the per-probe
difference, paired: one bootstrap of the mean difference. Two separate intervals
that overlap can still hide a difference every probe agrees on, and two that do not
overlap can come from a few probes; the paired interval says which.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from memlab_evals.reports.aggregate import bootstrap_ci


@dataclass(frozen=True)
class Comparison:
    """Mean per-probe difference `system - other` on one metric, with its interval."""

    metric: str
    system: str
    other: str
    n: int
    difference: float
    low: float
    high: float

    @property
    def verdict(self) -> str:
        """Ahead or behind when the interval excludes 0, tied when it spans it."""
        if math.isnan(self.low):
            return "unscored"
        if self.low > 0:
            return "ahead"
        if self.high < 0:
            return "behind"
        return "tied"

    def sentence(self) -> str:
        """One line for a report: the difference, its interval and the verdict."""
        return (
            f"{self.system} - {self.other} = {self.difference:+.3f} "
            f"[{self.low:+.3f}, {self.high:+.3f}] over {self.n} paired probes: "
            f"**{self.verdict}**"
        )


def paired_difference(
    probes: pd.DataFrame, system: str, other: str, metric: str
) -> Comparison:
    """Compare two systems on the probes both were scored on.

    `probes` is `aggregate.probe_scores`'s frame. A probe one system was not scored
    on (NaN) is left out of both sides, never counted as 0.
    """
    keys = ["conversation", "probe_id"]
    mine = probes[probes["system"] == system].set_index(keys)[metric]
    theirs = probes[probes["system"] == other].set_index(keys)[metric]
    both = pd.concat([mine, theirs], axis=1, keys=["a", "b"], join="inner").dropna()
    diff = (both["a"] - both["b"]).to_numpy(dtype=float)
    if diff.size == 0:
        return Comparison(metric, system, other, 0, math.nan, math.nan, math.nan)
    low, high = bootstrap_ci(diff)
    return Comparison(
        metric, system, other, int(diff.size), float(diff.mean()), low, high
    )


def best_of(probes: pd.DataFrame, systems: list[str], metric: str) -> str | None:
    """The system among `systems` with the highest mean `metric`, if any ran."""
    means = {
        s: probes.loc[probes["system"] == s, metric].mean()
        for s in systems
        if (probes["system"] == s).any()
    }
    means = {s: m for s, m in means.items() if not math.isnan(m)}
    return max(means, key=lambda s: (means[s], s)) if means else None


def against_retrieval(
    probes: pd.DataFrame, recipes: list[str], retrievers: list[str], metric: str
) -> Comparison | None:
    """Best recipe against best raw-turn retriever on `metric`.

    None when no recipe or no retriever was run.
    """
    mine = best_of(probes, recipes, metric)
    theirs = best_of(probes, retrievers, metric)
    if mine is None or theirs is None:
        return None
    return paired_difference(probes, mine, theirs, metric)
