"""A run becomes a ragas dataset, and its non-LLM metrics run offline."""

from __future__ import annotations

import os

import pytest
from memlab_evals.ragas_bridge import score_offline, to_evaluation_dataset

from tests.evals.test_aggregate import make_log


@pytest.fixture(autouse=True)
def _no_llm(monkeypatch):
    monkeypatch.delenv("MEMORY_LAB_JUDGE_BASE_URL", raising=False)


def test_dataset_has_one_sample_per_probe_with_references():
    dataset = to_evaluation_dataset(make_log(), "full")
    assert os.environ["RAGAS_DO_NOT_TRACK"] == "true"
    assert len(dataset.samples) == 10
    sample = dataset.samples[0]
    assert sample.reference == "support group"
    assert sample.reference_contexts == [
        "Caroline went to the LGBTQ support group on Sunday"
    ]
    assert sample.retrieved_contexts


def test_offline_id_recall_credits_contexts_that_carry_the_evidence_turn():
    log = make_log()
    probes = [
        p.model_copy(update={"context_items": ["m1"] if p.context else []})
        for p in log.probes
    ]
    frame = score_offline(log.model_copy(update={"probes": probes}), "A")
    assert len(frame) == 10
    held = [
        bool(p.context)
        for p in sorted(
            (p for p in probes if p.system == "A"),
            key=lambda p: (p.conversation, p.probe_id),
        )
    ]
    assert frame["id_based_context_recall"].tolist() == [float(h) for h in held]
    if "non_llm_context_recall" in frame:
        assert not frame["non_llm_context_recall"].isna().all()
