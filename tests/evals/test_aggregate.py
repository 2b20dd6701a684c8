"""Aggregation: rows, columns, per-conversation metrics and seeded bootstrap CIs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from memlab_evals.reports.aggregate import bootstrap_ci, summarize
from memlab_evals.running.llm_records import JudgeVerdict
from memlab_evals.running.log import (
    ConversationRun,
    ProbeRecord,
    RunConfig,
    RunLog,
    StoredFact,
)

from tests.helpers import CONTRACT_COLUMNS, LLM_COLUMNS

REQUIRED = CONTRACT_COLUMNS + LLM_COLUMNS + [
    "fact_recall",
    "abstention_violation_rate",
    "extraction_precision",
    "extraction_recall",
    "storage_compression_ratio",
    "episode_compression_ratio",
    "ingest_ms_p50",
    "retrieve_ms_p50",
    "brain_calls",
    "brain_tokens",
    "judged_accuracy",
    "evidence_recall_ci_low",
    "evidence_recall_ci_high",
    "answer_recall_ci_low",
    "answer_recall_ci_high",
]
EVIDENCE = "Caroline went to the LGBTQ support group on Sunday"


def probe(system: str, i: int, category: int, held: bool) -> ProbeRecord:
    return ProbeRecord(
        system=system,
        conversation=f"c{i % 2}",
        probe_id=f"p{i}",
        category=category,
        kind="recall",
        question="What did Caroline do?",
        answer="support group",
        evidence=["m1"],
        evidence_texts=[EVIDENCE],
        after_turn="m1",
        context=EVIDENCE if held else "",
        context_tokens=100 if held else 0,
        history_tokens=1000,
        stored_tokens=200,
        retrieve_ms=float(i),
    )


def conv(system: str, i: int, facts: list[StoredFact]) -> ConversationRun:
    return ConversationRun(
        system=system,
        conversation=f"c{i}",
        turns=1,
        ingest_ms=[1.0, 2.0, 3.0],
        brain="rule-based" if system == "A" else "",
        brain_calls=4,
        brain_tokens=40,
        stored_facts=facts,
        turn_texts={"m1": EVIDENCE},
        turn_speakers={"m1": "user"},
    )


def make_log(order: int = 1) -> RunLog:
    good = StoredFact(
        id="f1",
        subject="user",
        category="event",
        key="k",
        value="support group",
        status="active",
        source="extracted",
        turn_ids=["m1"],
    )
    bad = good.model_copy(update={"id": "f2", "value": "chess club"})
    probes = [probe("A", i, 4 if i < 6 else 1, held=i % 3 != 0) for i in range(10)]
    probes += [probe("full", i, 4 if i < 6 else 1, held=True) for i in range(10)]
    return RunLog(
        config=RunConfig(
            dataset="synthetic",
            dataset_hash="0" * 64,
            systems=["A", "full"],
            recipes={"A": {"trigger": "A"}},
            budget=1500,
            workers=1,
            git_commit="x",
            started_at="2025-01-01T00:00:00+00:00",
            memory_lab_version="0.1.0",
        ),
        conversations=[
            conv("A", 0, [good]),
            conv("A", 1, [good, bad]),
            conv("full", 0, []),
            conv("full", 1, []),
        ],
        probes=probes[::order],
    )


def test_rows_columns_and_category_keys():
    summary = summarize(make_log())
    assert set(REQUIRED) <= set(summary.columns)
    keys = list(zip(summary["system"], summary["category"], strict=True))
    assert keys == [
        ("A", "1"),
        ("A", "4"),
        ("A", "all"),
        ("full", "1"),
        ("full", "4"),
        ("full", "all"),
    ]
    assert (summary["dataset"] == "synthetic").all()
    assert summary.set_index(["system", "category"]).loc[("A", "all"), "n"] == 10


def test_probe_and_conversation_metrics_land_where_they_belong():
    s = summarize(make_log()).set_index(["system", "category"])
    assert s.loc[("full", "all"), "evidence_recall"] == 1.0
    assert math.isclose(s.loc[("A", "all"), "evidence_recall"], 0.6)
    # mean over conversations of 0/1 and 1/2 hallucinated
    assert s.loc[("A", "all"), "hallucinated_memory_rate"] == 0.25
    assert math.isnan(s.loc[("A", "4"), "hallucinated_memory_rate"])
    assert math.isnan(s.loc[("full", "all"), "hallucinated_memory_rate"])
    assert s.loc[("full", "all"), "compression_ratio"] == 10.0
    assert s.loc[("A", "all"), "ingest_ms_p50"] == 2.0
    assert s.loc[("A", "all"), "brain_calls"] == 4
    assert math.isnan(s.loc[("A", "all"), "stale_answer_rate"])
    assert s["judged_accuracy"].isna().all()


def test_summary_is_deterministic_whatever_the_probe_order():
    one, two = summarize(make_log()), summarize(make_log(order=-1))
    pd.testing.assert_frame_equal(one, two)


def test_judged_scores_fill_the_column_when_given():
    log = make_log()
    verdict = JudgeVerdict(status="ok", label="CORRECT")
    probes = [
        p.model_copy(update={"answer_verdict": verdict}) if p.system == "A" else p
        for p in log.probes
    ]
    log = log.model_copy(update={"probes": probes})
    s = summarize(log).set_index(["system", "category"])
    assert s.loc[("A", "all"), "judged_accuracy"] == 1.0
    assert math.isnan(s.loc[("full", "all"), "judged_accuracy"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=60))
def test_bootstrap_ci_contains_the_mean_and_is_deterministic(values):
    low, high = bootstrap_ci(np.array(values))
    mean = float(np.mean(values))
    assert low - 1e-9 <= mean <= high + 1e-9
    assert (low, high) == bootstrap_ci(np.array(values))


def test_bootstrap_ci_of_constant_is_degenerate_and_of_nothing_is_nan():
    assert bootstrap_ci(np.ones(5)) == (1.0, 1.0)
    assert all(math.isnan(x) for x in bootstrap_ci(np.array([math.nan])))
