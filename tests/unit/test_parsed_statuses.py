"""Civil and working statuses: "we got married in June", "I'm retired now".

Each fills one slot of its kind, so a later "divorced" replaces "married". A
status told as past ("I was married for ten years"), denied, asked about,
arranged or planned ("we're getting married in June"), supposed or figurative
("married to my job") is not current.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


@pytest.mark.parametrize(
    ("text", "subject", "key", "value"),
    [
        ("I got engaged last weekend!", "user", "status.relationship", "engaged"),
        ("we got married in Crete in June", "user", "status.relationship", "married"),
        ("I'm retired now", "user", "status.work", "retired"),
        (
            "my sister is pregnant with twins",
            "user's sister",
            "status.pregnancy",
            "pregnant",
        ),
        (
            "my brother got divorced last year",
            "user's brother",
            "status.relationship",
            "divorced",
        ),
    ],
)
def test_a_status_is_read_into_its_slot(
    text: str, subject: str, key: str, value: str
) -> None:
    assert (subject, key, value) in read(text), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I was married for ten years",
        "I'm not married",
        "are you married?",
        "if we got married I'd take his name",
        "we're getting married in June",
        "we're planning to get married next year",
        "when we get married we'll move to Spain",
        "my mum keeps asking when I'll get married",
        "honestly I'm married to my job at this point",
        "pretend I'm single for a sec",
    ],
)
def test_a_past_denied_or_supposed_status_is_none(text: str) -> None:
    assert not any(k.startswith("status.") for _, k, _ in read(text)), read(text)
