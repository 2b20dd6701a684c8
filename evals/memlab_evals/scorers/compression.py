"""Three compression ratios, named apart because they answer different questions.

- ``compression_ratio`` (the headline, per probe): raw history tokens up to the probe
  over the context tokens injected for it. A probe with an empty context (the
  ``none`` baseline) injects nothing, so its ratio is undefined: NaN, not infinity.
- ``storage_compression_ratio`` (per probe): raw history tokens over the tokens the
  system keeps at that moment (1 for baselines that keep raw turns).
- ``episode_compression_ratio`` (per conversation): mean over episodes of
  source tokens over summary tokens.
"""

from __future__ import annotations

import math

from memlab_evals.running.log import ConversationRun
from memlab_evals.scorers.base import ProbeCase

VERSION = "1"
HIGHER_IS_BETTER = True


def _ratio(top: float, bottom: float) -> float:
    return top / bottom if bottom > 0 else math.nan


def context_ratio(case: ProbeCase) -> float:
    """History tokens over injected context tokens."""
    return _ratio(case.probe.history_tokens, case.probe.context_tokens)


def storage_ratio(case: ProbeCase) -> float:
    """History tokens over stored tokens."""
    return _ratio(case.probe.history_tokens, case.probe.stored_tokens)


def episode_ratio(run: ConversationRun) -> float:
    """Mean source-over-summary ratio of the conversation's episodes."""
    ratios = [
        e.original_tokens / e.summary_tokens
        for e in run.episodes
        if e.summary_tokens > 0
    ]
    return sum(ratios) / len(ratios) if ratios else math.nan
