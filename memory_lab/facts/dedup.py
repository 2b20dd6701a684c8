"""One fact, one row: find the stored fact a differently keyed candidate restates.

Extraction names slots from the words used, so "we chose quarterly VAT
reporting" and "let's go with quarterly VAT reporting" arrive under different
keys. Comparing embeddings of "key: value" within one subject and category lets
the second update or confirm the first instead of adding a twin. The threshold
is a config field, measured on examples (see `FactConfig.same_meaning_threshold`).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from memory_lab.embeddings import Embedder
from memory_lab.types import Fact, FactCandidate


def numbers_in(key: str, value: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The numbers a fact names; embeddings barely tell "room 101" from "room 102".

    The value's in the order said ("3 to 5" is not "5 to 3"), the key's as a set.
    """
    number = r"\d+(?:[.,]\d+)*"
    return tuple(sorted(set(re.findall(number, key)))), tuple(re.findall(number, value))


def _same_value(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def slot_words(key: str) -> str:
    """A key as words: "home_city" and "lives.in" read as "home city", "lives in"."""
    return key.replace("_", " ").replace(".", " ")


def meaning_text(key: str, value: str) -> str:
    """What is embedded for a fact: its slot in words, then its value."""
    return f"{slot_words(key)}: {value}"


class MeaningMatcher:
    """Embeds facts once and finds the closest stored fact of the same kind."""

    def __init__(
        self,
        embedder: Embedder,
        threshold: float,
        *,
        slot_threshold: float,
        max_cached: int = 20_000,
    ) -> None:
        """Keep at most `max_cached` vectors, dropping the least recently used.

        A long-lived engine sees every fact text it ever wrote (1.5 KB a vector).
        """
        self._embedder = embedder
        self._threshold = threshold
        self._max_cached = max_cached
        self._slot_threshold = slot_threshold
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    def _vectors_for(self, texts: Sequence[str]) -> list[np.ndarray]:
        missing = sorted({t for t in texts if t not in self._vectors})
        found = {t: self._vectors[t] for t in texts if t in self._vectors}
        if missing:
            for text, vector in zip(
                missing, self._embedder.embed(missing), strict=True
            ):
                found[text] = np.asarray(vector, dtype=np.float32)
        for text in texts:
            self._vectors[text] = found[text]
            self._vectors.move_to_end(text)
        while len(self._vectors) > self._max_cached:
            self._vectors.popitem(last=False)
        return [found[t] for t in texts]

    def match(self, candidate: FactCandidate, active: Sequence[Fact]) -> Fact | None:
        """The active fact of the candidate's subject and category it restates.

        Returns the most similar one at or above the threshold, or None.
        Rows with the candidate's own key are not considered: exact keys are
        reconciled already; nor are rows naming other numbers, which state
        another fact however alike the words.
        """
        numbers = numbers_in(candidate.key, candidate.value)
        pool = [
            f
            for f in active
            if f.subject == candidate.subject
            and f.category == candidate.category
            and f.key != candidate.key
            and numbers_in(f.key, f.value) == numbers
        ]
        if not pool:
            return None
        texts = [meaning_text(candidate.key, candidate.value)]
        texts += [meaning_text(f.key, f.value) for f in pool]
        query, *others = self._vectors_for(texts)
        scores = [float(query @ v) for v in others]
        best = max(range(len(pool)), key=lambda i: (scores[i], pool[i].id))
        if scores[best] < self._threshold:
            return None
        match = pool[best]
        if _same_value(candidate.value, match.value) and not self._same_slot(
            candidate.key, match.key
        ):
            # One value under two slots ("city: tea", "drink: tea"): the value
            # makes the texts alike, so only the slots' own words can tell.
            return None
        return match

    def _same_slot(self, a: str, b: str) -> bool:
        va, vb = self._vectors_for([slot_words(a), slot_words(b)])
        return float(va @ vb) >= self._slot_threshold

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts (vectors are unit length)."""
        va, vb = self._vectors_for([a, b])
        return float(va @ vb)
