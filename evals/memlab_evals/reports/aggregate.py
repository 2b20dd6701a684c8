"""The summary.csv roll-up, under the name reports and notebooks import it by.

The roll-up itself lives in `memlab_evals.scorers.summary`, below the runs, so
a sweep (which runs systems and then summarises them) reads it without reaching
up into the reports.
"""

from __future__ import annotations

from memlab_evals.scorers.summary import (
    CI_METRICS,
    COLUMNS,
    LLM_COLUMNS,
    RESAMPLES,
    SEED,
    STORE_METRICS,
    TRIGGER_COLUMNS,
    bootstrap_ci,
    conversation_scores,
    llm_totals,
    probe_scores,
    run_health,
    summarize,
)

__all__ = [
    "CI_METRICS",
    "COLUMNS",
    "LLM_COLUMNS",
    "RESAMPLES",
    "SEED",
    "STORE_METRICS",
    "TRIGGER_COLUMNS",
    "bootstrap_ci",
    "conversation_scores",
    "llm_totals",
    "probe_scores",
    "run_health",
    "summarize",
]
