"""What a scorer is: a pure function of logged records plus its declared direction.

Two levels, because HaluMem-style memory metrics judge what a system stored over a
whole conversation, while recall metrics judge one context at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from memlab_evals.running.log import ConversationRun, ProbeRecord, RunConfig

Source = str
"""A data set's source: 'synthetic', 'locomo', 'longmemeval' or a plug-in's name."""


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


def source_of(run: RunConfig | str) -> Source:
    """The data source of a run: as its log records it, else as its spec names it.

    Logs written before the source was recorded give their spec only: a
    registered name (``locomo:PATH``, ``longmemeval:PATH``), a name starting
    ``locomo``, or else the synthetic set, as those logs were scored.
    """
    if isinstance(run, RunConfig):
        if run.source:
            return run.source
        run = run.dataset
    spec = run.strip().lower()
    if spec.startswith("locomo"):
        return "locomo"
    from memlab_datasets.loading import named_dataset

    name, _ = named_dataset(spec)
    return name or "synthetic"
