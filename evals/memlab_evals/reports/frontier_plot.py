"""Quality against cost over a sweep's systems, readable however many there are.

A sweep names its variants in full (``A(a_max_messages=10,a_keep_last=4)``).
Written beside their points, those names print over each other as soon as two
systems land close together, and at small settings several often land on the same
point. Here each point gets a short label instead: a name without parameters
keeps its name (``B``, ``full``), and a variant gets its recipe's name and an
index, ``A#1``, ``A#2`` (variants 1 and 2 of A; ``A+P#1`` is a variant of
``A+P``). Each label goes where it touches no other label or point, joined to
its point by a thin line when it had to move away. A key beside the axes maps
every short label to the system's full name and stars the systems on the Pareto
frontier: those no other system beats on both quality and cost.

The module leaves the backend alone: notebooks draw inline, tests pick Agg.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

CostBetter = Literal["lower", "higher"]
"""Which way the x axis improves: a cost is lower-better, a saving such as
``compression_ratio`` is higher-better."""

MARKERS: dict[str, tuple[str, str]] = {
    "recipe": ("o", "tab:blue"),
    "baseline": ("s", "tab:gray"),
}
"""Marker and colour per ``kind``; other kinds (peers) get `OTHER`."""
OTHER = ("^", "tab:green")

FONT_PT = 8.0
"""Size of the point labels, in points."""
_CHAR_PT = 0.62 * FONT_PT  # width of an average DejaVu Sans character
_PAD_PT = 2.0  # room around a label's box and a marker
_UNPLOTTED = "  (not plotted: no value)"
_RINGS_PT = (7.0, 14.0, 22.0, 32.0, 44.0, 58.0, 74.0)
_DIRECTIONS = (
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
)


def short_labels(names: Sequence[str], *, numbered: bool = False) -> dict[str, str]:
    """A short label per system, in the order given: label -> full name.

    A name without parameters keeps itself; ``base(params)`` becomes ``base#i``,
    counting that base's variants from 1 in order. `numbered` gives ``1``,
    ``2``... instead, for names too long even so.

    Raises:
        ValueError: when a name is repeated (the key could not tell them apart).
    """
    repeated = sorted(n for n, count in Counter(names).items() if count > 1)
    if repeated:
        raise ValueError(
            f"systems appear more than once: {repeated}; keep one row per system "
            "(a sweep with categories=True: the 'all' rows)"
        )
    if numbered:
        return {str(i): name for i, name in enumerate(names, start=1)}
    labels: dict[str, str] = {}
    seen: dict[str, int] = {}
    for name in names:
        base, paren, _ = name.partition("(")
        if not paren:
            label = name
        else:
            seen[base] = seen.get(base, 0) + 1
            label = f"{base}#{seen[base]}"
        if label in labels:  # a system literally named like a variant's label
            return short_labels(names, numbered=True)
        labels[label] = name
    return labels


def pareto_mask(
    quality: Sequence[float] | np.ndarray,
    cost: Sequence[float] | np.ndarray,
    *,
    cost_better: CostBetter = "lower",
) -> np.ndarray:
    """Which points no other point beats: quality higher, cost better.

    A point is dominated when another has quality at least as high and cost at
    least as good, one of them strictly. Identical points all stay, so equal
    systems are all shown. A point missing either number is never on it.
    """
    ys = np.asarray(quality, dtype=float)
    xs = np.asarray(cost, dtype=float)
    if cost_better == "higher":
        xs = -xs
    placed = np.isfinite(xs) & np.isfinite(ys)
    mask = np.zeros(len(xs), dtype=bool)
    for i in np.flatnonzero(placed):
        x, y = xs[i], ys[i]
        others = placed & (xs <= x) & (ys >= y) & ((xs < x) | (ys > y))
        mask[i] = not others.any()
    return mask


def plot_frontier(
    df: pd.DataFrame,
    quality: str = "evidence_recall",
    cost: str = "brain_input_tokens_per_1k_turns",
    *,
    ax: Axes | None = None,
    label: str = "system",
    cost_better: CostBetter = "lower",
    numbered: bool = False,
    title: str | None = None,
) -> Axes:
    """Plot quality against cost, one point per system, frontier and key drawn.

    Labels are placed for the axes' size at the time of the call, so give the
    figure its size first; a `tight_layout` afterwards would shrink the axes to
    make room for the key and could push labels together (notebooks need none:
    the inline backend saves with a tight bounding box instead).

    Args:
        df: A `memlab_evals.running.sweep.sweep` table, or any frame with one row per
            system; given per-category rows too, only the ``all`` rows are used.
        quality: Column plotted upwards, higher better.
        cost: Column plotted across; see `cost_better`.
        ax: Axes to draw into; a new 9 x 5 inch figure when None.
        label: Column holding each system's full name.
        cost_better: ``"lower"`` for a cost, ``"higher"`` for a saving.
        numbered: Label points ``1``, ``2``... instead of ``A#1``, ``A#2``...
        title: Axes title; by default the two columns' names.

    Returns:
        The axes. The key is its legend: one entry per system, ``label  *
        system`` (the star for the frontier), with rows missing either number
        listed as not plotted.

    Raises:
        ValueError: for a missing column or a system that appears twice.
    """
    rows = _one_row_per_system(df, label)
    missing = [c for c in (quality, cost, label) if c not in rows]
    if missing:
        raise ValueError(
            f"no column {missing} in the table; it has {', '.join(map(str, rows))}"
        )
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 5))
    names = [str(n) for n in rows[label]]
    labels = short_labels(names, numbered=numbered)
    ys = pd.to_numeric(rows[quality], errors="coerce").to_numpy(dtype=float)
    xs = pd.to_numeric(rows[cost], errors="coerce").to_numpy(dtype=float)
    kinds = (
        rows["kind"].astype(str).tolist() if "kind" in rows else ["recipe"] * len(rows)
    )
    placed = np.isfinite(xs) & np.isfinite(ys)
    front = pareto_mask(ys, xs, cost_better=cost_better)

    for i in np.flatnonzero(placed):
        marker, colour = MARKERS.get(kinds[i], OTHER)
        ax.scatter(
            xs[i],
            ys[i],
            marker=marker,
            s=36,
            color=colour,
            edgecolors="black" if front[i] else "none",
            linewidths=1.2,
            zorder=3,
        )
    order = np.flatnonzero(front)[np.argsort(xs[front], kind="stable")]
    ax.plot(xs[order], ys[order], "k--", lw=1, zorder=2, gid="frontier")
    better = "lower" if cost_better == "lower" else "higher"
    ax.set_xlabel(f"{cost} ({better} is better)")
    ax.set_ylabel(f"{quality} (higher is better)")
    ax.set_title(title if title is not None else f"{quality} against {cost}")
    ax.margins(0.12)
    if not placed.any():
        ax.text(
            0.5,
            0.5,
            f"no system has both {quality} and {cost}",
            transform=ax.transAxes,
            ha="center",
            va="center",
        )
    _place_labels(ax, list(labels), xs, ys, placed)
    _draw_key(ax, labels, kinds, placed, front)
    return ax


def _one_row_per_system(df: pd.DataFrame, label: str) -> pd.DataFrame:
    """The ``all`` rows of a per-category table; any other table as it is."""
    if "category" in df and label in df and df[label].duplicated().any():
        overall = df[df["category"].astype(str) == "all"]
        if not overall.empty:
            return overall.reset_index(drop=True)
    return df.reset_index(drop=True)


def _place_labels(
    ax: Axes,
    labels: list[str],
    xs: np.ndarray,
    ys: np.ndarray,
    placed: np.ndarray,
) -> None:
    """Put each label where its box meets no other label and no marker.

    Works in points on the screen, from the axes' current limits: candidate
    offsets on rings of growing radius, eight directions each, the first free
    one taken. A label beyond the first ring gets a leader line to its point.
    """
    ax.autoscale_view()
    ax.set_xlim(ax.get_xlim())  # freeze: labels must not move the data
    ax.set_ylim(ax.get_ylim())
    per_pt = ax.figure.dpi / 72.0
    at = (
        ax.transData.transform(
            np.column_stack([np.where(placed, xs, 0.0), np.where(placed, ys, 0.0)])
        )
        / per_pt
    )  # points
    frame = ax.get_window_extent()
    bounds = (
        frame.x0 / per_pt,
        frame.y0 / per_pt,
        frame.x1 / per_pt,
        frame.y1 / per_pt,
    )
    marker = 4.0 + _PAD_PT
    taken = [
        (px - marker, py - marker, px + marker, py + marker)
        for (px, py), ok in zip(at, placed, strict=True)
        if ok
    ]
    for i in np.flatnonzero(placed):
        text = labels[i]
        width = len(text) * _CHAR_PT + 2 * _PAD_PT
        height = 1.25 * FONT_PT + 2 * _PAD_PT
        px, py = at[i]
        best = None
        for ring, radius in enumerate(_RINGS_PT):
            for dx, dy in _DIRECTIONS:
                box = _box(px + dx * radius, py + dy * radius, dx, dy, width, height)
                if _inside(box, bounds) and not any(_overlap(box, o) for o in taken):
                    best = (ring, radius, dx, dy, box)
                    break
            if best is not None:
                break
        if best is None:  # crowded beyond every ring: the outermost, still keyed
            radius = _RINGS_PT[-1]
            box = _box(px + radius, py + radius, 1, 1, width, height)
            best = (len(_RINGS_PT), radius, 1, 1, box)
        ring, radius, dx, dy, box = best
        taken.append(box)
        ax.annotate(
            text,
            (xs[i], ys[i]),
            xytext=(dx * radius, dy * radius),
            textcoords="offset points",
            ha={1: "left", -1: "right", 0: "center"}[dx],
            va={1: "bottom", -1: "top", 0: "center"}[dy],
            fontsize=FONT_PT,
            bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none"},
            arrowprops=(
                {"arrowstyle": "-", "lw": 0.5, "color": "0.5"} if ring > 0 else None
            ),
            zorder=4,
            gid=f"label:{text}",
        )


def _box(
    x: float, y: float, dx: int, dy: int, width: float, height: float
) -> tuple[float, float, float, float]:
    """The box of a label anchored at (x, y), aligned away from its point."""
    left = x if dx > 0 else x - width if dx < 0 else x - width / 2
    bottom = y if dy > 0 else y - height if dy < 0 else y - height / 2
    return (left, bottom, left + width, bottom + height)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box: tuple[float, ...], bounds: tuple[float, ...]) -> bool:
    return (
        box[0] >= bounds[0]
        and box[1] >= bounds[1]
        and box[2] <= bounds[2]
        and box[3] <= bounds[3]
    )


def key_entries(
    labels: dict[str, str], placed: Sequence[bool], front: Sequence[bool]
) -> list[str]:
    """The key's lines: short label, a star for the frontier, the full name."""
    width = max((len(s) for s in labels), default=0)
    lines = []
    for (short, name), ok, best in zip(labels.items(), placed, front, strict=True):
        note = "" if ok else _UNPLOTTED
        lines.append(f"{short:<{width}} {'*' if best else ' '} {name}{note}")
    return lines


def _draw_key(
    ax: Axes,
    labels: dict[str, str],
    kinds: list[str],
    placed: np.ndarray,
    front: np.ndarray,
) -> None:
    """The legend as the key: each system's marker, short label and full name."""
    handles: list[Line2D] = []
    for kind, ok, best in zip(kinds, placed, front, strict=True):
        marker, colour = MARKERS.get(kind, OTHER)
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker=marker if ok else "",
                color=colour,
                markeredgecolor="black" if best else colour,
                markersize=6,
            )
        )
    entries = key_entries(labels, placed.tolist(), front.tolist())
    handles.append(Line2D([], [], color="black", linestyle="--", lw=1))
    entries.append("frontier (* on it)")
    ax.legend(
        handles,
        entries,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        frameon=False,
        prop={"family": "monospace", "size": FONT_PT},
        handlelength=1.5,
    )


def key_of(ax: Axes) -> dict[str, str]:
    """Read a drawn key back: short label -> full system name (plotted or not)."""
    legend = ax.get_legend()
    if legend is None:
        return {}
    key: dict[str, str] = {}
    for text in legend.get_texts()[:-1]:  # the last entry is the frontier line
        short, rest = text.get_text().split(maxsplit=1)
        name = rest.removeprefix("* ").removesuffix(_UNPLOTTED)
        key[short] = name
    return key
