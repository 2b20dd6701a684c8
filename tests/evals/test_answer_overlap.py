"""answer_f1, answer_bleu1 and abstention on hand-built cases with known answers."""

from __future__ import annotations

import math

import pytest
from memlab_evals.running.llm_records import ModelAnswer
from memlab_evals.scorers import ProbeCase
from memlab_evals.scorers.answer_overlap import (
    abstains,
    bleu1,
    f1,
    multi_f1,
    score_abstention,
    score_bleu1,
    score_f1,
    tokens,
)

from tests.helpers import probe_record


def test_normalisation_drops_case_punctuation_commas_and_articles():
    assert tokens("The Cat, and a DOG!") == ["cat", "dog"]
    assert tokens("7 May, 2023.") == ["7", "may", "2023"]
    assert tokens("") == []


@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("Berlin", "Berlin", 1.0),
        ("the city of Berlin", "Berlin", 2 * (1 / 3) * 1 / (1 / 3 + 1)),  # p=1/3, r=1
        ("Paris", "Berlin", 0.0),
        ("", "Berlin", 0.0),
        # two of three gold tokens, two of two predicted: p=1, r=2/3 -> 0.8
        ("pottery class", "a pottery workshop class", 0.8),
        # multiset overlap: "red red" shares one "red" with "red car"
        ("red red", "red car", 0.5),
    ],
)
def test_token_f1(prediction, gold, expected):
    assert f1(prediction, gold) == pytest.approx(expected)


def test_multi_hop_f1_averages_each_gold_part_best_match():
    # gold parts: "hiking" (matched exactly) and "painting" (missed)
    assert multi_f1("hiking, swimming", "hiking, painting") == pytest.approx(0.5)
    assert multi_f1("painting, hiking", "hiking, painting") == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("Berlin", "Berlin", 1.0),
        # 1 of 3 predicted unigrams match; longer than the reference: no penalty
        ("city of Berlin", "Berlin", 1 / 3),
        # one unigram, right, but the reference has two: penalty exp(1 - 2/1)
        ("Berlin", "Berlin Germany", math.exp(-1)),
        # clipping: the reference holds one "berlin", so one of the two counts
        ("Berlin Berlin", "Berlin", 0.5),
        ("", "Berlin", 0.0),
        ("Paris", "Berlin", 0.0),
    ],
)
def test_bleu1(prediction, gold, expected):
    assert bleu1(prediction, gold) == pytest.approx(expected)


@pytest.mark.parametrize(
    "reply",
    ["not known", "Not known.", "Unknown", "I don't know", "Not mentioned."],
)
def test_declining_replies_count_as_abstention(reply):
    assert abstains(reply)


@pytest.mark.parametrize("reply", ["Berlin", "She knows Berlin", "2023-05-07"])
def test_answers_are_not_abstention(reply):
    assert not abstains(reply)


def _case(category: int, gold: str, answer: ModelAnswer | None) -> ProbeCase:
    probe = probe_record(
        category=category,
        kind="abstention" if category == 5 else "recall",
        answer=gold,
        model_answer=answer,
    )
    return ProbeCase(probe, None, "synthetic")


def test_scores_on_probe_records():
    ok = ModelAnswer(status="ok", text="Berlin")
    assert score_f1(_case(4, "Berlin", ok)) == 1.0
    assert score_bleu1(_case(4, "Berlin", ok)) == 1.0
    # open-domain gold counts up to its first semicolon
    assert score_f1(_case(3, "Berlin; maybe Hamburg", ok)) == 1.0
    assert math.isnan(score_abstention(_case(4, "Berlin", ok)))


def test_abstention_probes_are_scored_as_abstention_not_overlap():
    declined = ModelAnswer(status="ok", text="not known")
    guessed = ModelAnswer(status="ok", text="Berlin")
    assert math.isnan(score_f1(_case(5, "not known", declined)))
    assert math.isnan(score_bleu1(_case(5, "not known", declined)))
    assert score_abstention(_case(5, "not known", declined)) == 1.0
    assert score_abstention(_case(5, "not known", guessed)) == 0.0


def test_failed_or_missing_answers_are_unscored_never_zero():
    failed = ModelAnswer(status="failed", error="LLMUnavailableError: down")
    for answer in (failed, None):
        assert math.isnan(score_f1(_case(4, "Berlin", answer)))
        assert math.isnan(score_bleu1(_case(4, "Berlin", answer)))
        assert math.isnan(score_abstention(_case(5, "not known", answer)))
