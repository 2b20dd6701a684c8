"""A judge-free floor beside J: what holds of an answer without any judge.

J depends on its judge (see `memory-lab judge check`); these do not. Each reads a
model's answer against the gold answer after LoCoMo's normalisation (lower case,
punctuation and a/an/the/and dropped):

- `answer_exact_match`: the normalised answer is the normalised gold.
- `answer_contains_gold`: the gold's words appear in the answer, in order and
  together; a multi-hop gold (category 1) scores the share of its comma parts
  that do.
- `answer_number_date_match`: for a gold that holds numbers or dates, whether
  every one of them is in the answer, whatever the format ("7 May 2023" and
  "May 7th, 2023" agree; "three" and "3" agree); NaN for other golds.

Abstention probes (category 5) and missing answers are unscored (NaN), as for F1.
"""

from __future__ import annotations

import math
import re

from memlab_evals.scorers.answer_overlap import (
    answered_text,
    gold_for,
    is_abstention_probe,
    tokens,
)
from memlab_evals.scorers.base import ProbeCase

EXACT = "answer_exact_match"
CONTAINS = "answer_contains_gold"
NUMBERS = "answer_number_date_match"
VERSION = "1"

_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        )
    )
    for name in names
}
_NUMBER_WORDS = {
    word: i
    for i, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
}
_TOKEN = re.compile(r"[a-z]+|\d+(?:\.\d+)?")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)\b")


def quantities(text: str) -> set[str]:
    """The numbers and date parts a text states, each as a tagged canonical value.

    A year is ``year:2023``, a month ``month:5`` and a day next to a month
    ``day:7``; other numbers, in digits or words up to twelve, ``number:3``.
    """
    words = _TOKEN.findall(_ORDINAL.sub(r"\1", str(text).lower()))
    found: set[str] = set()
    for i, word in enumerate(words):
        if word in _MONTHS and (word != "may" or _beside_number(words, i)):
            found.add(f"month:{_MONTHS[word]}")
            for j in (i - 1, i + 1):
                if (
                    0 <= j < len(words)
                    and words[j].isdigit()
                    and 1 <= int(words[j]) <= 31
                ):
                    found.add(f"day:{int(words[j])}")
        elif word.isdigit() and len(word) == 4 and 1900 <= int(word) <= 2100:
            found.add(f"year:{word}")
        elif re.fullmatch(r"\d+(?:\.\d+)?", word):
            if not _is_day(words, i):
                found.add(f"number:{float(word):g}")
        elif word in _NUMBER_WORDS:
            found.add(f"number:{_NUMBER_WORDS[word]}")
    return found


def _beside_number(words: list[str], i: int) -> bool:
    """'May' is a month next to a number ('7 May', 'May 2023'), else a verb."""
    return any(0 <= j < len(words) and words[j].isdigit() for j in (i - 1, i + 1))


def _is_day(words: list[str], i: int) -> bool:
    return any(0 <= j < len(words) and words[j] in _MONTHS for j in (i - 1, i + 1))


def _contains(answer: str, gold: str) -> bool:
    want, have = tokens(gold), tokens(answer)
    if not want:
        return False
    return any(
        have[k : k + len(want)] == want for k in range(len(have) - len(want) + 1)
    )


def _scored(case: ProbeCase) -> tuple[str, str] | None:
    text = answered_text(case)
    if text is None or is_abstention_probe(case):
        return None
    return text, gold_for(case.probe.category, case.probe.answer)


def score_exact(case: ProbeCase) -> float:
    """1 when the normalised answer equals the normalised gold."""
    pair = _scored(case)
    if pair is None:
        return math.nan
    return float(tokens(pair[0]) == tokens(pair[1]))


def score_contains(case: ProbeCase) -> float:
    """Share of the gold's parts (one, or category 1's comma parts) in the answer."""
    pair = _scored(case)
    if pair is None:
        return math.nan
    text, gold = pair
    parts = (
        [g for g in gold.split(",") if tokens(g)]
        if case.probe.category == 1
        else [gold]
    )
    if not parts:
        return math.nan
    return sum(_contains(text, part) for part in parts) / len(parts)


def score_numbers(case: ProbeCase) -> float:
    """1 when the answer states every number and date part of the gold; NaN if none."""
    pair = _scored(case)
    if pair is None:
        return math.nan
    wanted = quantities(pair[1])
    if not wanted:
        return math.nan
    return float(wanted <= quantities(pair[0]))
