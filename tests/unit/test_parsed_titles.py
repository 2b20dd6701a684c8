"""A title in quotes is one value, whole, in this file's own phrasings."""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.brains.offline.parse.pipeline import parse_many
from memory_lab.brains.offline.parse.titles import quoted_span
from tests.helpers import msg


@pytest.mark.parametrize(
    ("text", "title"),
    [
        (
            'My son keeps rereading "The Gruffalo\'s Child" at bedtime.',
            "The Gruffalo's Child",
        ),
        ("We finally watched \u201cSpirited Away\u201d last night.", "Spirited Away"),
    ],
)
def test_a_quoted_title_is_kept_whole(text: str, title: str) -> None:
    values = {c.value for c in parse_candidates([msg(0, text)])}
    assert title in values, values


def test_a_long_quoted_run_is_no_title() -> None:
    text = (
        'I wrote "call the plumber about the leak under the sink before Friday'
        ' or else" down.'
    )
    doc = next(iter(parse_many([text])))
    inside = next(t for t in doc if t.text == "plumber")
    assert quoted_span(inside) is None
    short = next(iter(parse_many(['I wrote "Plumber Tips" down.'])))
    assert (
        quoted_span(next(t for t in short if t.text == "Tips")).text == "Plumber Tips"
    )
