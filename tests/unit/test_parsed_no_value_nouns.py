"""Nouns that never make a value: seasons, and what a person asks for.

"we'll move in spring" says when; "looking for recommendations for a laptop"
asks for help and states nothing the speaker has or is.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("we moved here in autumn", "autumn"),
        ("looking for recommendations for a laptop for coding", "recommendations"),
        ("I need some advice on knee surgery", "advice"),
    ],
)
def test_a_season_or_a_request_is_no_value(text: str, word: str) -> None:
    assert not any(word in v for _, _, v in read(text)), read(text)


def test_a_thing_named_beside_them_still_is() -> None:
    assert any("Whitby" in v for _, _, v in read("we moved to Whitby in autumn"))
