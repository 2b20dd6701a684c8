"""The incremental BM25 index scores exactly as rank_bm25's BM25Okapi."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from memory_lab.episodes.bm25 import Bm25Index

WORDS = st.sampled_from(["tea", "paris", "nurse", "dog", "melanie", "run", "x1", "q"])
DOCS = st.lists(st.lists(WORDS, min_size=1, max_size=8), min_size=1, max_size=30)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    docs=DOCS,
    later=st.lists(st.lists(WORDS, min_size=1, max_size=8), max_size=10),
    extra=st.lists(st.lists(WORDS, min_size=1, max_size=8), max_size=5),
    query=st.lists(
        st.sampled_from(["tea", "dog", "melanie", "q", "absent"]), max_size=4
    ),
)
def test_scores_equal_bm25okapi_bit_for_bit(docs, later, extra, query):
    index = Bm25Index()
    index.add(docs)
    index.view()  # a cached view must not survive the next add
    index.add(later)
    view = index.view(extra)
    okapi = BM25Okapi(docs + later + extra)
    assert np.array_equal(view.get_scores(query), okapi.get_scores(query))
    assert view.avgdl == okapi.avgdl and view.corpus_size == okapi.corpus_size
    for word in {*query, *okapi.idf}:
        assert view.idf.get(word, 0.0) == okapi.idf.get(word, 0.0)
    assert len(index) == len(docs) + len(later)


def test_an_empty_index_has_no_view_until_it_holds_a_document():
    index = Bm25Index()
    assert index.view() is None
    assert index.view([["tea"]]).get_scores(["tea"]).shape == (1,)
