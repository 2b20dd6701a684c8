"""session_recall: the share of a question's answer sessions its context reaches.

Some data sets name the sessions that hold a question's answer beside its evidence
turns (LongMemEval's ``answer_session_ids``). An answer session counts as reached
when the context holds at least one of its turns, any turn, held as
`evidence_recall` holds one: at least `HELD_SHARE` (80%) of the turn's content
words occur in the context. Only turns of at least `MIN_WORDS` content words can
witness a session; a "Thanks, that helps!" is found in many contexts by chance.
The probe's score is reached sessions over answer sessions that have such a turn.

Why any turn, not only the evidence turns: `evidence_recall` already asks for the
evidence turns themselves. This one asks the coarser question LongMemEval's own
retrieval metrics ask at session level: did the memory bring back the right
conversation at all? A context can reach an answer session through a turn beside
the evidence (the question before it, the assistant's reply) and still miss the
evidence; and a context holding an evidence turn (of `MIN_WORDS` or more)
reaches that turn's session. The gap between the two numbers says how often
memory found the right sitting but not the sentence.

Probes whose data set names no answer sessions (LoCoMo, synthetic) score NaN, as
do probes none of whose answer sessions has a turn long enough to count.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.evidence_recall import HELD_SHARE
from memlab_evals.scorers.text import content_words

NAME = "session_recall"
VERSION = "1"
HIGHER_IS_BETTER = True

MIN_WORDS = 3
"""Content words a turn needs before its presence says its session was reached."""


def session_reached(turn_texts: Sequence[str], held: frozenset[str]) -> bool | None:
    """Whether some turn of the session is held; None when no turn can witness it."""
    witnesses = [w for w in map(content_words, turn_texts) if len(w) >= MIN_WORDS]
    if not witnesses:
        return None
    return any(len(w & held) / len(w) >= HELD_SHARE for w in witnesses)


def sessions_reached(sessions: Mapping[str, Sequence[str]], context: str) -> float:
    """Share of the sessions the context reaches; NaN when none can be judged."""
    held = content_words(context)
    found = [session_reached(texts, held) for texts in sessions.values()]
    judged = [f for f in found if f is not None]
    return sum(judged) / len(judged) if judged else math.nan


def score(case: ProbeCase) -> float:
    """Share of the probe's answer sessions its context reaches; NaN without any."""
    sessions = getattr(case.probe, "evidence_sessions", None) or {}
    return sessions_reached(sessions, case.probe.context) if sessions else math.nan
