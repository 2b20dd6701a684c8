"""evidence_recall: how much of the evidence turns' content the context holds.

Per evidence turn, the share of its content words (lower-cased, stop words removed)
that occur in the context; the probe's score is the mean over its evidence turns.
A context holding every evidence turn verbatim scores 1 and an empty one 0. This is
a token-overlap cousin of ragas's NonLLMContextRecall (string similarity per
reference context); the ragas bridge computes ragas's own number beside it.
"""

from __future__ import annotations

import math

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.text import content_words

NAME = "evidence_recall"
VERSION = "1"
HIGHER_IS_BETTER = True


def score(case: ProbeCase) -> float:
    """Mean content-word coverage of the evidence turns; NaN without evidence."""
    held = content_words(case.probe.context)
    shares = []
    for text in case.probe.evidence_texts:
        words = content_words(text)
        if words:
            shares.append(len(words & held) / len(words))
    return sum(shares) / len(shares) if shares else math.nan
