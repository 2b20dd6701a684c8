"""The sweep helpers the notebooks call, on a tiny synthetic set."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from memlab_datasets import load_dataset
from memlab_evals.running.sweep import (
    conclusion,
    frontier,
    grid_systems,
    growth,
    head,
    param_columns,
    pooled,
    recipe_columns,
    sweep,
)

# Long enough that the history outgrows the 300-token budget: below it, a
# budget-filling memory shows more tokens than the history has.
TINY = "synthetic:conversations=1,sessions=2,turns-per-session=24"
GRID = {
    "A": ["a_max_messages=6,a_keep_last=2", ""],
    "B+C": ["b_high_water=200,b_low_water=100"],
}


@pytest.fixture(scope="module")
def swept() -> pd.DataFrame:
    return sweep(TINY, GRID, budget=300, baselines=("full", "window"))


def test_grid_mapping_expands_to_system_names_in_order() -> None:
    assert grid_systems(GRID) == [
        "A(a_max_messages=6,a_keep_last=2)",
        "A",
        "B+C(b_high_water=200,b_low_water=100)",
    ]


def test_grid_list_is_taken_as_names() -> None:
    assert grid_systems(["C(c_granularity='week')", "full"]) == [
        "C(c_granularity='week')",
        "full",
    ]


@pytest.mark.parametrize(
    "grid",
    [
        {"A": ["a_nonsense=3"]},
        {"A": ["b_high_water=900"]},
        ["A(a_keep_last=30)"],
        "A,B",
    ],
)
def test_bad_grid_fails_before_running(grid) -> None:
    with pytest.raises(ValueError):
        grid_systems(grid)


def test_recipe_columns_hold_effective_parameters() -> None:
    cols = recipe_columns("A+C(a_max_messages=30,c_granularity='week')")
    assert cols["kind"] == "recipe"
    assert cols["recipe"] == "A+C"
    assert cols["a_max_messages"] == 30
    assert cols["a_keep_last"] == 10  # the default, filled in
    assert cols["c_granularity"] == "week"
    assert cols["b_high_water"] is None
    base = recipe_columns("rag-bm25")
    assert base["kind"] == "baseline"
    assert all(base[c] is None for c in param_columns())


@pytest.mark.slow
def test_sweep_has_one_row_per_system_in_grid_then_baseline_order(swept) -> None:
    assert list(swept["system"]) == grid_systems(GRID) + ["full", "window"]
    assert set(swept["category"]) == {"all"}
    assert list(swept["kind"]) == ["recipe"] * 3 + ["baseline"] * 2
    assert list(swept["a_max_messages"].iloc[:2]) == [6, 20]
    assert (swept["budget"] == 300).all()
    assert "ingest_ms_p95" not in swept


@pytest.mark.slow
def test_sweep_numbers_are_sane(swept) -> None:
    full = swept.set_index("system").loc["full"]
    assert full["compression_ratio"] == pytest.approx(1.0)
    recipes = swept[swept["kind"] == "recipe"]
    # The recipes and the window share a 300-token budget; full does not.
    assert (swept.loc[swept["system"] != "full", "context_tokens_mean"] <= 300).all()
    assert (recipes["compression_ratio"] > 1).all()
    assert recipes["hallucinated_memory_rate"].between(0, 1).all()
    assert math.isnan(full["hallucinated_memory_rate"])


@pytest.mark.slow
def test_sweep_is_deterministic(swept) -> None:
    again = sweep(TINY, GRID, budget=300, baselines=("full", "window"))
    pd.testing.assert_frame_equal(swept, again)


@pytest.mark.slow
def test_sweep_keeps_categories_when_asked() -> None:
    table = sweep(TINY, ["A"], budget=300, baselines=(), categories=True)
    assert set(table["system"]) == {"A"}
    assert table["category"].iloc[-1] == "all"
    per_category = table[table["category"] != "all"]
    assert len(per_category) >= 2
    assert per_category["n"].sum() == table.loc[table["category"] == "all", "n"].item()
    assert {"answer_recall_ci_low", "answer_recall_ci_high"} <= set(table.columns)


@pytest.mark.slow
def test_growth_full_grows_while_budgeted_systems_stay_under_budget() -> None:
    conv = load_dataset(TINY).conversations[0]
    table = growth(
        conv,
        ["A(a_max_messages=6,a_keep_last=2)", "full", "window"],
        budget=150,
        every=3,
    )
    n = len(conv.turns)
    full = table[table["system"] == "full"]
    assert list(full["turn"]) == [*range(3, n + 1, 3), *([n] if n % 3 else [])]
    assert full["context_tokens"].is_monotonic_increasing
    assert full["context_tokens"].iloc[-1] > 150
    assert (full["context_tokens"] == full["stored_tokens"]).all()
    capped = table[table["system"] != "full"]
    assert (capped["context_tokens"] <= 150).all()
    assert (table["history_tokens"] > 0).all()


def test_growth_rejects_bad_every() -> None:
    conv = load_dataset(TINY).conversations[0]
    with pytest.raises(ValueError):
        growth(conv, ["full"], every=0)


def test_frontier_on_a_known_table() -> None:
    table = pd.DataFrame(
        {
            "system": ["full", "low", "mid", "dominated", "high", "unplaced"],
            "answer_recall": [1.0, 0.5, 0.8, 0.7, 0.6, math.nan],
            "compression_ratio": [1.0, 12.0, 5.0, 4.0, 9.0, 20.0],
        }
    )
    assert list(frontier(table)["system"]) == ["full", "mid", "high", "low"]


points = st.lists(
    st.tuples(st.integers(0, 10).map(lambda v: v / 10), st.integers(1, 20).map(float)),
    min_size=1,
    max_size=30,
)


@pytest.mark.slow
@given(points)
def test_frontier_rows_are_undominated_and_dominate_the_rest(pts) -> None:
    table = pd.DataFrame(pts, columns=["answer_recall", "compression_ratio"])
    front = frontier(table)
    pairs = list(zip(front["answer_recall"], front["compression_ratio"], strict=True))

    def dominates(a, b) -> bool:
        return a[0] >= b[0] and a[1] >= b[1] and a != b

    assert pairs
    for p in pairs:
        assert not any(dominates(q, p) for q in pts)
    for q in pts:
        assert q in pairs or any(dominates(p, q) for p in pairs)


def test_head_keeps_the_first_conversations_with_a_matching_hash() -> None:
    data = load_dataset("synthetic:conversations=3,sessions=1,turns-per-session=4")
    first = head(data, 2)
    assert [c.id for c in first.conversations] == [c.id for c in data.conversations[:2]]
    assert first.content_hash != data.content_hash
    assert head(first, 5).content_hash == first.content_hash
    with pytest.raises(ValueError):
        head(data, 0)


def _table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "system": ["A", "B", "full", "window"],
            "category": ["all"] * 4,
            "kind": ["recipe", "recipe", "baseline", "baseline"],
            "answer_recall": [0.8, 0.6, 1.0, 0.5],
            "compression_ratio": [4.0, 8.0, 1.0, 4.0],
            "context_tokens_mean": [500.0, 200.0, 2000.0, 500.0],
            "hallucinated_memory_rate": [0.1, 0.0, math.nan, math.nan],
            "stale_answer_rate": [0.25, math.nan, 0.0, 0.5],
        }
    )


def test_conclusion_states_the_numbers_of_the_table() -> None:
    text = conclusion(_table())
    lines = text.splitlines()
    # B: 0.6 / 200 tokens = 3.0 per 1k; A: 0.8 / 500 = 1.6 per 1k.
    assert lines[0].startswith("Best answer_recall per 1,000 context tokens")
    assert "B (3.000" in lines[0]
    assert "A (0.80, compression 4.0x" in lines[1]
    assert "stale-answer rate 0.25" in lines[1]
    assert "full (1.00 at 1.0x), A (0.80 at 4.0x), B (0.60 at 8.0x)" in lines[2]
    assert "A beats the best budgeted baseline window (0.50 at 4.0x)" in lines[3]
    assert lines[4] == "Hallucinated-memory rate across recipes: 0.00 to 0.10."


def test_conclusion_says_when_a_baseline_wins() -> None:
    table = _table()
    table.loc[table["system"] == "window", "answer_recall"] = 0.9
    assert "A does not beat the best budgeted baseline window" in conclusion(table)


def test_conclusion_needs_a_recipe() -> None:
    with pytest.raises(ValueError):
        conclusion(_table().iloc[2:])


def test_pooled_weights_categories_by_probe_count() -> None:
    table = pd.DataFrame(
        {
            "system": ["A", "A", "A", "A", "full"],
            "category": ["1", "4", "5", "all", "1"],
            "n": [1, 3, 10, 14, 2],
            "answer_recall": [0.0, 1.0, math.nan, 0.5, 1.0],
            "evidence_recall": [0.2, 0.6, 0.9, 0.8, 1.0],
        }
    )
    out = pooled(table, [1, 4, 5], ["answer_recall", "evidence_recall"])
    assert list(out.index) == ["A", "full"]
    assert out.loc["A", "answer_recall"] == pytest.approx(0.75)  # 5 has no answers
    assert out.loc["A", "evidence_recall"] == pytest.approx((0.2 + 1.8 + 9) / 14)
    assert out.loc["A", "n"] == 14
    assert out.loc["full", "answer_recall"] == 1.0
