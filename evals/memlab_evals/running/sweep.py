"""Parameter sweeps over trigger recipes, as DataFrames a notebook can plot.

The research question (which trigger, with which parameters, keeps the most memory
for the fewest tokens with the fewest false memories) is answered by running many
recipe variants beside the baselines and reading one table. These helpers do the
running and the shaping so notebook cells hold only calls, plots and prose:

- `sweep`: a grid of recipe variants plus baselines through `run_eval` and
  `summarize`, one row per system, the recipe's effective parameters as columns.
- `growth`: context tokens per request as one conversation grows, per system.
- `frontier`: the Pareto-optimal rows on recall against compression ratio.

Everything is deterministic for a given dataset: wall-clock columns are left out
unless asked for, since they are the only numbers that change between runs.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd
from memlab_datasets import load_dataset
from memlab_datasets.types import Conversation, Dataset

from memlab_evals.running.executors import Executor
from memlab_evals.running.runner import run_eval
from memlab_evals.scorers.summary import summarize
from memlab_evals.systems import is_baseline, make_system, pick
from memory_lab.recipes import recipe
from memory_lab.text import turn_line
from memory_lab.tokens import default_counter
from memory_lab.triggers import all_triggers

Grid = Mapping[str, Sequence[str]] | Sequence[str]
"""Recipe variants: either system names, or recipe -> parameter strings."""

RECIPE_FIELDS: tuple[str, ...] = ("episode_max_messages",)
"""Recipe-level parameters, beside every trigger's own."""


def param_columns() -> tuple[str, ...]:
    """A column per parameter of every registered trigger (``a_max_messages``...).

    Read from the trigger registry, so a trigger registered in a notebook or by a
    plug-in gets its columns in the sweep table with nothing else to edit.
    """
    columns = [
        f"{trigger.prefix}{field}"
        for trigger in all_triggers()
        for field in trigger.params.model_fields
    ]
    return (*columns, *RECIPE_FIELDS)


TIMING_COLUMNS: tuple[str, ...] = (
    "ingest_ms_p50",
    "ingest_ms_p95",
    "retrieve_ms_p50",
    "retrieve_ms_p95",
)


def grid_systems(grid: Grid) -> list[str]:
    """System names for a grid, in the order given.

    A mapping such as ``{"A": ["a_max_messages=10", "a_max_messages=30"]}`` expands
    to ``A(a_max_messages=10)`` and ``A(a_max_messages=30)``; an empty parameter
    string means the recipe's defaults. A plain sequence is taken as names.

    Raises:
        ValueError: for a name `memlab_evals.systems` does not know.
    """
    if isinstance(grid, str):
        raise ValueError("give a list of system names, not one string")
    if isinstance(grid, Mapping):
        names = [
            f"{base}({params})" if params.strip() else base
            for base, variants in grid.items()
            for params in variants
        ]
    else:
        names = list(grid)
    for name in names:
        # Parsing now fails before any system runs, naming the bad variant.
        if not is_baseline(name):
            recipe(name)
    return names


def recipe_columns(name: str) -> dict[str, object]:
    """The columns that describe a system: its kind, recipe and parameters.

    Effective values (defaults included) rather than only the overrides, so a
    variant written ``A`` and one written ``A(a_max_messages=20)`` line up.
    """
    row: dict[str, object] = dict.fromkeys(param_columns())
    if is_baseline(name):
        row.update(kind="baseline", recipe=name)
        return row
    rec = recipe(name)
    row.update(kind="recipe", recipe=rec.name)
    for use in rec.triggers:
        prefix = use.name.lower() + "_"
        row.update({prefix + field: value for field, value in use.params.items()})
    row.update({field: getattr(rec, field) for field in RECIPE_FIELDS})
    return row


def sweep(
    dataset: Dataset | str,
    grid: Grid,
    *,
    budget: int = 1500,
    baselines: Iterable[str] = pick("full", "window", "rag-bm25"),
    workers: int = 1,
    executor: Executor | str = "local",
    categories: bool = False,
    timing: bool = False,
) -> pd.DataFrame:
    """Run every grid variant and baseline over a dataset; one row per system.

    Args:
        dataset: A loaded dataset or a spec for `load_dataset`
            (``"synthetic:conversations=2"``, ``"locomo:path"``).
        grid: Recipe variants (see `grid_systems`).
        budget: Context token budget for every system except ``full``.
        baselines: Baselines to run beside the variants, after them.
        workers: Worker processes for `run_eval`; results do not depend on it.
        executor: Where the units run, ``"local"``, ``"ray"`` or an executor
            such as ``RayExecutor(address="127.0.0.1:6379")`` (see
            `memlab_evals.running.executors`); results do not depend on it either.
        categories: Keep the per-category rows too (with their intervals), for
            category plots; by default only the ``all`` row of each system.
        timing: Keep the latency columns, which differ from run to run.

    Returns:
        The `summarize` columns plus ``kind`` (recipe or baseline), ``recipe`` and
        the `param_columns()`, systems in grid order then baselines.

    Raises:
        ValueError: for an unknown system, a repeated one or a bad parameter.
    """
    spec = dataset if isinstance(dataset, str) else None
    data = load_dataset(dataset) if isinstance(dataset, str) else dataset
    names = grid_systems(grid) + [b for b in baselines]
    log = run_eval(
        data,
        names,
        budget,
        workers=workers,
        executor=executor,
        progress=False,
        dataset_spec=spec,
    )
    table = summarize(log)
    if not categories:
        table = table[table["category"] == "all"]
    if not timing:
        table = table.drop(columns=[c for c in TIMING_COLUMNS if c in table])
    described = pd.DataFrame([{"system": n, **recipe_columns(n)} for n in names])
    table = table.merge(described, on="system", how="left", validate="many_to_one")
    order = {name: i for i, name in enumerate(names)}
    table = table.sort_values(
        ["system", "category"], key=lambda s: s.map(order) if s.name == "system" else s
    )
    table.insert(1, "budget", budget)
    return table.reset_index(drop=True)


def growth(
    conversation: Conversation,
    specs: Iterable[str],
    *,
    budget: int = 1500,
    every: int = 1,
) -> pd.DataFrame:
    """Context tokens per request as one conversation grows, per system.

    Each turn is treated as a request: after it is ingested, the system assembles
    the context it would inject for that turn's text. Memory recipes should level
    off under the budget while ``full`` grows with the transcript; ``history_tokens``
    is that transcript, for the eye to compare against.

    Args:
        conversation: The turns to feed, in order.
        specs: System names, recipes and baselines alike.
        budget: Context token budget for every system except ``full``.
        every: Measure every n-th turn only (the last turn is always measured),
            to keep long conversations cheap.

    Returns:
        One row per system and measured turn: ``system``, ``turn`` (1-based),
        ``message_id``, ``context_tokens``, ``stored_tokens``, ``history_tokens``.

    Raises:
        ValueError: for an unknown system or `every` below 1.
    """
    if every < 1:
        raise ValueError(f"every must be at least 1, got {every}")
    counter = default_counter()
    turns = conversation.turns
    rows: list[dict[str, object]] = []
    for name in specs:
        history_tokens = 0
        with tempfile.TemporaryDirectory(prefix="memory-lab-growth-") as tmp:
            system = make_system(
                name,
                budget=budget,
                tenant=conversation.tenant,
                start=turns[0].timestamp,
                data_dir=Path(tmp) / "data",
                counter=counter,
            )
            try:
                for index, turn in enumerate(turns, start=1):
                    system.ingest(turn)
                    # Counted per turn and summed: close to the joined transcript
                    # and linear in length, where recounting the join is quadratic.
                    history_tokens += counter.count(turn_line(turn))
                    if index % every and index != len(turns):
                        continue
                    rows.append(
                        {
                            "system": name,
                            "turn": index,
                            "message_id": turn.id,
                            "context_tokens": system.context(turn.content).tokens,
                            "stored_tokens": system.stored_tokens(),
                            "history_tokens": history_tokens,
                        }
                    )
            finally:
                system.close()
    return pd.DataFrame(
        rows,
        columns=[
            "system",
            "turn",
            "message_id",
            "context_tokens",
            "stored_tokens",
            "history_tokens",
        ],
    )


def frontier(
    df: pd.DataFrame,
    *,
    recall: str = "answer_recall",
    ratio: str = "compression_ratio",
) -> pd.DataFrame:
    """Rows no other row beats on both recall and compression ratio.

    A row is dominated when another has recall and ratio at least as high and one
    of them strictly higher. Rows missing either number cannot be placed and are
    left out. Ties (identical pairs) all stay, so equal systems are all shown.

    Args:
        df: A `sweep` table (one row per system; filter categories first).
        recall: The recall column to maximise.
        ratio: The compression column to maximise.

    Returns:
        The optimal rows, sorted by ratio ascending (the order a line is drawn in).
    """
    placed = df.dropna(subset=[recall, ratio])
    xs = placed[ratio].to_numpy(dtype=float)
    ys = placed[recall].to_numpy(dtype=float)
    keep = [
        not (((xs >= x) & (ys >= y) & ((xs > x) | (ys > y))).any())
        for x, y in zip(xs, ys, strict=True)
    ]
    return placed[keep].sort_values([ratio, recall]).reset_index(drop=True)


def head(dataset: Dataset, n: int) -> Dataset:
    """The first `n` conversations, rehashed: a quick run on part of a benchmark.

    Raises:
        ValueError: for `n` below 1.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    return Dataset.build(
        f"{dataset.name}[:{n}]", dataset.conversations[:n], dict(dataset.metadata)
    )


def _fmt(value: object, digits: int = 2) -> str:
    """A number for prose; 'n/a' where a metric did not apply."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def conclusion(
    df: pd.DataFrame,
    *,
    recall: str = "answer_recall",
    ratio: str = "compression_ratio",
) -> str:
    """The sweep's answer in sentences, every number read from `df`.

    Computed rather than typed so the prose cannot drift from the table above it:
    the recipe with the best recall per context token, the recipes on the frontier,
    the best recipe against the best budgeted baseline, and false memories.

    Args:
        df: A `sweep` table's ``all`` rows.
        recall: The recall column the answer is about.
        ratio: The compression column.

    Raises:
        ValueError: when the table holds no recipe with a recall to compare.
    """
    rows = df[df["category"] == "all"] if "category" in df else df
    recipes = rows[rows["kind"] == "recipe"].dropna(subset=[recall, ratio])
    if recipes.empty:
        raise ValueError(f"no recipe rows with {recall} and {ratio} to conclude from")
    per_k = recipes[recall] / recipes["context_tokens_mean"] * 1000
    efficient = recipes.loc[per_k.idxmax()]
    best = recipes.sort_values([recall, ratio], ascending=False).iloc[0]
    front = frontier(rows, recall=recall, ratio=ratio)
    lines = [
        f"Best {recall} per 1,000 context tokens among recipes: {efficient['system']} "
        f"({_fmt(per_k.max(), 3)}; {recall} {_fmt(efficient[recall])} at "
        f"{_fmt(efficient['context_tokens_mean'], 0)} tokens, compression "
        f"{_fmt(efficient[ratio], 1)}x).",
        f"Highest {recall} among recipes: {best['system']} ({_fmt(best[recall])}, "
        f"compression {_fmt(best[ratio], 1)}x, hallucinated-memory rate "
        f"{_fmt(best['hallucinated_memory_rate'])}, stale-answer rate "
        f"{_fmt(best['stale_answer_rate'])}).",
        "On the recall/compression frontier: "
        + ", ".join(
            f"{r['system']} ({_fmt(r[recall])} at {_fmt(r[ratio], 1)}x)"
            for _, r in front.iterrows()
        )
        + ".",
    ]
    budgeted = rows[(rows["kind"] == "baseline") & (rows["system"] != "full")]
    budgeted = budgeted.dropna(subset=[recall])
    if not budgeted.empty:
        base = budgeted.sort_values([recall, ratio], ascending=False).iloc[0]
        verdict = "beats" if best[recall] > base[recall] else "does not beat"
        lines.append(
            f"At the same budget, {best['system']} {verdict} the best budgeted "
            f"baseline {base['system']} ({_fmt(base[recall])} at "
            f"{_fmt(base[ratio], 1)}x)."
        )
    rates = recipes["hallucinated_memory_rate"].dropna()
    if not rates.empty:
        lines.append(
            f"Hallucinated-memory rate across recipes: {_fmt(rates.min())} to "
            f"{_fmt(rates.max())}."
        )
    return "\n".join(lines)


def pooled(
    df: pd.DataFrame, categories: Iterable[str | int], metrics: Sequence[str]
) -> pd.DataFrame:
    """Per system, metrics pooled over some categories, weighted by probe count.

    Published LoCoMo figures pool categories 1 to 4; this gives ours on the same
    footing (a probe-weighted mean, as if the categories were one).

    Args:
        df: A `sweep` table with ``categories=True``.
        categories: Category numbers to pool.
        metrics: Probe-metric columns to pool.

    Returns:
        One row per system (index), one column per metric, plus ``n``.
    """
    wanted = {str(c) for c in categories}
    part = df[df["category"].astype(str).isin(wanted)]
    rows = {}
    for system, group in part.groupby("system", sort=False):
        row: dict[str, float] = {"n": float(group["n"].sum())}
        for metric in metrics:
            valid = group.dropna(subset=[metric])
            weight = valid["n"].sum()
            row[metric] = (
                float((valid[metric] * valid["n"]).sum() / weight)
                if weight
                else math.nan
            )
        rows[system] = row
    return pd.DataFrame.from_dict(rows, orient="index", columns=["n", *metrics])
