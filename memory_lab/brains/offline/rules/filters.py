"""Sentence filters: what blocks a statement from being a fact, and how sure it is.

Precision before recall: a question, a hypothetical, a joke, an uncertain or a
negated sentence yields nothing, because a wrong fact in memory costs more than
a missed one. Hedged and corrected statements get their own confidence bands.
"""

from __future__ import annotations

import re

from memory_lab.brains.offline.rules.patterns import APOS, RETRACTION

CONFIDENCE_EXPLICIT = 0.88
CONFIDENCE_CORRECTION = 0.95
CONFIDENCE_HEDGED = 0.55
CONFIDENCE_HEDGED_CORRECTION = 0.6

JOKE = re.compile(
    r"\b(?:just\s+kidding|kidding|joking|jk|j/k|haha\s+no|yeah\s+right)\b"
    r"|(?:^|\s)/s\b",
    re.I,
)
HYPOTHETICAL = re.compile(
    r"\b(?:what\s+if|if|even\s+if|supposing|imagine|imagining|hypothetically"
    rf"|pretend|in\s+theory|let{APOS}?s\s+say|would\s+(?:i|we)|(?:i|we)\s+were\s+to"
    r"|wish|dream(?:ing)?\s+of|someday|one\s+day)\b|(?:^|[,;]\s*)suppose\b",
    re.I,
)
UNCERTAIN = re.compile(
    rf"\b(?:not\s+sure|unsure|don{APOS}t\s+know|do\s+not\s+know|wonder(?:ing)?"
    rf"|undecided|haven{APOS}t\s+decided|have\s+not\s+decided|can{APOS}t\s+decide"
    r"|considering|thinking\s+about|thinking\s+of)\b",
    re.I,
)
HEDGE = re.compile(
    r"\b(?:i\s+think|i\s+guess|i\s+believe|i\s+suppose|maybe|perhaps|probably"
    rf"|possibly|might|i{APOS}d\s+say|kind\s+of|sort\s+of|not\s+certain)\b",
    re.I,
)
NEGATED_BEFORE = re.compile(
    rf"\b(?:not|never|no\s+longer|don{APOS}t|do\s+not|didn{APOS}t|doesn{APOS}t|won{APOS}t"
    rf"|wouldn{APOS}t|isn{APOS}t|hardly|nobody|no\s+one)\b",
    re.I,
)
QUESTION_START = re.compile(
    r"^(?:(?:and|so|but|also|ok|okay|hmm|well)[,\s]+)*(?:"
    r"(?:should|would|could|can|do|does|did|shall|will|is|are|am|was|were|have|has)"
    r"\s+(?:i|we|you|it|my|our|there)\b"
    r"|(?:what|why|how|which|who|where|when)\s+(?:should|would|could|can|do|does"
    r"|did|shall|will|is|are|am|was|were|have|has|about)\b)",
    re.I,
)
REQUEST_START = re.compile(
    r"^(?:(?:and|so|also|ok|okay)[,\s]+)*(?:please\s+)?"
    r"(?:can|could|would|will)\s+you\b",
    re.I,
)
CORRECTION = re.compile(
    r"^(?:actually|correction|update|sorry|wait|oops|no|nope)\b|\bactually\b"
    r"|\bnot\b.*\bany\s?more\b|\bno\s+longer\b|\bswitched\b|\bchanged\s+(?:it\s+|that"
    r"\s+)?to\b|\bnow\s*[.!]?$|\binstead\b|\bI\s+meant\b"
    rf"|^{RETRACTION}",
    re.I,
)

# "not sure if X" states an open item and "if possible" softens a request; neither
# is a hypothetical.
OPEN_IF = re.compile(
    r"\b(?:sure|know|decided|decide|wonder|wondering|undecided|unsure)\s+"
    r"(?:whether|if)\b|\bif\s+(?:possible|you\s+can|needed|necessary)\b",
    re.I,
)


def negated_before(text: str, start: int) -> bool:
    """A negation earlier in the same clause flips the fact ("I don't think I ...")."""
    clause = re.split(r"[,;]|\bbut\b", text[:start], flags=re.I)[-1]
    return bool(NEGATED_BEFORE.search(clause))


def confidence(text: str, *, open_item: bool = False) -> float:
    """How sure a statement is: hedges lower it, a correction marker raises it."""
    hedged = bool(HEDGE.search(text))
    if open_item:
        # "not sure whether" is a plain statement of an open item, not a hedge on it
        return CONFIDENCE_HEDGED if hedged else CONFIDENCE_EXPLICIT
    if CORRECTION.search(text):
        return CONFIDENCE_HEDGED_CORRECTION if hedged else CONFIDENCE_CORRECTION
    return CONFIDENCE_HEDGED if hedged else CONFIDENCE_EXPLICIT
