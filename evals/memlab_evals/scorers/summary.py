"""Per-probe and per-conversation scores rolled up into summary.csv's rows.

One row per system and category plus an ``all`` row per system. Probe metrics are
means over the probes where they apply, with percentile bootstrap 95% intervals;
per-conversation metrics (hallucination, extraction, episode ratio, ingest latency,
brain cost) describe a whole conversation, not a category, so they are averaged over
conversations in the ``all`` row and left empty in category rows. The ``llm_*``
columns are totals for the system over the run: every request its memory (the
brain) and its answers (the answer model) sent, and the calls the cache served.

Probes are sorted before resampling and the generator is seeded, so the same log
gives the same table however many workers produced it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from memlab_evals.running.log import RunLog
from memlab_evals.scorers import (
    CONVERSATION_SCORERS,
    PROBE_SCORERS,
    ProbeCase,
    extraction,
    hallucination,
    source_of,
    trigger_effects,
)
from memlab_evals.scorers.bootstrap import RESAMPLES as RESAMPLES
from memlab_evals.scorers.bootstrap import SEED as SEED
from memlab_evals.scorers.bootstrap import bootstrap_ci
from memlab_evals.scorers.ragas_columns import RAGAS_COLUMNS
from memlab_evals.scorers.trigger_columns import COLUMNS as TRIGGER_COLUMNS
from memlab_evals.scorers.trigger_columns import trigger_columns

CI_METRICS = (
    "evidence_recall",
    "answer_recall",
    "fact_recall",
    "stale_answer_rate",
    "abstention_violation_rate",
)
STORE_METRICS = (hallucination.NAME, extraction.PRECISION, extraction.RECALL)
"""Metrics of a fact store: empty for systems that keep none (the baselines)."""

COLUMNS = [
    "system",
    "dataset",
    "category",
    "n",
    "evidence_recall",
    "evidence_word_overlap",
    "session_recall",
    trigger_effects.SUMMARY_ONLY,
    "answer_recall",
    "fact_recall",
    "answer_f1",
    "answer_bleu1",
    "answer_exact_match",
    "answer_contains_gold",
    "answer_number_date_match",
    "judged_accuracy",
    *RAGAS_COLUMNS.values(),
    "ragas_llm_failures",
    "answer_abstention_accuracy",
    "context_judged_accuracy",
    "answer_failures",
    "stale_answer_rate",
    "abstention_violation_rate",
    "hallucinated_memory_rate",
    "extraction_precision",
    "extraction_recall",
    "compression_ratio",
    "storage_compression_ratio",
    "episode_compression_ratio",
    "context_tokens_mean",
    "ingest_ms_p50",
    "ingest_ms_p95",
    "retrieve_ms_p50",
    "retrieve_ms_p95",
    "brain_calls",
    "brain_tokens",
    "llm_calls",
    "llm_prompt_tokens",
    "llm_completion_tokens",
    "llm_cache_hits",
    "extraction_rejected_rate",
    *trigger_effects.TIER_COLUMNS.values(),
    *TRIGGER_COLUMNS,
    "status",
    "errors",
    "marked_probes",
] + [f"{m}_ci_{side}" for m in CI_METRICS for side in ("low", "high")]

LLM_COLUMNS = {
    "llm_calls": "calls",
    "llm_prompt_tokens": "prompt_tokens",
    "llm_completion_tokens": "completion_tokens",
    "llm_cache_hits": "cache_hits",
}
"""summary column -> the usage counter it totals."""


def probe_scores(log: RunLog) -> pd.DataFrame:
    """One row per logged probe with every probe metric and its costs."""
    source = source_of(log.config)
    runs = {(r.system, r.conversation): r for r in log.conversations}
    rows = []
    for probe in log.probes:
        case = ProbeCase(probe, runs.get((probe.system, probe.conversation)), source)
        row = {
            "system": probe.system,
            "conversation": probe.conversation,
            "probe_id": probe.probe_id,
            "category": probe.category,
            "kind": probe.kind,
            "context_tokens": probe.context_tokens,
            "retrieve_ms": probe.retrieve_ms,
            "marked": float(probe.error is not None),
        }
        row.update({s.name: s.score(case) for s in PROBE_SCORERS})
        row.update(trigger_effects.tier_shares(case))
        row.update(
            {
                column: probe.ragas.get(name, math.nan)
                for name, column in RAGAS_COLUMNS.items()
            }
        )
        row["ragas_failed"] = float(len(probe.ragas_failed))
        answer = probe.model_answer
        row["answer_failed"] = (
            math.nan if answer is None else float(answer.status != "ok")
        )
        rows.append(row)
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    return frame.sort_values(["system", "conversation", "probe_id"], ignore_index=True)


def conversation_scores(log: RunLog) -> pd.DataFrame:
    """One row per system and conversation with the conversation-level metrics."""
    rows = []
    for run in log.conversations:
        keeps_facts = run.system in log.config.recipes or bool(run.brain)
        keeps_facts = keeps_facts or bool(run.stored_facts)
        row = {"system": run.system, "conversation": run.conversation}
        for scorer in CONVERSATION_SCORERS:
            applies = keeps_facts or scorer.name not in STORE_METRICS
            row[scorer.name] = scorer.score(run) if applies else math.nan
        row["brain_calls"] = run.brain_calls
        row["brain_tokens"] = run.brain_tokens
        rows.append(row)
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    return frame.sort_values(["system", "conversation"], ignore_index=True)


def _mean(series: pd.Series) -> float:
    clean = series.dropna()
    return float(clean.mean()) if len(clean) else math.nan


def _quantile(values: list[float] | pd.Series, q: float) -> float:
    array = np.asarray(values, dtype=float)
    return float(np.percentile(array, q)) if array.size else math.nan


def _probe_row(group: pd.DataFrame) -> dict[str, float]:
    row: dict[str, float] = {"n": len(group)}
    for scorer in PROBE_SCORERS:
        row[scorer.name] = _mean(group[scorer.name])
    failed = group["answer_failed"].dropna()
    row["answer_failures"] = float(failed.sum()) if len(failed) else math.nan
    tried = group[RAGAS_COLUMNS["faithfulness"]].notna() | group["ragas_failed"].gt(0)
    row["ragas_llm_failures"] = (
        float(group["ragas_failed"].sum()) if tried.any() else math.nan
    )
    row["marked_probes"] = int(group["marked"].sum())
    row["context_tokens_mean"] = _mean(group["context_tokens"])
    for column in [*trigger_effects.TIER_COLUMNS.values(), *RAGAS_COLUMNS.values()]:
        row[column] = _mean(group[column])
    row["retrieve_ms_p50"] = _quantile(group["retrieve_ms"], 50)
    row["retrieve_ms_p95"] = _quantile(group["retrieve_ms"], 95)
    for metric in CI_METRICS:
        low, high = bootstrap_ci(group[metric].to_numpy())
        row[f"{metric}_ci_low"], row[f"{metric}_ci_high"] = low, high
    return row


def _conversation_row(log: RunLog, system: str, convs: pd.DataFrame) -> dict:
    mine = convs[convs["system"] == system] if not convs.empty else convs
    row: dict[str, float] = {}
    for scorer in CONVERSATION_SCORERS:
        row[scorer.name] = _mean(mine[scorer.name]) if len(mine) else math.nan
    for cost in ("brain_calls", "brain_tokens"):
        row[cost] = _mean(mine[cost]) if len(mine) else math.nan
    ingest = [ms for r in log.conversations if r.system == system for ms in r.ingest_ms]
    row["ingest_ms_p50"] = _quantile(ingest, 50)
    row["ingest_ms_p95"] = _quantile(ingest, 95)
    row.update(llm_totals(log, system))
    row.update(trigger_columns(log, system))
    row.update(run_health(log, system))
    return row


def run_health(log: RunLog, system: str) -> dict:
    """The worst status over a system's conversations and its failures, counted.

    A skipped system has no probes and an empty row: the status says why, so the
    blank is not read as zero.
    """
    runs = [r for r in log.conversations if r.system == system]
    order = ("ok", "errors", "failed")
    statuses = {r.status for r in runs} or {"ok"}
    skipped = sorted(s for s in statuses if s not in order)
    worst = max((s for s in statuses if s in order), key=order.index, default="ok")
    return {
        "status": skipped[0] if skipped else worst,
        "errors": sum(sum(r.errors.values()) for r in runs),
    }


def llm_totals(log: RunLog, system: str) -> dict[str, float]:
    """What a system's brain and answers sent, and its brain's refusal rate.

    Requests, tokens and cache hits are totals over the run; the rate is the share
    of facts the brain proposed that the grounding check refused.
    """
    runs = [r for r in log.conversations if r.system == system]
    answers = log.llm.answer_usage.get(system, {}) if log.llm else {}
    row: dict[str, float] = {}
    for column, key in LLM_COLUMNS.items():
        brain = sum(_usage(r, key) for r in runs)
        row[column] = float(brain + int(answers.get(key, 0)))
    proposed = sum(int(r.brain_usage.get("facts_proposed", 0)) for r in runs)
    rejected = sum(int(r.brain_usage.get("facts_rejected", 0)) for r in runs)
    row["extraction_rejected_rate"] = rejected / proposed if proposed else math.nan
    return row


def _usage(run, key: str) -> int:
    """A brain counter; older logs carry only `brain_calls` and `brain_tokens`."""
    if key in run.brain_usage:
        return int(run.brain_usage[key])
    return run.brain_calls if key == "calls" else 0


def _systems(log: RunLog) -> list[str]:
    seen = list(log.config.systems)
    for name in [p.system for p in log.probes] + [r.system for r in log.conversations]:
        if name not in seen:
            seen.append(name)
    return seen


def summarize(log: RunLog, probes: pd.DataFrame | None = None) -> pd.DataFrame:
    """summary.csv's table: per system, one row per category, then the ``all`` row.

    Answer and judge columns come from the answers and verdicts stored in the log;
    without them they stay empty (unscored), never zero. `probes` is
    `probe_scores(log)` when the caller has it already (scoring a LoCoMo run takes
    tens of seconds).
    """
    probes = probe_scores(log) if probes is None else probes
    convs = conversation_scores(log)
    rows = []
    for system in _systems(log):
        mine = probes[probes["system"] == system] if not probes.empty else probes
        categories = sorted(mine["category"].unique()) if len(mine) else []
        for category in categories:
            row = {"system": system, "category": str(category)}
            row.update(_probe_row(mine[mine["category"] == category]))
            rows.append(row)
        row = {"system": system, "category": "all"}
        if len(mine):
            row.update(_probe_row(mine))
        else:
            row["n"] = 0
        row.update(_conversation_row(log, system, convs))
        rows.append(row)
    frame = pd.DataFrame(rows).reindex(columns=COLUMNS)
    frame["dataset"] = log.config.dataset
    frame["n"] = frame["n"].fillna(0).astype(int)
    return frame
