"""The main job's verdict across its runs: one table and one plot of the goal.

Each run answers "does the best recipe beat the best raw-turn retriever?" for one
dataset and budget (see `goal`); researchers compare those answers side by side,
so the main job writes them together: RUNS/main-goal.csv and RUNS/main-goal.png.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from memlab_evals.reports.aggregate import probe_scores
from memlab_evals.reports.goal import against_retrieval
from memlab_evals.running.log import RunLog
from memlab_evals.systems import names

METRICS = ("evidence_recall", "answer_recall")
COLUMNS = [
    "run",
    "dataset",
    "budget",
    "metric",
    "recipe",
    "recipe_mean",
    "retriever",
    "retriever_mean",
    "difference",
    "ci_low",
    "ci_high",
    "n",
    "verdict",
]


def goal_rows(run: str, log: RunLog, probes: pd.DataFrame | None = None) -> list[dict]:
    """One row per metric for one run; none when it lacks a recipe or a retriever.

    `probes` is `probe_scores(log)` when the caller has it already.
    """
    probes = probe_scores(log) if probes is None else probes
    recipes = list(log.config.recipes)
    rows = []
    for metric in METRICS:
        if probes.empty or metric not in probes:
            continue
        retrievers = list(names("baseline", retrieval=True))
        found = against_retrieval(probes, recipes, retrievers, metric)
        if found is None:
            continue
        means = probes.groupby("system")[metric].mean()
        rows.append(
            {
                "run": run,
                "dataset": log.config.dataset,
                "budget": log.config.budget,
                "metric": metric,
                "recipe": found.system,
                "recipe_mean": float(means[found.system]),
                "retriever": found.other,
                "retriever_mean": float(means[found.other]),
                "difference": found.difference,
                "ci_low": found.low,
                "ci_high": found.high,
                "n": found.n,
                "verdict": found.verdict,
            }
        )
    return rows


def goal_of_runs(run_dirs: Sequence[Path], out: Path) -> pd.DataFrame:
    """The goal table and plot of stored runs (folders with a run.json), re-scored."""
    rows: list[dict] = []
    for run_dir in run_dirs:
        rows += goal_rows(run_dir.name, RunLog.load(run_dir / "run.json"))
    return write_goal(rows, out)


def write_goal(rows: Sequence[dict], out: Path) -> pd.DataFrame:
    """Write OUT/main-goal.csv and OUT/main-goal.png from `goal_rows` rows."""
    table = pd.DataFrame(list(rows), columns=COLUMNS)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "main-goal.csv", index=False)
    _plot(table, out / "main-goal.png")
    return table


def _plot(table: pd.DataFrame, path: Path) -> None:
    """Paired differences with their intervals; right of zero is memory ahead."""
    fig = Figure(figsize=(8, 0.5 * max(len(table), 2) + 1.2))
    ax = fig.subplots()
    labels = [
        f"{r.run} {r.metric.replace('_recall', '')}: {r.recipe} - {r.retriever}"
        for r in table.itertuples()
    ]
    ys = list(range(len(table)))[::-1]
    colours = {"ahead": "tab:green", "behind": "tab:red"}
    for y, r in zip(ys, table.itertuples(), strict=True):
        ax.errorbar(
            r.difference,
            y,
            xerr=[[r.difference - r.ci_low], [r.ci_high - r.difference]],
            fmt="o",
            color=colours.get(r.verdict, "tab:grey"),
            capsize=3,
        )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(ys, labels)
    ax.set_xlabel("best recipe - best raw-turn retriever (paired bootstrap 95%)")
    ax.set_title("Memory against retrieval over raw turns, same budget")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
