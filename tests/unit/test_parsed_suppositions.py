"""A supposition reaches every verb it governs, however the parse hangs them."""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from tests.helpers import msg


def values(text: str) -> set[str]:
    return {c.value for c in parse_candidates([msg(0, text)])}


@pytest.mark.parametrize(
    ("text", "unsaid"),
    [
        ("I'd get a camper van and just drive across Canada", "Canada"),
        ("if I had the time I'd rent a cottage and write in Cornwall", "Cornwall"),
        ("we'd sell the flat and retire to Crete", "Crete"),
    ],
)
def test_a_verb_joined_to_a_wish_is_a_wish_too(text: str, unsaid: str) -> None:
    assert unsaid not in values(text)


def test_a_verb_joined_to_a_plain_statement_is_read() -> None:
    got = values("I bought a camper van and drove across Canada")
    assert "Canada" in got
