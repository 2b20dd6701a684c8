"""The judge-free floor: exact match, contains-gold, numbers and dates."""

from __future__ import annotations

import math

import pytest
from memlab_evals.running.llm_records import ModelAnswer
from memlab_evals.scorers.answer_floor import (
    quantities,
    score_contains,
    score_exact,
    score_numbers,
)
from memlab_evals.scorers.base import ProbeCase

from tests.helpers import probe_record


def case(answer: str | None, gold: str, category: int = 2) -> ProbeCase:
    probe = probe_record(
        category=category,
        kind="abstention" if category == 5 else "recall",
        answer=gold,
        model_answer=None if answer is None else ModelAnswer(text=answer, status="ok"),
    )
    return ProbeCase(probe, None, "locomo")


@pytest.mark.parametrize(
    ("answer", "gold", "exact", "contains"),
    [
        ("The Eiffel Tower.", "eiffel tower", 1.0, 1.0),
        ("She visited the Eiffel Tower in spring", "Eiffel Tower", 0.0, 1.0),
        ("The tower in Paris", "Eiffel Tower", 0.0, 0.0),
        ("Tower Eiffel", "Eiffel Tower", 0.0, 0.0),  # words together and in order
    ],
)
def test_exact_and_contained_answers(answer, gold, exact, contains):
    assert score_exact(case(answer, gold)) == exact
    assert score_contains(case(answer, gold)) == contains


def test_a_multi_hop_gold_scores_the_share_of_its_parts():
    assert score_contains(case("pottery and painting", "pottery, running", 1)) == 0.5


@pytest.mark.parametrize(
    ("answer", "gold", "match"),
    [
        ("On May 7th, 2023.", "7 May 2023", 1.0),
        ("In May 2023", "7 May 2023", 0.0),  # the day is missing
        ("7 May 2022", "7 May 2023", 0.0),  # a year off is wrong
        ("She has 3 kids", "three", 1.0),
        ("2022", "The week before 2022", 1.0),
    ],
)
def test_numbers_and_dates_match_whatever_the_format(answer, gold, match):
    assert score_numbers(case(answer, gold)) == match


def test_what_does_not_apply_is_unscored_not_zero():
    assert math.isnan(score_numbers(case("Paris", "Paris")))  # no number in the gold
    assert math.isnan(score_exact(case(None, "Paris")))  # no answer came back
    assert math.isnan(score_contains(case("not known", "x", category=5)))
    assert "month:5" not in quantities("she may come")  # 'may' the verb
