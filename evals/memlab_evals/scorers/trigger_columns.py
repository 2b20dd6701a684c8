"""The summary columns that show what a recipe's triggers did and cost.

Pooled over a system's conversations (a rate per 1,000 turns divides total by
total; a percentile is taken over every compressed turn), because conversations
differ in length and a mean of per-conversation rates would weigh a short one
like a long one. Systems without triggers (baselines, peers) get empty cells.
"""

from __future__ import annotations

import math

import numpy as np

from memlab_evals.running.log import RunLog

COLUMNS: tuple[str, ...] = (
    "compressions_per_1k_turns",
    "brain_input_tokens_per_1k_turns",
    "compress_input_tokens_per_1k_turns",
    "brain_cost_per_1k_turns",
    "wait_turns_p50",
    "wait_turns_p95",
    "wait_minutes_p50",
    "wait_minutes_p95",
    "episode_coherence",
    "prefix_changes_per_1k_turns",
)
DIRECTIONS: dict[str, str] = {
    "compressions_per_1k_turns": "lower",
    "brain_input_tokens_per_1k_turns": "lower",
    "compress_input_tokens_per_1k_turns": "lower",
    "brain_cost_per_1k_turns": "lower",
    "wait_turns_p50": "lower",
    "wait_turns_p95": "lower",
    "wait_minutes_p50": "lower",
    "wait_minutes_p95": "lower",
    "episode_coherence": "higher",
    "prefix_changes_per_1k_turns": "lower",
}
"""Which way is cheaper or better; a trade-off, not a verdict (waiting longer
costs context, compressing sooner costs brain reads)."""

READ_KINDS = ("summarize_tokens", "condense_tokens", "extract_tokens", "periods_tokens")
COMPRESS_KINDS = ("summarize_tokens", "condense_tokens")
"""Extraction and day summaries read every turn whatever the trigger; what is
compressed, and so summarised and condensed, is the trigger's choice."""


def trigger_columns(log: RunLog, system: str) -> dict[str, float]:
    """The columns for one system; NaN where it has no triggers.

    Brain reads count episode summaries, condensations, extraction and day
    summaries; the compress column keeps only the first two, the part a trigger
    decides.
    """
    runs = [r for r in log.conversations if r.system == system and r.trigger]
    row = dict.fromkeys(COLUMNS, math.nan)
    turns = sum(r.turns for r in runs)
    if not runs or not turns:
        return row
    per_1k = 1000 / turns
    reads = sum(sum(r.trigger.brain_reads.get(k, 0) for k in READ_KINDS) for r in runs)
    row["compressions_per_1k_turns"] = sum(r.compressions for r in runs) * per_1k
    row["brain_input_tokens_per_1k_turns"] = reads * per_1k
    compress = sum(
        sum(r.trigger.brain_reads.get(k, 0) for k in COMPRESS_KINDS) for r in runs
    )
    row["compress_input_tokens_per_1k_turns"] = compress * per_1k
    price = log.llm.price_per_1k_prompt if log.llm else None
    if price is not None:
        row["brain_cost_per_1k_turns"] = reads * per_1k / 1000 * price
    waits = [w for r in runs for w in r.trigger.wait_turns]
    minutes = [m for r in runs for m in r.trigger.wait_minutes]
    for name, values in (("wait_turns", waits), ("wait_minutes", minutes)):
        if values:
            row[f"{name}_p50"] = float(np.percentile(values, 50))
            row[f"{name}_p95"] = float(np.percentile(values, 95))
    coherence = [
        e.coherence for r in runs for e in r.episodes if e.coherence is not None
    ]
    if coherence:
        row["episode_coherence"] = float(np.mean(coherence))
    row["prefix_changes_per_1k_turns"] = (
        sum(r.trigger.prefix_changes for r in runs) * per_1k
    )
    return row
