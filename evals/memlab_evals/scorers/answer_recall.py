"""answer_recall: the normalised gold answer is present in the context.

Normalisation lower-cases, drops punctuation and articles; a multi-word answer also
counts when 80% of its content words occur in the context (see `text.mentions`).
Abstention probes have no answer to find and score NaN.

Contexts render dates as ISO timestamps, so an answer that is exactly a date
("7 May 2023", "May 7, 2023") also counts when its ISO form (2023-05-07) is present.
Relative answers ("the Sunday before 25 May 2023") get no such help: whether a
context supports them takes reasoning, which is the judge's job.
"""

from __future__ import annotations

import math
import re
from datetime import datetime

from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.text import mentions, normalise

NAME = "answer_recall"
VERSION = "1"
HIGHER_IS_BETTER = True


_DATE_FORMATS = ("%d %B %Y", "%B %d %Y", "%d %b %Y", "%b %d %Y")


def iso_date(answer: str) -> str | None:
    """The ISO form of an answer that is exactly a calendar date, else None."""
    text = re.sub(r"[,.]", " ", answer).strip()
    text = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", " ".join(text.split()))
    for fmt in _DATE_FORMATS:
        try:
            # A date has no zone; it is only compared as text, never as a moment.
            return datetime.strptime(text, fmt).date().isoformat()  # noqa: DTZ007
        except ValueError:
            continue
    return None


def score(case: ProbeCase) -> float:
    """1 when the answer is in the context, 0 when not, NaN when not applicable."""
    probe = case.probe
    if probe.kind == "abstention" or not normalise(probe.answer):
        return math.nan
    if mentions(probe.context, probe.answer):
        return 1.0
    iso = iso_date(probe.answer)
    return float(iso is not None and iso in probe.context)
