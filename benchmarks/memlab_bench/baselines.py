"""The systems the recipes are compared with: the evals' own, so both agree."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def make_baseline(name: str, *, budget: int, tenant: str, start: datetime) -> Any:
    """A fresh system: any registered baseline, or a recipe."""
    from memlab_evals.systems import make_system

    return make_system(name, budget=budget, tenant=tenant, start=start, data_dir=None)
