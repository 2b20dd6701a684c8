"""``memory-lab triggers``: every trigger and the usual combinations, side by side.

The main job compares the recipes with the baselines on recall. This command asks
what the triggers themselves change: it runs each registered trigger alone (the
shipped ones and any a plug-in adds), each beyond A, B and C combined with each
of them, and A+B+C, over the main synthetic set and the LoCoMo development split
at both budgets, and writes one table of the trigger columns
(`memlab_evals.reports.trigger_columns`) and one plot of recall against what was
summarised. `rag-hybrid` runs beside them as the raw-turn reference.

Outputs in OUT: ``triggers.csv`` (one row per dataset, budget and recipe),
``triggers.md`` and ``triggers.png``, and each run's own folder
(``triggers-<dataset>-<budget>/``) with run.json, summary.csv and report.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from memlab_evals.reports.frontier_plot import plot_frontier
from memlab_evals.reports.report import TRIGGER_TABLE, markdown_table
from memlab_evals.running.runner import default_workers
from memory_lab.triggers import load_plugins, trigger_names

ANCHORS = ("A", "B", "C")
"""The three triggers every new one is measured beside and combined with."""
REFERENCE = "rag-hybrid"


def default_systems(added: list[str] = ()) -> str:
    """Every registered trigger alone, each newer one with each anchor, A+B+C.

    Read from the registry, so a trigger module (or a plug-in) joins the table
    without an edit here; `rag-hybrid` comes last as the raw-turn reference.
    """
    singles = [*trigger_names(), *[a for a in added if a not in trigger_names()]]
    newer = [name for name in singles if name not in ANCHORS]
    combined = [f"{anchor}+{name}" for name in newer for anchor in ANCHORS]
    return ",".join([*singles, *combined, "+".join(ANCHORS), REFERENCE])


def register(sub: argparse._SubParsersAction) -> None:
    """Add `triggers`: the trigger comparison table."""
    p = sub.add_parser(
        "triggers",
        help="compare every trigger and combinations on what they change",
        description="Run each trigger alone and combined over the main synthetic "
        "set and the LoCoMo development split at 600 and 1,500 tokens; write "
        "OUT/triggers.csv, triggers.md and triggers.png.",
    )
    p.add_argument("--out", type=Path, default=Path("runs/triggers"), help="folder")
    p.add_argument(
        "--systems",
        help="comma list of recipes (default: every trigger alone, each one "
        "beyond A, B and C combined with each of them, A+B+C, and "
        f"{REFERENCE})",
    )
    p.add_argument(
        "--budgets", default="600,1500", help="comma list of context budgets"
    )
    p.add_argument(
        "--dataset",
        action="append",
        help="LABEL=SPEC, repeatable (default: the main job's synthetic set and "
        "the LoCoMo development split when it is found)",
    )
    p.add_argument("--workers", type=int, default=0, help="default: the cores")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from memlab_evals.main_plan import main_datasets

    added = load_plugins(getattr(args, "plugins", ()))
    systems = args.systems or default_systems(added)
    budgets = [int(b) for b in str(args.budgets).split(",") if b.strip()]
    datasets = (
        [tuple(d.split("=", 1)) for d in args.dataset]
        if args.dataset
        else main_datasets(args.settings.locomo)
    )
    table = compare(
        datasets,
        systems,
        budgets,
        args.out,
        workers=args.workers or default_workers(),
        plugins=tuple(getattr(args, "plugins", ())),
        vector_cache=args.settings.vector_cache_path(),
    )
    print(
        f"wrote {args.out / 'triggers.csv'} ({len(table)} rows), triggers.md, "
        "triggers.png"
    )
    return 0


def compare(
    datasets: list[tuple[str, str]],
    systems: str,
    budgets: list[int],
    out: Path,
    *,
    workers: int = 1,
    plugins: tuple[str, ...] = (),
    vector_cache: Path | None = None,
) -> pd.DataFrame:
    """Run every dataset at every budget; the combined table, also written to OUT.

    `vector_cache` is the file embeddings (and, beside it, parses) are kept in,
    as for `main`: every recipe reads the same turns, in two processes.
    """
    from memlab_evals.evaluation import evaluate_budgets
    from memlab_evals.reports.aggregate import probe_scores, summarize
    from memlab_evals.reports.publish import publish

    frames = []
    for label, spec in datasets:
        started = time.perf_counter()
        # One ingestion per conversation and system, assembled at every budget.
        logs = evaluate_budgets(
            spec,
            systems,
            list(budgets),
            workers=workers,
            progress=sys.stderr.isatty(),
            plugins=plugins,
            vector_cache=vector_cache,
        )
        print(f"{label}: {time.perf_counter() - started:.0f} s for every budget")
        for budget, log in logs.items():
            probes = probe_scores(log)
            publish(log, out / f"triggers-{label}-{budget}", probes=probes)
            rows = summarize(log, probes)
            rows = rows[rows["category"] == "all"].assign(dataset=label, budget=budget)
            frames.append(rows[["dataset", "budget", "system", *TRIGGER_TABLE]])
    table = pd.concat(frames, ignore_index=True)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "triggers.csv", index=False)
    _write_markdown(table, out / "triggers.md")
    _plot(table, out / "triggers.png")
    return table


def _write_markdown(table: pd.DataFrame, path: Path) -> None:
    parts = ["# What the triggers change", ""]
    for (label, budget), rows in table.groupby(["dataset", "budget"], sort=False):
        parts += [f"## {label} at {budget} tokens", ""]
        shown = rows.drop(columns=["dataset", "budget"]).dropna(axis=1, how="all")
        parts += [markdown_table(shown), ""]
    path.write_text("\n".join(parts), encoding="utf-8")


def _plot(table: pd.DataFrame, path: Path) -> None:
    """Per dataset and budget: summary-only recall against summarising cost."""
    groups = list(table.groupby(["dataset", "budget"], sort=False))
    fig = Figure(figsize=(9, 4.2 * len(groups)))
    axes = fig.subplots(len(groups), 1, squeeze=False)
    for ax, ((label, budget), rows) in zip(axes[:, 0], groups, strict=True):
        recipes = rows[rows["compress_input_tokens_per_1k_turns"].notna()]
        plot_frontier(
            recipes,
            quality="summary_only_evidence_recall",
            cost="compress_input_tokens_per_1k_turns",
            ax=ax,
            title=f"{label} at {budget} tokens",
        )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
