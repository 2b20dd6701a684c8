"""The raw-turn baselines, one module each; importing the package registers them.

A new baseline is one new module here: a `TurnBaseline` (or `RankedBaseline`)
subclass that says how it picks turns, under ``@baseline(name, description)``.
The package is listed rather than named module by module, so nothing else
changes: the CLI, the main job, the report and the benchmarks read the registry.
"""

from __future__ import annotations

import importlib
import pkgutil

from memlab_evals.systems.baselines.base import (
    RankedBaseline,
    TurnBaseline,
    baseline,
)

for _found in pkgutil.iter_modules(__path__):
    if _found.name != "base":
        importlib.import_module(f"{__name__}.{_found.name}")

__all__ = ["RankedBaseline", "TurnBaseline", "baseline"]
