"""The quality-against-cost plot: short labels, the key, the frontier, no overprint."""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from memlab_evals.reports.frontier_plot import (  # noqa: E402
    key_of,
    pareto_mask,
    plot_frontier,
    short_labels,
)

# Shaped like a sweep's table: long variant names, several on one point (as the
# small CI settings give), a baseline with no cost, per-category rows as well.
SYSTEMS = [
    ("A(a_max_messages=10,a_keep_last=4)", "recipe", 0.90, 300.0),
    ("A", "recipe", 0.80, 200.0),
    ("A(a_max_messages=40,a_keep_last=20)", "recipe", 0.80, 200.0),
    ("B", "recipe", 0.60, 250.0),
    ("C", "recipe", 0.70, 120.0),
    ("C(c_granularity='week')", "recipe", 0.70, 120.0),
    ("C(c_idle_gap_minutes=60)", "recipe", 0.70, 120.0),
    ("A+B+C", "recipe", 0.50, 400.0),
    ("full", "baseline", 1.00, float("nan")),
    ("window", "baseline", 0.40, 0.0),
]


def table(systems=SYSTEMS) -> pd.DataFrame:
    rows = [
        {"system": s, "category": c, "kind": k, "q": q, "cost": x}
        for s, k, q, x in systems
        for c in ("all", "1")
    ]
    return pd.DataFrame(rows)


@pytest.fixture
def ax():
    fig, ax = plt.subplots(figsize=(9, 5))
    yield ax
    plt.close(fig)


def test_short_labels_keep_plain_names_and_index_variants() -> None:
    names = [s for s, *_ in SYSTEMS]
    assert list(short_labels(names)) == [
        "A#1", "A", "A#2", "B", "C", "C#1", "C#2", "A+B+C", "full", "window"
    ]  # fmt: skip
    assert short_labels(names)["A#2"] == "A(a_max_messages=40,a_keep_last=20)"
    assert list(short_labels(names, numbered=True)) == [str(i) for i in range(1, 11)]


def test_short_labels_fall_back_to_numbers_on_a_clash() -> None:
    assert short_labels(["A(x=1)", "A#1"]) == {"1": "A(x=1)", "2": "A#1"}


def test_a_repeated_system_is_refused() -> None:
    with pytest.raises(ValueError, match="more than once"):
        short_labels(["A", "A"])


def test_the_key_maps_every_label_to_its_system(ax) -> None:
    plot_frontier(table(), "q", "cost", ax=ax)
    key = key_of(ax)
    assert key == short_labels([s for s, *_ in SYSTEMS])
    assert set(key.values()) == {s for s, *_ in SYSTEMS}
    drawn = {t.get_text() for t in ax.texts}
    # Every plotted system has its label beside it; `full` (no cost) has none.
    assert drawn == set(key) - {"full"}


def test_the_frontier_is_the_non_dominated_points(ax) -> None:
    plot_frontier(table(), "q", "cost", ax=ax)
    (line,) = [ln for ln in ax.get_lines() if ln.get_gid() == "frontier"]
    points = set(zip(line.get_xdata(), line.get_ydata(), strict=True))
    # window is cheapest; C's three variants tie at 120; A.1 is the best quality
    # with a cost; A/A#2 at 200 beat B and A+B+C.
    assert points == {(0.0, 0.4), (120.0, 0.7), (200.0, 0.8), (300.0, 0.9)}
    starred = {
        t.get_text().split()[0]
        for t in ax.get_legend().get_texts()
        if " * " in t.get_text()
    }
    assert starred == {"window", "C", "C#1", "C#2", "A", "A#2", "A#1"}


def test_pareto_mask_against_brute_force() -> None:
    rng = np.random.default_rng(7)
    q = rng.integers(0, 5, 40).astype(float)
    c = rng.integers(0, 5, 40).astype(float)
    q[3] = np.nan
    for better in ("lower", "higher"):
        sign = 1 if better == "lower" else -1
        expected = [
            bool(np.isfinite(q[i]))
            and not any(
                np.isfinite(q[j])
                and q[j] >= q[i]
                and sign * c[j] <= sign * c[i]
                and (q[j] > q[i] or c[j] != c[i])
                for j in range(40)
            )
            for i in range(40)
        ]
        assert pareto_mask(q, c, cost_better=better).tolist() == expected


def test_a_higher_better_x_axis_flips_the_frontier(ax) -> None:
    plot_frontier(table(), "q", "cost", ax=ax, cost_better="higher")
    (line,) = [ln for ln in ax.get_lines() if ln.get_gid() == "frontier"]
    assert set(zip(line.get_xdata(), line.get_ydata(), strict=True)) == {
        (300.0, 0.9),
        (400.0, 0.5),
    }
    assert "higher is better" in ax.get_xlabel()


def test_labels_do_not_overlap_even_on_one_point(ax) -> None:
    crowd = [(f"A(a_max_messages={n})", "recipe", 0.5, 100.0) for n in range(2, 14)]
    plot_frontier(table(SYSTEMS + crowd), "q", "cost", ax=ax)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    # The text alone: an annotation's own extent includes its leader line.
    boxes = [Text.get_window_extent(t, renderer) for t in ax.texts]
    assert len(boxes) == len(SYSTEMS) - 1 + len(crowd)
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)


def test_it_saves_to_a_png(ax, tmp_path) -> None:
    plot_frontier(table(), "q", "cost", ax=ax)
    path = tmp_path / "frontier.png"
    ax.figure.savefig(path, bbox_inches="tight")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_it_makes_its_own_axes_and_survives_a_column_with_no_numbers() -> None:
    df = table().assign(cost=float("nan"))
    ax = plot_frontier(df, "q", "cost")
    try:
        assert "no system has both q and cost" in {t.get_text() for t in ax.texts}
        assert len(key_of(ax)) == len(SYSTEMS)
    finally:
        plt.close(ax.figure)


def test_a_missing_column_is_named(ax) -> None:
    with pytest.raises(ValueError, match="brain_cost_per_1k_turns"):
        plot_frontier(table(), "q", "brain_cost_per_1k_turns", ax=ax)
