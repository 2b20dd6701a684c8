"""A fact told before a question in the same sentence is still told.

"I just moved to Cardiff, any tips for good cafes?" states the move and then
asks; only the clause that asks is a question. The clause set off before it by
a comma or a dash is read as any statement is. A clause that is itself asked
("did you move to Cardiff, or was it Bath?") or one after the question mark's
clause states nothing.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


def _values(text: str) -> set[str]:
    return {v for s, _, v in read(text) if s == "user"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I just moved to Cardiff, any tips for good cafes?", "Cardiff"),
        ("I work at Lidl - is it worth asking for a raise?", "Lidl"),
        ("we adopted a ferret last week, what should she eat?", "ferret"),
        ("I'm a midwife so what's the best way to sleep after nights?", "midwife"),
    ],
)
def test_a_statement_before_the_question_is_kept(text: str, value: str) -> None:
    assert any(value in v for v in _values(text)), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "did you move to Cardiff, or was it Bath?",
        "should I move to Cardiff, or stay in Bath?",
        "do you think I should work at Lidl?",
        "what if I moved to Cardiff, would that help?",
        "is it true you work at Lidl?",
    ],
)
def test_a_clause_that_asks_states_nothing(text: str) -> None:
    assert not _values(text), read(text)
