"""What a scorer is: a pure function of logged records plus its declared direction.

Two levels, because HaluMem-style memory metrics judge what a system stored over a
whole conversation, while recall metrics judge one context at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from memlab_evals.running.log import ConversationRun, ProbeRecord

Source = Literal["synthetic", "locomo"]


@dataclass(frozen=True)
class ProbeCase:
    """One probe with what a scorer may need beside it.

    `run` is the same system's record of the probe's conversation (gold facts,
    traps, turn texts), or None when the log lacks it.
    """

    probe: ProbeRecord
    run: ConversationRun | None
    source: Source


@dataclass(frozen=True)
class Scorer:
    """A metric: name, version (bump when the number can change), direction."""

    name: str
    version: str
    higher_is_better: bool
    level: Literal["probe", "conversation"]
    score: Callable[..., float]


def source_of(dataset: str) -> Source:
    """The data source a run's dataset spec names ('locomo:PATH' or 'synthetic...')."""
    return "locomo" if dataset.lower().startswith("locomo") else "synthetic"
