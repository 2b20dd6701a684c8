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

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
"""A number as facts write it: "3", "1,200", "3.5"."""


def numbers_in(key: str, value: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The numbers a fact names; embeddings barely tell "room 101" from "room 102".

    The value's in the order said ("3 to 5" is not "5 to 3"), the key's as a set.
    """
    return tuple(sorted(set(NUMBER.findall(key)))), tuple(NUMBER.findall(value))


def masked(text: str) -> str:
    """A fact's text with its numbers as N: the slot and the unit, not the amount.

    An update of an amount changes the number by definition, so two statements
    of one budget differ exactly where embeddings barely look and the number
    guard looks hardest; with the numbers masked, "budget: $N a month max" and
    "spend limit extras: $N a month" compare as what they are.
    """
    return NUMBER.sub("N", text)


_PERIOD = re.compile(
    r"\b(?:(?:per|a|an|each|every)\s+(day|week|month|year|hour|night)|"
    r"(dai|week|month|year|hour|night)ly|annual(?:ly)?)\b",
    re.I,
)
_UNIT = re.compile(
    r"[$€£¥]|\b(euro|dollar|pound|kr|sek|nok|usd|eur|gbp|percent|kg|km|mile|"
    r"minute|hour|day|week|month|year)s?\b|%",
    re.I,
)


def _period(text: str) -> str | None:
    m = _PERIOD.search(text.replace("_", " "))
    if m is None:
        return None
    word = (m.group(1) or m.group(2) or "year").lower()
    return "day" if word == "dai" else word


def same_shape(a: Fact | FactCandidate, b: Fact | FactCandidate) -> bool:
    """Whether two amounts are said in the same units, and per the same period.

    "$50 a week" and "$80 a week" are; "$50" and "50 minutes" are not. A period
    is read from the value or the key ("weekly_grocery_budget"); when only one
    side names one, the two may still be the same amount.
    """
    units = [
        {
            m.group(0).lower().rstrip("s")
            for m in _UNIT.finditer(_PERIOD.sub("", f.value))
        }
        for f in (a, b)
    ]
    if units[0] != units[1]:
        return False
    periods = [_period(f"{f.key} {f.value}") for f in (a, b)]
    return None in periods or periods[0] == periods[1]


def listed(fact: Fact | FactCandidate) -> bool:
    """Whether a key's qualifiers only repeat its value ("likes.jazz" = jazz)."""
    qualifiers = {w for q in fact.key.lower().split(".")[1:] for w in q.split("_")}
    return bool(qualifiers) and qualifiers <= set(fact.value.lower().split())


def qualifiers_agree(a: str, b: str) -> bool:
    """Whether two keys' qualifiers can name one slot: one has none, or one is shared.

    Keys are a head, then qualifiers after dots ("budget.rent"); "budget" and
    "spend_limit.extras" may be one slot, "budget.rent" and "budget.food" are not.
    """
    left = {w for q in a.lower().split(".")[1:] for w in q.split("_") if w}
    right = {w for q in b.lower().split(".")[1:] for w in q.split("_") if w}
    return not (left and right) or bool(left & right)


def _same_value(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def slot_words(key: str) -> str:
    """A key as words: "home_city" and "lives.in" read as "home city", "lives in"."""
    return key.replace("_", " ").replace(".", " ")


RECORD = "knowledge"
"""The category that is a record, not a set of slots: a stated change of a
value in it replaces nothing by likeness (an amount still replaces an amount)."""


def meaning_text(key: str, value: str) -> str:
    """What is embedded for a fact: its slot in words, then its value."""
    return f"{slot_words(key)}: {value}"


def _only_value_of_relation(
    candidate: FactCandidate, pool: Sequence[Fact]
) -> Fact | None:
    """The one stored value listed under the candidate's relation, if only one is.

    "Actually, I'd rather have short paragraphs from now on" names no slot but
    its relation (`prefers.short_paragraphs`), and its value embeds no nearer
    "numbered lists" than "tea". The parse says the statement is a change of
    what the speaker prefers; when the speaker holds one preference of that
    relation, that one is what changed. With several, only meaning may choose
    (`MeaningMatcher.changed`), and below its floor nothing is replaced.
    """
    if not listed(candidate):
        return None
    head = candidate.key.split(".")[0]
    same = [
        f
        for f in pool
        if f.key.split(".")[0] == head and listed(f) and not NUMBER.search(f.value)
    ]
    return same[0] if len(same) == 1 else None


class MeaningMatcher:
    """Embeds facts once and finds the closest stored fact of the same kind."""

    def __init__(
        self,
        embedder: Embedder,
        threshold: float,
        *,
        slot_threshold: float,
        quantity_threshold: float = 1.0,
        kind_threshold: float = 1.0,
        relation_bonus: float = 0.0,
        max_cached: int = 20_000,
    ) -> None:
        """Keep at most `max_cached` vectors, dropping the least recently used.

        A long-lived engine sees every fact text it ever wrote (1.5 KB a vector).
        """
        self._embedder = embedder
        self._threshold = threshold
        self._max_cached = max_cached
        self._slot_threshold = slot_threshold
        self._quantity_threshold = quantity_threshold
        self._kind_threshold = kind_threshold
        self._relation_bonus = relation_bonus
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

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts`, one row each, from the kept ones where it can."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack(self._vectors_for(texts))

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

    def changed(self, candidate: FactCandidate, active: Sequence[Fact]) -> Fact | None:
        """The stored value a stated change replaces under another key, or None.

        Only for a candidate that says it is a change (`FactCandidate.changes`).
        An amount replaces an amount of the same shape (currency and period,
        "$N a week"), the one whose text with numbers masked is most alike,
        at or above `quantity_threshold`, and never one whose key's qualifiers
        contradict (`budget.rent` is not `budget.food`). Any other value
        replaces the same category's value most alike in meaning, at or above
        `kind_threshold` ("more into jazz" after "I love folk music"), except
        in knowledge (`RECORD`): what happened and what is known add up, and
        "lately I've been looking into X" replaces no earlier thing known.
        """
        if not candidate.changes:
            return None
        amount = bool(NUMBER.search(candidate.value))
        pool = [
            f
            for f in active
            if f.subject == candidate.subject
            and f.key != candidate.key
            and "instruction" not in (f.category, candidate.category)
            and not set(candidate.turn_ids) & set(f.turn_ids)
            and (listed(candidate) or qualifiers_agree(candidate.key, f.key))
            and (
                same_shape(f, candidate) and bool(NUMBER.search(f.value))
                if amount
                else f.category == candidate.category != RECORD
                and not NUMBER.search(f.value)
            )
        ]
        if not pool:
            return None
        if amount:
            texts = [masked(meaning_text(f.key, f.value)) for f in pool]
            query = masked(meaning_text(candidate.key, candidate.value))
            floor = self._quantity_threshold
        else:
            texts, query, floor = (
                [f.value for f in pool],
                candidate.value,
                self._kind_threshold,
            )
        first, *others = self._vectors_for([query, *texts])
        head = candidate.key.split(".")[0]
        scored = [
            (float(first @ v) + (self._same_relation_bonus(head, f)), f.id, f)
            for v, f in zip(others, pool, strict=True)
        ]
        best = max(scored, key=lambda s: (s[0], s[1]))
        if best[0] >= floor:
            return best[2]
        return None if amount else _only_value_of_relation(candidate, pool)

    def _same_relation_bonus(self, head: str, fact: Fact) -> float:
        """Credit for a stored value said in the same relation ("prefers.X").

        The relation already says two listed values are the same kind of
        thing (how replies should look), where bare values like "bullet
        points" and "numbered lists" embed far apart.
        """
        if NUMBER.search(fact.value) or not listed(fact):
            return 0.0
        return self._relation_bonus if fact.key.split(".")[0] == head else 0.0

    def _same_slot(self, a: str, b: str) -> bool:
        va, vb = self._vectors_for([slot_words(a), slot_words(b)])
        return float(va @ vb) >= self._slot_threshold

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts (vectors are unit length)."""
        va, vb = self._vectors_for([a, b])
        return float(va @ vb)
