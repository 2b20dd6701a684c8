"""A role told as the frame of what the speaker says: "as a midwife I ...".

"as a midwife I see this all the time" and "as a vegan I struggle at
barbecues" tell what the speaker is. "as a kid I loved Lego" is the past, "as
a result I ..." names no kind of person, and a question or someone else's
frame is not the speaker's.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("as a midwife I see this all the time", "midwife"),
        ("honestly as a vegan I struggle at barbecues", "vegan"),
        ("as a locksmith I get called out at 3am", "locksmith"),
    ],
)
def test_as_a_role_is_the_speakers(text: str, value: str) -> None:
    assert any(s == "user" and v == value for s, _, v in read(text)), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "as a kid I loved Lego",
        "as a result I missed the bus",
        "as a midwife would you recommend it?",
        "as a locksmith my brother gets called out at 3am",
    ],
)
def test_a_past_a_thing_a_question_or_another_is_no_role(text: str) -> None:
    got = read(text)
    assert not any(
        s == "user" and v in {"kid", "result", "midwife", "locksmith"}
        for s, _, v in got
    ), got
