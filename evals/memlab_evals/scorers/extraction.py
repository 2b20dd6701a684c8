"""extraction_precision / extraction_recall: stored facts against gold facts (HaluMem).

Matching is lenient, because brains word keys and values differently:

- synthetic gold (planted values): a stored row matches a gold fact with the same
  subject when either value contains the other (`text.mentions`);
- LoCoMo gold (observation sentences): a stored row matches an observation that
  cites one of the same turns when at least `OBSERVATION_OVERLAP` of the row's value
  content words occur in the sentence. Subjects are not compared: observations name
  speakers, while brains often say "user".

Precision is matched rows over stored rows (every status, as in the hallucination
scorer); recall is matched gold facts over all gold facts of the conversation.
"""

from __future__ import annotations

import math

from memlab_evals.running.log import ConversationRun, StoredFact
from memlab_evals.scorers.text import content_words, mentions

PRECISION = "extraction_precision"
RECALL = "extraction_recall"
VERSION = "1"
HIGHER_IS_BETTER = True
OBSERVATION_OVERLAP = 0.5


def matches(stored: StoredFact, gold: dict) -> bool:
    """Whether a stored row states this gold fact."""
    if gold.get("category") == "observation":
        cited = {gold.get("turn_id"), *gold.get("turn_ids", [])}
        if not cited & set(stored.turn_ids):
            return False
        words = content_words(stored.value)
        if not words:
            return False
        return (
            len(words & content_words(gold["value"])) / len(words)
            >= OBSERVATION_OVERLAP
        )
    if stored.subject.strip().lower() != str(gold.get("subject", "")).strip().lower():
        return False
    return mentions(stored.value, gold["value"]) or mentions(
        gold["value"], stored.value
    )


def precision(run: ConversationRun) -> float:
    """Share of stored rows that state some gold fact; NaN when nothing was stored."""
    if not run.stored_facts:
        return math.nan
    hits = sum(any(matches(s, g) for g in run.gold_facts) for s in run.stored_facts)
    return hits / len(run.stored_facts)


def recall(run: ConversationRun) -> float:
    """Share of gold facts some stored row states; NaN without gold facts."""
    if not run.gold_facts:
        return math.nan
    hits = sum(any(matches(s, g) for s in run.stored_facts) for g in run.gold_facts)
    return hits / len(run.gold_facts)
