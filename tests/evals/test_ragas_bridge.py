"""A run becomes a ragas dataset, and its non-LLM metrics run offline."""

from __future__ import annotations

import os

import pytest
from memlab_evals.judging.ragas_bridge import score_offline, to_evaluation_dataset

from tests.evals.test_aggregate import make_log


@pytest.fixture(autouse=True)
def _no_llm(monkeypatch):
    monkeypatch.delenv("MEMORY_LAB_JUDGE_BASE_URL", raising=False)


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_eval_ragas_columns_come_from_each_probe():
    from memlab_evals.judging.ragas_bridge import with_ragas
    from memlab_evals.reports.aggregate import summarize

    log = with_ragas(make_log())
    scored = [p for p in log.probes if p.ragas]
    assert scored and all("non_llm_context_recall" in p.ragas for p in scored)
    rows = summarize(log)
    alls = rows[rows["category"] == "all"].set_index("system")
    assert (
        alls.loc["full", "ragas_context_recall"]
        >= alls.loc["A", "ragas_context_recall"]
    )
    # string presence needs a model's answer: none here, so unscored, not zero
    assert alls["ragas_string_presence"].isna().all()


def test_ragas_and_evidence_recall_disagree_on_a_reworded_summary():
    """A summary that keeps every content word but not the sentence.

    evidence_recall holds a turn when 80% of its content words are in the
    context, so it credits the summary in full; ragas's non-LLM recall compares
    the turn with each context line by string similarity, so it credits nothing.
    """
    from memlab_evals.scorers import evidence_recall
    from memlab_evals.scorers.base import ProbeCase

    log = make_log()
    first = next(p for p in log.probes if p.system == "full")
    turn = first.evidence_texts[
        0
    ]  # "Caroline went to the LGBTQ support group on Sunday"
    reworded = "Sunday: support group (LGBTQ), where Caroline went"
    for context, ours, theirs in ((turn, 1.0, 1.0), (reworded, 1.0, 0.0)):
        probe = first.model_copy(update={"context": context})
        one = log.model_copy(update={"probes": [probe]})
        frame = score_offline(one, "full")
        assert evidence_recall.score(ProbeCase(probe, None, "synthetic")) == ours
        assert frame["non_llm_context_recall"].iloc[0] == theirs
