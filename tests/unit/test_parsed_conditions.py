"""Health conditions and classes a person is in, said with "be", "have" or "for".

"I'm epileptic", "my brother is dyslexic", "I'm vegan", "I've got eczema",
"I take propranolol for anxiety": each names something the person lives with.
A mood ("I'm ecstatic"), a denial, a question, a supposition or someone else's
words are not the speaker's condition.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


def _values(text: str, subject: str = "user") -> set[str]:
    return {v for s, _, v in read(text) if s == subject}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm epileptic, so no strobe lights for me", "epileptic"),
        ("honestly I'm celiac", "celiac"),
        ("I'm vegan, have been for years", "vegan"),
        ("we're both vegan", "vegan"),
    ],
)
def test_a_class_adjective_after_be_is_the_persons(text: str, value: str) -> None:
    assert value in _values(text), read(text)


def test_a_relatives_class_is_theirs() -> None:
    assert "dyslexic" in _values("my brother is dyslexic", "user's brother")
    assert "Sikh" in _values("my aunt is Sikh", "user's aunt")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I have asthma", "asthma"),
        ("I've got eczema on my hands", "eczema"),
        ("my husband has ADHD", "ADHD"),
        ("I have tendonitis in my left knee", "tendonitis"),
    ],
)
def test_a_condition_had_is_a_condition(text: str, value: str) -> None:
    subject = "user's husband" if "husband" in text else "user"
    assert value in _values(text, subject), read(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I take propranolol for anxiety", "anxiety"),
        ("I'm on metformin for my diabetes", "diabetes"),
    ],
)
def test_what_a_medicine_is_for_is_a_condition(text: str, value: str) -> None:
    assert value in _values(text), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm ecstatic",
        "I'm so tired",
        "I'm not epileptic",
        "is he dyslexic?",
        "if I were vegan I'd lose weight",
        "my friend says she's celiac",
        "I don't have asthma",
        "do you have eczema?",
        "I have dinner at 7",
        "I have work tomorrow",
    ],
)
def test_a_mood_a_denial_or_a_supposition_is_no_condition(text: str) -> None:
    assert not _values(text), read(text)
