"""Activities a person does or likes, one value each, also several in one clause.

"I enjoy swimming and cooking", "I wind down by cycling, sketching or playing
the cello", "I do a lot of climbing", "I've been crocheting loads lately":
each activity is a value of its own. A bare activity word names itself, so it
needs no modifier to count, where "I love the idea" and "I enjoy it" name
nothing.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


def _values(text: str) -> set[str]:
    return {v for s, _, v in read(text) if s == "user"}


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("I enjoy swimming and cooking", {"swimming", "cooking"}),
        (
            "honestly I love gardening, pottery and chess",
            {"gardening", "pottery", "chess"},
        ),
        (
            "I wind down by cycling, sketching or playing the cello",
            {"cycling", "sketching", "playing the cello"},
        ),
        ("I do a lot of climbing", {"climbing"}),
        ("doing karate twice a week now", {"karate"}),
    ],
)
def test_each_activity_in_a_list_is_a_value(text: str, values: set[str]) -> None:
    assert values <= _values(text), read(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I've been crocheting loads lately", "crocheting"),
        ("I've been swimming a lot recently", "swimming"),
    ],
)
def test_an_activity_kept_up_lately_is_the_speakers(text: str, value: str) -> None:
    assert value in _values(text), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I love the idea",
        "I enjoy it",
        "do you enjoy swimming?",
        "I don't enjoy swimming",
        "I'd love swimming if I could",
        "my brother loves climbing",
        "I've been thinking a lot lately",
        "I do the dishes every night",
        "I do stuff on weekends",
    ],
)
def test_nothing_named_denied_or_someone_elses_is_no_activity(text: str) -> None:
    assert not _values(text), read(text)
