"""Sums of money the speaker states are read, keyed by what they are for.

In this file's own phrasings, none from the statement sets: a sum marked as
money (a sign, a currency word, a "k", a rate) or a large number said of
something the speaker calls theirs.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.amounts import is_amount
from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.brains.offline.parse.pipeline import parse_many
from tests.helpers import msg


def readings(text: str) -> list[tuple[str, str, str]]:
    return [(c.subject, c.key, c.value) for c in parse_candidates([msg(0, text)])]


@pytest.mark.parametrize(
    ("text", "key_word", "value"),
    [
        ("council tax's £160 a month here, daylight robbery", "tax", "£160 a month"),
        ("the gym membership came to 45 quid a month", "membership", "45 quid"),
        ("we blow about 300 a month on takeaways honestly", "takeaway", "300"),
        ("I'm on 31k now after the pay rise", "amount", "31k"),
        ("my pension pot is around 14,500 so far", "pot", "14,500"),
        ("Our water bill jumped to $120 a quarter", "bill", "$120"),
    ],
)
def test_a_stated_sum_is_the_speakers_under_what_it_is_for(
    text: str, key_word: str, value: str
) -> None:
    found = readings(text)
    assert any(s == "user" and key_word in k and value in v for s, k, v in found), found


@pytest.mark.parametrize(
    "text",
    [
        "if I earned 50k a year I'd move to London",
        "her salary is 60k",
        "she pays 700 a month for her flat",
        "we'd love to spend 500 on a new sofa one day",
        "anything over 900 on a car is too much",
    ],
)
def test_a_sum_imagined_or_someone_elses_is_not_the_speakers(text: str) -> None:
    found = readings(text)
    sums = [v for s, _, v in found if s == "user" and any(c.isdigit() for c in v)]
    assert sums == [], found


@pytest.mark.parametrize(
    ("text", "word", "money"),
    [
        ("I run 3 times a week", "3", False),
        ("I walked 10,000 steps today", "10,000", False),
        ("the flight is on the 12th at 9:40", "9:40", False),
        ("it was 20 euros", "20", True),
        ("rent is 900 a month", "900", True),
    ],
)
def test_only_a_number_marked_as_money_is_a_sum(
    text: str, word: str, money: bool
) -> None:
    (doc,) = parse_many([text])
    token = next(t for t in doc if t.text == word)
    assert is_amount(token) is money


@pytest.mark.parametrize(
    "text",
    [
        "my brother earns 80k",
        "Mark earns about 60k a year",
        "want to get to 4k by spring",
    ],
)
def test_a_persons_sum_or_a_target_is_not_the_speakers(text: str) -> None:
    assert not any(s == "user" for s, _, _ in readings(text)), readings(text)
