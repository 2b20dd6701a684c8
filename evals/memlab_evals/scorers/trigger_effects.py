"""What compression itself kept, and which tier of memory the evidence came from.

`summary_only_evidence_recall` (the share of evidence turns held, counted as
`evidence_recall` counts them) scores the context built without the verbatim
excerpts of compressed turns: the window, the running summary, episode and day
summaries and the facts. The excerpt index keeps every compressed turn findable
whatever the trigger did, so ordinary evidence recall barely tells triggers
apart; this number is what the trigger's summaries hold.

`evidence_from_<tier>`: each evidence turn's content words found in the context
are credited to the tier holding the most of them; a probe's shares are its
credits over their sum (NaN when nothing was found). They add up to 1.
"""

from __future__ import annotations

import math

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.evidence_recall import turns_held
from memlab_evals.scorers.text import content_words
from memory_lab.context.tiers import TIERS

SUMMARY_ONLY = "summary_only_evidence_recall"
TIER_COLUMNS: dict[str, str] = {tier: f"evidence_from_{tier}" for tier in TIERS}
VERSION = "2"


def summary_only(case: ProbeCase) -> float:
    """Evidence recall of the excerpt-free context; NaN where none was built."""
    text = case.probe.summary_only_context
    if text is None:
        return math.nan
    return turns_held(case.probe.evidence_texts, text)


def tier_shares(case: ProbeCase) -> dict[str, float]:
    """Each tier's share of the evidence found; NaN everywhere when none applies."""
    tiers = case.probe.context_tiers
    empty = dict.fromkeys(TIER_COLUMNS.values(), math.nan)
    if not tiers:
        return empty
    held = {tier: content_words(text) for tier, text in tiers.items()}
    credit = dict.fromkeys(TIERS, 0.0)
    for evidence in case.probe.evidence_texts:
        words = content_words(evidence)
        if not words:
            continue
        found = {tier: len(words & have) for tier, have in held.items()}
        best = max(TIERS, key=lambda t: (found.get(t, 0), -TIERS.index(t)))
        if found.get(best, 0):
            credit[best] += found[best] / len(words)
    total = sum(credit.values())
    if not total:
        return empty
    return {TIER_COLUMNS[tier]: credit[tier] / total for tier in TIERS}
