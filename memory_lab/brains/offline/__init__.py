"""The offline, deterministic brain: no model, so it runs anywhere and repeats itself.

- `brain`: `RuleBasedBrain`, facts, summaries and replies without a model.
- `parse/`: facts from spaCy's dependency parse, the default extractor.
- `rules/`: the pattern table, where the parse has no statement to read.
- `answer`, `current_lines`, `fact_line`, `listing`: replies from memory.
- `summarizer`: extractive summaries of a window.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory_lab.brains.offline.brain import RuleBasedBrain

__all__ = ["RuleBasedBrain"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: `facts` reads the parse's word lists, and the brain
    # reads `facts`, so importing a sub-package must not load the brain.
    if name == "RuleBasedBrain":
        return importlib.import_module("memory_lab.brains.offline.brain").RuleBasedBrain
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
