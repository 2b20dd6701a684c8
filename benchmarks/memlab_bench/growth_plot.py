"""The growth stage's latency as a plot: p50 and p95 per system against turns.

A table of four checkpoints hides the shape; on log axes a flat line is a cost
that does not follow the history and a slope of one is a cost that does.
"""

from __future__ import annotations

from pathlib import Path


def plot_growth(growth: list[dict], path: Path) -> Path:
    """Write the plot of context latency against conversation length to `path`."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.2))
    axes = fig.subplots(1, 2, sharey=True)
    for ax, stat in zip(axes, ("p50_ms", "p95_ms"), strict=True):
        for g in growth:
            turns = [p["turns"] for p in g["points"]]
            ms = [p["context_latency"][stat] for p in g["points"]]
            ax.plot(turns, ms, marker="o", label=g["system"])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("turns in the conversation")
        ax.set_title(f"context build {stat.removesuffix('_ms')}")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("ms")
    axes[1].legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path
