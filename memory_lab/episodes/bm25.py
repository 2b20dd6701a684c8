"""Okapi BM25 over a growing list of documents, updated one document at a time.

The excerpt and turn indexes used `rank_bm25.BM25Okapi`, which counts every
document again whenever one is added and reads every document's word counts in
Python on every query, so a question cost more the longer the conversation had
run. This keeps an inverted index (word -> the documents holding it, with their
counts) that a new document extends, and scores a query with numpy from the
postings of its words alone.

The scores are BM25Okapi's to the last bit (same k1, b and epsilon floor on the
idf, the same float operations in the same order), so every ranking built on
them is unchanged: the average idf that sets the floor is summed in the order
the words first appeared, as BM25Okapi sums it, and each idf uses `math.log`.
A test holds the two equal on random corpora. Why not SQLite FTS5, bm25s or
tantivy: each scores with its own BM25 variant and tokenizer, which would move
every ranking the evals report, and all three need their index rebuilt or
merged to see the few window turns each question adds to the pool.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import overload

import numpy as np

K1 = 1.5
B = 0.75
EPSILON = 0.25


def _counts(doc: Sequence[str]) -> dict[str, int]:
    """Word counts in order of first appearance, as BM25Okapi makes them."""
    counts: dict[str, int] = {}
    for word in doc:
        counts[word] = counts.get(word, 0) + 1
    return counts


class Bm25Index:
    """Documents (lists of words) appended over time; `view` scores queries."""

    k1 = K1
    b = B
    epsilon = EPSILON

    def __init__(self) -> None:
        self._ids: dict[str, list[int]] = {}
        self._tfs: dict[str, list[int]] = {}
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._position: dict[str, int] = {}
        self._df: list[int] = []
        self._doc_len: list[int] = []
        self._total = 0
        self._base: Bm25View | None = None

    def __len__(self) -> int:
        return len(self._doc_len)

    def add(self, docs: Sequence[Sequence[str]]) -> None:
        """Append documents; only their own words' postings change."""
        for doc in docs:
            n = len(self._doc_len)
            self._doc_len.append(len(doc))
            self._total += len(doc)
            for word, tf in _counts(doc).items():
                if word not in self._position:
                    self._position[word] = len(self._df)
                    self._df.append(0)
                    self._ids[word] = []
                    self._tfs[word] = []
                self._df[self._position[word]] += 1
                self._ids[word].append(n)
                self._tfs[word].append(tf)
                self._arrays.pop(word, None)
        if docs:
            self._base = None

    def postings(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """The documents holding `word` and its count in each, as arrays."""
        cached = self._arrays.get(word)
        if cached is None:
            cached = (
                np.asarray(self._ids.get(word, ()), dtype=np.int64),
                np.asarray(self._tfs.get(word, ()), dtype=np.int64),
            )
            self._arrays[word] = cached
        return cached

    def view(self, extra: Sequence[Sequence[str]] = ()) -> Bm25View | None:
        """The index with `extra` documents after its own, ready to score.

        None when there is no document at all. The view without extras is
        kept until the next `add`.
        """
        if not extra and self._base is not None:
            return self._base
        if not self._doc_len and not extra:
            return None
        made = Bm25View(self, [_counts(doc) for doc in extra], [len(d) for d in extra])
        if not extra:
            self._base = made
        return made


class Bm25View:
    """BM25Okapi's statistics over the index's documents plus a few extra ones.

    Exposes what BM25Okapi does that callers read: `idf`, `k1`, `b`, `avgdl`,
    `corpus_size` and `get_scores`.
    """

    def __init__(
        self, index: Bm25Index, extra: list[dict[str, int]], extra_len: list[int]
    ) -> None:
        self._index = index
        self._extra = extra
        self.k1, self.b, self.epsilon = index.k1, index.b, index.epsilon
        base_n = len(index._doc_len)
        self.corpus_size = base_n + len(extra)
        self.avgdl = (index._total + sum(extra_len)) / self.corpus_size
        self._doc_len = np.asarray(index._doc_len + extra_len)
        df = list(index._df)
        added: dict[str, int] = {}
        for counts in extra:
            for word in counts:
                pos = index._position.get(word)
                if pos is None:
                    pos = added.setdefault(word, len(df))
                    if pos == len(df):
                        df.append(0)
                df[pos] += 1
        self._added = added
        self._df = df
        self._idf_floor, self._lut = self._idf_table(np.asarray(df, dtype=np.int64))
        self.idf = _IdfLookup(self)

    def _idf_table(self, df: np.ndarray) -> tuple[float, dict[int, float]]:
        """The floor on negative idfs and each document frequency's idf.

        Each idf is computed with `math.log` once per distinct frequency, and
        their sum runs word by word in order of first appearance (a cumulative
        sum is sequential), so the floor equals BM25Okapi's exactly.
        """
        n = self.corpus_size
        lut = {
            int(f): math.log(n - int(f) + 0.5) - math.log(int(f) + 0.5)
            for f in np.unique(df)
        }
        table = np.zeros(int(df.max()) + 1 if len(df) else 1)
        for f, idf in lut.items():
            table[f] = idf
        idf_sum = float(np.cumsum(table[df])[-1]) if len(df) else 0.0
        average = idf_sum / len(df) if len(df) else 0.0
        return self.epsilon * average, lut

    def idf_of(self, word: str) -> float | None:
        """The word's idf, floored as BM25Okapi floors it; None if unseen."""
        pos = self._index._position.get(word)
        if pos is None:
            pos = self._added.get(word)
        if pos is None:
            return None
        idf = self._lut[self._df[pos]]
        return self._idf_floor if idf < 0 else idf

    def share(self, word: str) -> float:
        """The fraction of documents holding the word (0.0 if unseen)."""
        pos = self._index._position.get(word)
        if pos is None:
            pos = self._added.get(word)
        return 0.0 if pos is None else self._df[pos] / self.corpus_size

    def get_scores(self, query: Sequence[str]) -> np.ndarray:
        """BM25Okapi's score of every document for the query words, in order.

        Only the documents holding a word are touched for it (a document without
        it would add exactly 0.0), so a word costs its postings, not the corpus.
        """
        n = self.corpus_size
        base_n = n - len(self._extra)
        score = np.zeros(n)
        doc_len = self._doc_len
        for q in query:
            ids, tfs = self._index.postings(q)
            more = [(base_n + j, c[q]) for j, c in enumerate(self._extra) if c.get(q)]
            if more:
                ids = np.concatenate([ids, np.asarray([i for i, _ in more])])
                tfs = np.concatenate([tfs, np.asarray([t for _, t in more])])
            if not len(ids):
                continue
            q_freq = np.asarray(tfs, dtype=np.int64)
            score[ids] += (self.idf_of(q) or 0) * (
                q_freq
                * (self.k1 + 1)
                / (q_freq + self.k1 * (1 - self.b + self.b * doc_len[ids] / self.avgdl))
            )
        return score


class _IdfLookup:
    """`view.idf.get(word, default)`, as on BM25Okapi's idf dict."""

    def __init__(self, view: Bm25View) -> None:
        self._view = view

    @overload
    def get(self, word: str) -> float | None: ...

    @overload
    def get(self, word: str, default: float) -> float: ...

    @overload
    def get(self, word: str, default: float | None) -> float | None: ...

    def get(self, word: str, default: float | None = None) -> float | None:
        """The word's idf, or `default` if unseen."""
        idf = self._view.idf_of(word)
        return default if idf is None else idf
