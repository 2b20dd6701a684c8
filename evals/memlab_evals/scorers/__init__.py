"""One scorer per metric, each a pure function of logged records.

Probe scorers take a `ProbeCase` and return a number or NaN (not applicable);
conversation scorers take a `ConversationRun`. `SCORERS` is the registry the
aggregation walks; `SCORER_VERSIONS` goes into every run log so a stored number
can be traced to the scorer that made it; `DIRECTIONS` is the one place that says
which way is better for every summary column, scorers and costs alike.
"""

from __future__ import annotations

from memlab_evals.scorers import (
    abstention,
    answer_floor,
    answer_overlap,
    answer_recall,
    compression,
    evidence_recall,
    extraction,
    fact_recall,
    hallucination,
    judged,
    session_recall,
    stale_answer,
    trigger_effects,
)
from memlab_evals.scorers.base import ProbeCase, Scorer, source_of
from memlab_evals.scorers.trigger_columns import DIRECTIONS as TRIGGER_DIRECTIONS

SCORERS: tuple[Scorer, ...] = (
    Scorer(
        evidence_recall.NAME,
        evidence_recall.VERSION,
        True,
        "probe",
        evidence_recall.score,
    ),
    Scorer(
        evidence_recall.WORD_OVERLAP,
        evidence_recall.VERSION,
        True,
        "probe",
        evidence_recall.score_word_overlap,
    ),
    Scorer(
        session_recall.NAME,
        session_recall.VERSION,
        session_recall.HIGHER_IS_BETTER,
        "probe",
        session_recall.score,
    ),
    Scorer(
        answer_recall.NAME, answer_recall.VERSION, True, "probe", answer_recall.score
    ),
    Scorer(fact_recall.NAME, fact_recall.VERSION, True, "probe", fact_recall.score),
    Scorer(stale_answer.NAME, stale_answer.VERSION, False, "probe", stale_answer.score),
    Scorer(abstention.NAME, abstention.VERSION, False, "probe", abstention.score),
    Scorer(
        "compression_ratio",
        compression.VERSION,
        True,
        "probe",
        compression.context_ratio,
    ),
    Scorer(
        "storage_compression_ratio",
        compression.VERSION,
        True,
        "probe",
        compression.storage_ratio,
    ),
    Scorer(
        answer_overlap.F1,
        answer_overlap.VERSION,
        True,
        "probe",
        answer_overlap.score_f1,
    ),
    Scorer(
        answer_overlap.BLEU1,
        answer_overlap.VERSION,
        True,
        "probe",
        answer_overlap.score_bleu1,
    ),
    Scorer(
        answer_floor.EXACT,
        answer_floor.VERSION,
        True,
        "probe",
        answer_floor.score_exact,
    ),
    Scorer(
        answer_floor.CONTAINS,
        answer_floor.VERSION,
        True,
        "probe",
        answer_floor.score_contains,
    ),
    Scorer(
        answer_floor.NUMBERS,
        answer_floor.VERSION,
        True,
        "probe",
        answer_floor.score_numbers,
    ),
    Scorer(
        answer_overlap.ABSTENTION,
        answer_overlap.VERSION,
        True,
        "probe",
        answer_overlap.score_abstention,
    ),
    Scorer(
        trigger_effects.SUMMARY_ONLY,
        trigger_effects.VERSION,
        True,
        "probe",
        trigger_effects.summary_only,
    ),
    Scorer(judged.ANSWER, judged.VERSION, True, "probe", judged.score_answer),
    Scorer(judged.CONTEXT, judged.VERSION, True, "probe", judged.score_context),
    Scorer(
        hallucination.NAME,
        hallucination.VERSION,
        False,
        "conversation",
        hallucination.score,
    ),
    Scorer(
        extraction.PRECISION,
        extraction.VERSION,
        True,
        "conversation",
        extraction.precision,
    ),
    Scorer(
        extraction.RECALL, extraction.VERSION, True, "conversation", extraction.recall
    ),
    Scorer(
        "episode_compression_ratio",
        compression.VERSION,
        True,
        "conversation",
        compression.episode_ratio,
    ),
)

SCORER_VERSIONS: dict[str, str] = {s.name: s.version for s in SCORERS}

COST_DIRECTIONS: dict[str, str] = {
    "context_tokens_mean": "lower",
    "ingest_ms_p50": "lower",
    "ingest_ms_p95": "lower",
    "retrieve_ms_p50": "lower",
    "retrieve_ms_p95": "lower",
    "brain_calls": "lower",
    "brain_tokens": "lower",
    "llm_calls": "lower",
    "llm_prompt_tokens": "lower",
    "llm_completion_tokens": "lower",
    "llm_cache_hits": "higher",
    "answer_failures": "lower",
    "ragas_llm_failures": "lower",
    "extraction_rejected_rate": "lower",
}

DIRECTIONS: dict[str, str] = {
    **{s.name: "higher" if s.higher_is_better else "lower" for s in SCORERS},
    **COST_DIRECTIONS,
    **TRIGGER_DIRECTIONS,
}
"""Metric column -> 'higher' or 'lower' is better."""

PROBE_SCORERS = tuple(s for s in SCORERS if s.level == "probe")
CONVERSATION_SCORERS = tuple(s for s in SCORERS if s.level == "conversation")

__all__ = [
    "CONVERSATION_SCORERS",
    "DIRECTIONS",
    "PROBE_SCORERS",
    "SCORERS",
    "SCORER_VERSIONS",
    "ProbeCase",
    "Scorer",
    "source_of",
]
