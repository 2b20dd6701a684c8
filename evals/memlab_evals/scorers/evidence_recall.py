"""evidence_recall: the share of a question's evidence turns its context holds.

An evidence turn counts as held when at least `HELD_SHARE` (80%) of its content
words (lower-cased, stop words removed) occur in the context; the probe's score is
the share of its evidence turns held. A context holding every evidence turn
verbatim scores 1 and an empty one 0.

Why a threshold per turn, not an average of words: averaging word coverage lets
chance overlap score. A recent-turns window that holds none of a question's
evidence still shares a third or more of its words ("trip", "Caroline", "last
week"), so the average ranked the no-memory window at 0.43 on LoCoMo while an
evidence turn was in its context for about one question in twenty. At 80% a turn
is held verbatim, or nearly so (a window cut mid-turn, a summary that keeps the
sentence): a paraphrase that keeps the facts but not the words earns nothing,
which is the price of a judge-free number. `evidence_word_overlap` keeps the old
average beside it for comparison with earlier runs.

Both are token-overlap cousins of ragas's NonLLMContextRecall (string similarity
per reference context); `eval --ragas` computes ragas's own number beside them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.text import content_words

NAME = "evidence_recall"
WORD_OVERLAP = "evidence_word_overlap"
VERSION = "2"
HIGHER_IS_BETTER = True

HELD_SHARE = 0.8
"""Share of an evidence turn's content words the context must hold to hold the turn."""


def word_shares(evidence_texts: Sequence[str], context: str) -> list[float]:
    """Per evidence turn with content words: the share of them found in `context`."""
    held = content_words(context)
    shares = []
    for text in evidence_texts:
        words = content_words(text)
        if words:
            shares.append(len(words & held) / len(words))
    return shares


def turns_held(evidence_texts: Sequence[str], context: str) -> float:
    """Share of evidence turns held (see `HELD_SHARE`); NaN without evidence."""
    shares = word_shares(evidence_texts, context)
    if not shares:
        return math.nan
    return sum(share >= HELD_SHARE for share in shares) / len(shares)


def score(case: ProbeCase) -> float:
    """Share of the probe's evidence turns its context holds; NaN without evidence."""
    return turns_held(case.probe.evidence_texts, case.probe.context)


def score_word_overlap(case: ProbeCase) -> float:
    """Mean content-word coverage of the evidence turns; NaN without evidence."""
    shares = word_shares(case.probe.evidence_texts, case.probe.context)
    return sum(shares) / len(shares) if shares else math.nan
