"""hallucinated_memory_rate: stored facts that no source turn supports (HaluMem).

Following HaluMem (arXiv 2511.03506), a stored memory is hallucinated when the
source does not support it. Every stored row counts, whatever its status now: a
superseded or flagged row was still written from a turn, and a bad write is bad even
after a later one ends it. A row is hallucinated for any of three reasons:

- ``unsupported``: no cited turn holds its value (`text.mentions`, lenient for
  multi-word values), including rows that cite no turn or unknown turns;
- ``trap:<kind>``: it cites a trap turn that must not become a user fact (a
  hypothetical, a question, a joke, a rejected suggestion; a third party's choice
  when the row is about the user);
- ``wrong_attribution``: it is about a participant who said none of its cited turns.
  Third parties a speaker talks about are not checked (users state facts about their
  friends), and a "user" row is only checked when the log's speakers carry roles.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from memlab_evals.running.log import ConversationRun, StoredFact
from memlab_evals.scorers.text import mentions

NAME = "hallucinated_memory_rate"
VERSION = "1"
HIGHER_IS_BETTER = False

USER_TRAPS = frozenset({"hypothetical", "question", "joke", "rejected_suggestion"})
"""Trap kinds never a fact about anyone; third_party is a fact about someone else."""

ROLES = frozenset({"user", "assistant"})


@dataclass(frozen=True)
class Verdict:
    """Why one stored row is (or is not) hallucinated."""

    fact: StoredFact
    reasons: tuple[str, ...]

    @property
    def hallucinated(self) -> bool:
        """A row with any reason against it."""
        return bool(self.reasons)


def _aliases(speaker: str) -> set[str]:
    """Names a speaker entry answers to: 'user:Caroline' is 'user' and 'caroline'."""
    return {
        part.strip().lower() for part in re.split(r"[:/|]", speaker) if part.strip()
    }


def _supported(fact: StoredFact, run: ConversationRun) -> bool:
    return any(
        mentions(run.turn_texts[t], fact.value)
        for t in fact.turn_ids
        if t in run.turn_texts
    )


def _traps(fact: StoredFact, run: ConversationRun) -> list[str]:
    cited = set(fact.turn_ids)
    about_user = fact.subject.strip().lower() == "user"
    kinds = []
    for trap in run.traps:
        if trap.get("turn_id") not in cited:
            continue
        kind = trap.get("kind", "")
        if kind in USER_TRAPS or (kind == "third_party" and about_user):
            kinds.append(f"trap:{kind}")
    return kinds


def _misattributed(fact: StoredFact, run: ConversationRun) -> bool:
    said_by = [
        _aliases(run.turn_speakers[t]) for t in fact.turn_ids if t in run.turn_speakers
    ]
    if not said_by:
        return False
    subject = fact.subject.strip().lower()
    everyone = [_aliases(s) for s in run.turn_speakers.values()]
    if subject == "user" and not any(a & ROLES for a in everyone):
        return False  # speakers are bare names: which one is the user is unknown
    if subject != "user" and not any(subject in a for a in everyone):
        return False  # a third party: not a participant, so not checkable
    return not any(subject in a for a in said_by)


def verdicts(run: ConversationRun) -> list[Verdict]:
    """One verdict per stored row, in stored order."""
    out = []
    for fact in run.stored_facts:
        reasons = [] if _supported(fact, run) else ["unsupported"]
        reasons += _traps(fact, run)
        if _misattributed(fact, run):
            reasons.append("wrong_attribution")
        out.append(Verdict(fact, tuple(reasons)))
    return out


def score(run: ConversationRun) -> float:
    """Share of stored rows hallucinated; NaN when nothing was stored."""
    found = verdicts(run)
    if not found:
        return math.nan
    return sum(v.hallucinated for v in found) / len(found)
