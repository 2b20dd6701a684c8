"""Whether a question asks about the past: read from its parse, not a phrase list."""

from __future__ import annotations

import pytest

from memory_lab.context import tense
from memory_lab.errors import MemoryLabError


@pytest.mark.parametrize(
    "question",
    [
        "Which team does my brother coach?",
        "Where am I based at the moment?",
        "How much rent do we pay?",
        "Is the dentist still on Harbour Street?",
        "What did you say my password hint is?",
        "What did I tell you about the new flat?",
        "I'm packing today. Which airline am I flying with?",
        "whats the wifi name",
        "Do I need anything before the flight on Monday?",
    ],
)
def test_questions_about_how_things_stand(question):
    assert not tense.asks_about_past(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which team did my brother coach?",
        "How much rent were we paying in 2023?",
        "Where has she worked?",
        "Which gym was I a member of originally?",
        "What phone did I use to have?",
        "What did I say the old address was?",
        "Where was the office earlier?",
        "Which flat did we rent previously?",
    ],
)
def test_questions_about_how_things_stood(question):
    assert tense.asks_about_past(question)


def test_a_word_for_the_present_wins_over_a_past_verb():
    assert not tense.asks_about_past("Which team was my brother coaching now?")


def test_without_the_parser_the_adverbs_and_past_auxiliaries_still_count(
    monkeypatch,
):
    def missing(texts):
        raise MemoryLabError("no parser here")

    monkeypatch.setattr(
        "memory_lab.brains.offline.parse.pipeline.parse_many", missing, raising=True
    )
    assert tense.asks_about_past("Where did we go skiing?")
    assert tense.asks_about_past("Which dentist did I see before?")
    assert not tense.asks_about_past("Which dentist do I see?")
