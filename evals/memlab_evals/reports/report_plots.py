"""The report's pictures: recall against compression, per category, and cost."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from memlab_datasets.categories import category_name

from memlab_evals.reports.frontier_plot import plot_frontier


def plot_recall_frontier(rows: pd.DataFrame, path: Path) -> list[str]:
    """Recall against compression per system, from the `all` rows.

    Returns the systems left off (no compression ratio).
    """
    fig = Figure(figsize=(7, 4.5))
    ax = fig.subplots()
    skipped = []
    for metric, marker in (("evidence_recall", "o"), ("answer_recall", "^")):
        shown = rows.dropna(subset=["compression_ratio", metric])
        ax.scatter(
            shown["compression_ratio"], shown[metric], marker=marker, label=metric
        )
        if metric == "evidence_recall":
            for _, row in shown.iterrows():
                ax.annotate(
                    row["system"],
                    (row["compression_ratio"], row[metric]),
                    textcoords="offset points",
                    xytext=(4, 4),
                    fontsize=8,
                )
    skipped = sorted(
        set(rows["system"]) - set(rows.dropna(subset=["compression_ratio"])["system"])
    )
    if (rows["compression_ratio"].dropna() > 0).any():
        ax.set_xscale("log")
    ax.set_xlabel("compression_ratio (history tokens / context tokens, log)")
    ax.set_ylabel("recall")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Recall against compression, per system")
    ax.legend(loc="lower left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return skipped


def plot_categories(summary: pd.DataFrame, path: Path) -> None:
    """Per-category bars with bootstrap 95% error bars, one panel per recall metric."""
    rows = summary[summary["category"].astype(str) != "all"]
    systems = list(dict.fromkeys(rows["system"]))
    categories = sorted(rows["category"].astype(str).unique(), key=int)
    fig = Figure(figsize=(11, 4.2))
    axes = fig.subplots(1, 2, sharey=True)
    width = 0.8 / max(len(systems), 1)
    x = np.arange(len(categories))
    for ax, metric in zip(axes, ("evidence_recall", "answer_recall"), strict=True):
        for i, system in enumerate(systems):
            mine = rows[rows["system"] == system].set_index(
                rows[rows["system"] == system]["category"].astype(str)
            )
            mine = mine.reindex(categories)
            values = mine[metric].to_numpy(dtype=float)
            low = values - mine[f"{metric}_ci_low"].to_numpy(dtype=float)
            high = mine[f"{metric}_ci_high"].to_numpy(dtype=float) - values
            errors = np.nan_to_num(np.vstack([low, high]), nan=0.0).clip(min=0)
            ax.bar(
                x + i * width - 0.4 + width / 2,
                np.nan_to_num(values, nan=0.0),
                width,
                yerr=errors,
                capsize=2,
                label=system,
            )
        ax.set_xticks(
            x, [f"{c}\n{category_name(int(c))}" for c in categories], fontsize=7
        )
        ax.set_title(f"{metric} per category (95% bootstrap CI)")
        ax.set_ylim(0, 1.05)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("recall")
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def plot_trigger_costs(rows: pd.DataFrame, path: Path) -> None:
    """Two frontiers: recall, and summary-only recall, against summarising cost."""
    fig = Figure(figsize=(13, 4.8))
    axes = fig.subplots(1, 2)
    for ax, quality in zip(
        axes, ("evidence_recall", "summary_only_evidence_recall"), strict=True
    ):
        plot_frontier(
            rows,
            quality=quality,
            cost="compress_input_tokens_per_1k_turns",
            ax=ax,
        )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
