"""What the main job runs: its recipes, budgets and datasets.

Also the default datasets of the trigger comparison; `memlab_evals.cli` re-exports
every name.
"""

from __future__ import annotations

from pathlib import Path

MAIN_RECIPES = "A,B,C"

MAIN_SYSTEMS: str | None = None
"""The main job's systems; None: `MAIN_RECIPES` and every registered baseline."""

MAIN_BUDGETS = (600, 1500)

MAIN_SYNTHETIC = "synthetic:sessions=20,turns_per_session=40,span_days=120"
"""About 20,000 tokens of history per conversation: over 10x the larger budget, so
the main job measures what memory is for (the default set is small, for tests)."""

LOCOMO_DEV = Path("../shared/datasets/locomo/locomo10_dev.json")


def main_datasets(
    locomo: Path | None,
    *,
    synthetic: str = MAIN_SYNTHETIC,
    locomo_dev: Path = LOCOMO_DEV,
) -> list[tuple[str, str]]:
    """The main job's datasets: the synthetic set, and LoCoMo when it is found.

    Raises:
        ValueError: when `locomo` names a file that does not exist.
    """
    datasets = [("synthetic", synthetic)]
    if locomo:
        if not Path(locomo).exists():
            raise ValueError(f"MEMORY_LAB_LOCOMO={locomo}: no such file")
        datasets.append(("locomo", f"locomo:{locomo}"))
    elif locomo_dev.exists():
        datasets.append(("locomo", f"locomo:{locomo_dev}"))
    return datasets


def added_datasets(
    specs: list[str] | tuple[str, ...], taken: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """``main --dataset SPEC`` beside the defaults, each labelled by its data set.

    The label is the registered name the spec starts with (``longmemeval:PATH``
    runs to RUNS/main-longmemeval-<budget>/), so only registered data sets are
    taken, a plug-in's included.

    Raises:
        ValueError: for a spec naming no registered data set, or a label the
            job already runs (LoCoMo's file is set by MEMORY_LAB_LOCOMO).
    """
    from memlab_datasets import registry
    from memlab_datasets.loading import named_dataset

    labels = [label for label, _ in taken]
    added: list[tuple[str, str]] = []
    for spec in specs:
        name, _ = named_dataset(spec.strip())
        if name is None:
            raise ValueError(
                f"--dataset {spec!r}: name a registered data set, one of "
                f"{registry.usages()}"
            )
        if name in labels:
            raise ValueError(
                f"--dataset {spec!r}: the main job already runs {name!r} "
                "(MEMORY_LAB_LOCOMO sets LoCoMo's file)"
            )
        labels.append(name)
        added.append((name, spec.strip()))
    return added
