"""The report's "Against the project's targets" section, and why a target missed.

A memory recipe is held to the retrieval targets (the best recipe against the
best retriever over raw turns, paired, and against the full history's recall at
a fraction of its tokens); on data with planted truth, to the stale-answer and
hallucinated-memory targets too, with the causes the scorers diagnose.
"""

from __future__ import annotations

import math
from collections import Counter

import pandas as pd
from memlab_datasets.types import TRAP_KINDS

from memlab_evals.reports.goal import against_retrieval
from memlab_evals.running.log import RunLog
from memlab_evals.scorers import ProbeCase, hallucination, source_of, stale_answer
from memlab_evals.systems import is_baseline, names


def _recipes(log: RunLog, summary: pd.DataFrame) -> list[str]:
    ran = list(dict.fromkeys(summary["system"]))
    if log.config.recipes:
        return [s for s in ran if s in log.config.recipes]
    return [s for s in ran if not is_baseline(s)]


def _value(rows: pd.DataFrame, system: str, metric: str) -> float:
    hit = rows[rows["system"] == system]
    return float(hit[metric].iloc[0]) if len(hit) and metric in hit else math.nan


def _best(rows: pd.DataFrame, systems: list[str], metric: str) -> str | None:
    """The system with the highest value of `metric` among those that ran."""
    ran = [s for s in systems if not math.isnan(_value(rows, s, metric))]
    return max(ran, key=lambda s: _value(rows, s, metric)) if ran else None


def retrieval_targets(
    log: RunLog, summary: pd.DataFrame, probes: pd.DataFrame
) -> list[str]:
    """The best recipe against the best retriever and against the full history."""
    rows = summary[summary["category"].astype(str) == "all"]
    recipes = _recipes(log, summary)
    if not recipes:
        return ["- No memory recipe in this run: the targets cannot be checked."]
    best = _best(rows, recipes, "evidence_recall") or recipes[0]
    tokens = _value(rows, best, "context_tokens_mean")
    lines = [
        f"- Best memory recipe by evidence recall: **{best}** "
        f"({_value(rows, best, 'evidence_recall'):.3f})."
    ]
    lines += _retrieval_lines(probes, summary, recipes)
    lines += _against_full(rows, best, tokens, log.config.budget)
    return lines


def _against_retrieval(
    probes: pd.DataFrame, summary: pd.DataFrame, recipes: list[str], metric: str
) -> str:
    """Whether the best recipe beats the best raw-turn retriever on `metric`, paired."""
    if probes.empty or metric not in probes:
        return f"- No probe has {metric}: the target cannot be checked."
    retrievers = list(names("baseline", retrieval=True))
    found = against_retrieval(probes, recipes, retrievers, metric)
    if found is None:
        listed = ", ".join(f"`{b}`" for b in retrievers)
        return (
            f"- {metric}: a recipe and one of {listed} must both run "
            "for the target to be checked."
        )
    line = f"- {metric} target {{}}: {found.sentence()} (paired bootstrap 95%)"
    if found.verdict == "ahead":
        return line.format("met") + "."
    gaps = _category_gaps(summary, found.system, found.other, metric)
    return line.format("NOT met") + f". Largest category gaps: {gaps}."


def _retrieval_lines(
    probes: pd.DataFrame, summary: pd.DataFrame, recipes: list[str]
) -> list[str]:
    return [
        _against_retrieval(probes, summary, recipes, metric)
        for metric in ("evidence_recall", "answer_recall")
    ]


def _against_full(rows: pd.DataFrame, best: str, tokens: float, budget: int) -> list:
    """Share of the full history's recall kept, and with how many fewer tokens."""
    full = _value(rows, "full", "context_tokens_mean")
    if math.isnan(full):
        return ["- `full` was not run: the 15x token target cannot be checked."]
    lines = []
    for metric, need in (("evidence_recall", 0.85), ("answer_recall", 0.75)):
        whole = _value(rows, "full", metric)
        share = _value(rows, best, metric) / whole if whole > 0 else math.nan
        verdict = "met" if share >= need else "MISSED"
        lines.append(
            f"- {metric} kept of full's: {share:.2f} (target {need}): {verdict}."
        )
    if tokens > 0 and full / tokens >= 15:
        lines.append(f"- Token target met: full uses {full / tokens:.1f}x the tokens.")
    else:
        ratio = full / tokens if tokens > 0 else math.inf
        lines.append(
            f"- Token target MISSED: full uses only {ratio:.1f}x {best}'s tokens "
            f"({full:.0f} vs {tokens:.0f}); the budget ({budget}) is too "
            "close to the history length at the probes for a 15x reduction."
        )
    return lines


def _category_gaps(
    summary: pd.DataFrame, system: str, other: str, metric: str = "evidence_recall"
) -> str:
    rows = summary[summary["category"].astype(str) != "all"]
    mine = rows[rows["system"] == system].set_index("category")[metric]
    theirs = rows[rows["system"] == other].set_index("category")[metric]
    gaps = (mine - theirs).dropna().sort_values()
    return (
        ", ".join(f"category {c} {g:+.2f}" for c, g in gaps.head(2).items()) or "none"
    )


def planted_targets(
    log: RunLog, summary: pd.DataFrame, probes: pd.DataFrame
) -> list[str]:
    """The retrieval targets, then stale answers and hallucinated memory per recipe."""
    rows = summary[summary["category"].astype(str) == "all"]
    kinds = {t.get("kind") for r in log.conversations for t in r.traps}
    absent = [k for k in TRAP_KINDS if k not in kinds]
    lines = [
        "- Every trap kind present: "
        + ("yes." if not absent else f"NO, missing {', '.join(absent)}.")
    ]
    lines += _retrieval_lines(probes, summary, _recipes(log, summary))
    stale_why = _stale_reasons(log)
    halluc_why = _hallucination_reasons(log)
    for system in _recipes(log, summary):
        stale = _value(rows, system, "stale_answer_rate")
        halluc = _value(rows, system, "hallucinated_memory_rate")
        if math.isnan(stale):
            lines.append(
                f"- {system}: stale_answer_rate not measured (no update probes)."
            )
        elif stale <= 0.02:
            lines.append(f"- {system}: stale_answer_rate {stale:.3f} <= 0.02: met.")
        else:
            lines.append(
                f"- {system}: stale_answer_rate {stale:.3f} > 0.02: MISSED. Stale "
                f"contexts by cause: {stale_why.get(system) or 'none recorded'}."
            )
        if math.isnan(halluc):
            lines.append(
                f"- {system}: hallucinated_memory_rate not measured (nothing stored)."
            )
        elif halluc <= 0.05 and not absent:
            lines.append(
                f"- {system}: hallucinated_memory_rate {halluc:.3f} <= 0.05: met."
            )
        else:
            verdict = (
                "MISSED" if halluc > 0.05 else "not established (trap kinds missing)"
            )
            lines.append(
                f"- {system}: hallucinated_memory_rate {halluc:.3f}: {verdict}. "
                f"Hallucinated rows by reason: {halluc_why.get(system) or 'none'}."
            )
    return lines


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in counter.most_common())


def _stale_reasons(log: RunLog) -> dict[str, str]:
    runs = {(r.system, r.conversation): r for r in log.conversations}
    source = source_of(log.config)
    found: dict[str, Counter[str]] = {}
    for probe in log.probes:
        case = ProbeCase(probe, runs.get((probe.system, probe.conversation)), source)
        reason = stale_answer.diagnose(case)
        if reason:
            found.setdefault(probe.system, Counter())[reason] += 1
    return {s: _counts(c) for s, c in found.items()}


def _hallucination_reasons(log: RunLog) -> dict[str, str]:
    found: dict[str, Counter[str]] = {}
    for run in log.conversations:
        for verdict in hallucination.verdicts(run):
            for reason in verdict.reasons:
                found.setdefault(run.system, Counter())[reason] += 1
    return {s: _counts(c) for s, c in found.items()}


def retrievers() -> str:
    """The registered retrievers over raw turns, as the report names them."""
    return ", ".join(f"`{b}`" for b in names("baseline", retrieval=True))
