"""answer_f1, answer_bleu1, answer_abstention: a model's answer against the gold one.

The token overlap LoCoMo reports, normalised as its scorer does: commas dropped,
lower case, punctuation stripped, the words a/an/the/and removed, whitespace
tokens. Multi-hop gold answers (category 1) list sub-answers separated by commas;
each sub-answer takes its best match among the answer's comma parts and the scores
are averaged. An open-domain gold answer (category 3) counts up to its first
semicolon. LoCoMo also Porter-stems tokens; no stemmer is in the lock, so plurals
and tenses do not match here and the figures run a little below a stemmed scorer.

BLEU-1 is clipped unigram precision times the brevity penalty, over the same tokens.

Abstention probes (category 5) have no answer to overlap: they are scored as
abstention (did the answer decline?) and left out of F1, BLEU-1 and J, as
published results do. A failed or missing answer is unscored (NaN), never zero.
"""

from __future__ import annotations

import math
import string
from collections import Counter

from memlab_evals.scorers.base import ProbeCase

F1 = "answer_f1"
BLEU1 = "answer_bleu1"
ABSTENTION = "answer_abstention_accuracy"
VERSION = "2"

_DROP = frozenset({"a", "an", "the", "and"})
_PUNCTUATION = str.maketrans("", "", string.punctuation)
# Phrases that decline to answer: the prompt's own, LoCoMo's two, LongMemEval's
# (its gold answers to _abs questions say what was never mentioned, and that the
# information is not enough), and the common paraphrases a small model writes.
_DECLINES = (
    "not known",
    "unknown",
    "no information available",
    "not mentioned",
    "never mentioned",
    "did not mention",
    "didnt mention",
    "not enough information",
    "information provided is not enough",
    "dont know",
    "do not know",
    "not stated",
    "not specified",
    "no answer",
)


def tokens(text: str) -> list[str]:
    """LoCoMo's normalisation, as whitespace tokens."""
    words = str(text).replace(",", "").lower().translate(_PUNCTUATION).split()
    return [w for w in words if w not in _DROP]


def f1(prediction: str, gold: str) -> float:
    """Harmonic mean of token precision and recall (multiset overlap)."""
    pred, ref = tokens(prediction), tokens(gold)
    same = sum((Counter(pred) & Counter(ref)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def multi_f1(prediction: str, gold: str) -> float:
    """Mean over the gold's comma parts of the best F1 against any answer part."""
    parts = [p.strip() for p in prediction.split(",")]
    golds = [g.strip() for g in gold.split(",")]
    return sum(max(f1(p, g) for p in parts) for g in golds) / len(golds)


def bleu1(prediction: str, gold: str) -> float:
    """Clipped unigram precision times the brevity penalty; 0 for an empty answer."""
    pred, ref = tokens(prediction), tokens(gold)
    if not pred or not ref:
        return 0.0
    clipped = sum((Counter(pred) & Counter(ref)).values())
    precision = clipped / len(pred)
    brevity = 1.0 if len(pred) > len(ref) else math.exp(1 - len(ref) / len(pred))
    return brevity * precision


def abstains(prediction: str) -> bool:
    """Whether the answer declines (says the memory does not hold it)."""
    text = " ".join(str(prediction).lower().translate(_PUNCTUATION).split())
    return any(phrase in text for phrase in _DECLINES)


def gold_for(category: int, gold: str) -> str:
    """The part of a gold answer that is scored (open-domain: before ';')."""
    return gold.split(";")[0].strip() if category == 3 else gold


def answered_text(case: ProbeCase) -> str | None:
    """The answer's text when one came back; None when there is none to score."""
    answer = case.probe.model_answer
    if answer is None or answer.status != "ok":
        return None
    return answer.text


def is_abstention_probe(case: ProbeCase) -> bool:
    """Whether the probe asks for an abstention (LoCoMo category 5)."""
    return case.probe.kind == "abstention" or case.probe.category == 5


def score_f1(case: ProbeCase) -> float:
    """Token F1 of the answer; NaN for abstention probes and missing answers."""
    text = answered_text(case)
    if text is None or is_abstention_probe(case):
        return math.nan
    gold = gold_for(case.probe.category, case.probe.answer)
    if case.probe.category == 1:
        return multi_f1(text, gold)
    return f1(text, gold)


def score_bleu1(case: ProbeCase) -> float:
    """BLEU-1 of the answer; NaN for abstention probes and missing answers."""
    text = answered_text(case)
    if text is None or is_abstention_probe(case):
        return math.nan
    return bleu1(text, gold_for(case.probe.category, case.probe.answer))


def score_abstention(case: ProbeCase) -> float:
    """1 when the answer to an abstention probe declines; NaN elsewhere."""
    text = answered_text(case)
    if text is None or not is_abstention_probe(case):
        return math.nan
    return float(abstains(text))
