"""Counts and word sets kept between questions are the ones computed afresh.

Assembly keeps token counts and stored texts' content words, since every
question reads the same memory lines; a kept value must never differ from a
fresh one, whether the text is short (kept), long (counted afresh) or repeated.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_lab.text import content_words, stored_content_words
from memory_lab.tokens import TiktokenCounter, default_counter

TEXTS = st.one_of(
    st.text(max_size=200),
    st.text(alphabet="ab cé漢\n🙂", min_size=1_900, max_size=2_200),
)


@pytest.mark.slow
@given(st.lists(TEXTS, min_size=1, max_size=8))
def test_a_kept_count_is_the_fresh_count(texts):
    counter = default_counter()
    fresh = TiktokenCounter()
    for text in texts + texts:
        assert counter.count(text) == len(fresh._enc.encode(text, disallowed_special=()))


@given(st.lists(st.text(max_size=120), min_size=1, max_size=8))
def test_kept_content_words_are_the_fresh_ones(texts):
    for text in texts + texts:
        assert stored_content_words(text) == frozenset(content_words(text))
