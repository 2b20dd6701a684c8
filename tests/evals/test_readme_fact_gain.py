"""The results page's paired table of what facts add over turns alone.

The paired interval is checked on inputs small enough to work out by hand, the
findings on made-up cells, the block on hand-made result files, and the
committed page against the committed files.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from memlab_evals.readme import fact_gain, tables
from memlab_evals.readme.fact_gain import Cell, Gain, finding, paired_gain
from memlab_evals.reports.probe_file import COLUMNS, NAME

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ("A", "B")


def probes(values: dict[str, float], metric: str = "answer_recall") -> pd.DataFrame:
    """One recipe's probes.csv rows: probe id -> score, in the order given."""
    return pd.DataFrame(
        {
            "system": "A",
            "conversation": "c1",
            "probe_id": list(values),
            metric: list(values.values()),
        }
    )


# The paired interval, by hand ---------------------------------------------------


def test_a_constant_gain_has_a_point_interval_whatever_the_row_order():
    # Per probe: 0.2-0.1, 0.4-0.3, 0.6-0.5, 0.8-0.7, so every difference is 0.1
    # and every resampled mean is 0.1. Unpaired, the two sets of scores
    # (spread 0.2 to 0.8) would give intervals wider than the gain itself.
    with_facts = probes({"p1": 0.2, "p2": 0.4, "p3": 0.6, "p4": 0.8})
    without = probes({"p4": 0.7, "p3": 0.5, "p2": 0.3, "p1": 0.1})
    gain = paired_gain(with_facts, without, "answer_recall")
    assert gain.n == 4
    assert (gain.with_facts, gain.without) == pytest.approx((0.5, 0.4))
    assert (gain.difference, gain.low, gain.high) == pytest.approx((0.1, 0.1, 0.1))
    assert gain.verdict == "add"


def test_two_probes_that_disagree_give_the_interval_from_one_to_the_other():
    # Differences 0 and 1: a resample of two probes has mean 0, 0.5 or 1 with
    # chance 1/4, 1/2, 1/4, so the 2.5th percentile of the means is 0 and the
    # 97.5th is 1 (each end holds about 250 of the 1,000 resamples).
    gain = paired_gain(
        probes({"p1": 1.0, "p2": 1.0}), probes({"p1": 1.0, "p2": 0.0}), "answer_recall"
    )
    assert (gain.n, gain.difference, gain.low, gain.high) == (2, 0.5, 0.0, 1.0)
    assert gain.verdict == "tie"


def test_probes_scored_on_one_side_only_are_left_out_of_both():
    # p2 has no answer on one side (an abstention probe), p3 only ran with
    # facts: the pair is p1 alone, 1.0 against 0.5.
    with_facts = probes({"p1": 1.0, "p2": 1.0, "p3": 1.0})
    without = probes({"p1": 0.5, "p2": math.nan})
    gain = paired_gain(with_facts, without, "answer_recall")
    assert (gain.n, gain.with_facts, gain.without, gain.difference) == (
        1,
        1.0,
        0.5,
        0.5,
    )


def test_no_probe_scored_on_both_sides_is_unscored_not_a_tie():
    gain = paired_gain(probes({"p1": 1.0}), probes({"p2": 1.0}), "answer_recall")
    assert (gain.n, gain.cell(), gain.verdict) == (0, "unscored", "unscored")


def test_a_side_holding_a_probe_twice_is_refused():
    twice = pd.concat([probes({"p1": 1.0}), probes({"p1": 0.0})])
    with pytest.raises(ValueError, match="one recipe's probes, once each"):
        paired_gain(twice, probes({"p1": 1.0}), "answer_recall")


# The findings ---------------------------------------------------------------


def gain(difference: float, low: float, high: float) -> Gain:
    return Gain(100, 0.5 + difference, 0.5, difference, low, high)


def test_a_finding_says_what_facts_did_for_each_recipe():
    ties = [
        Cell("LoCoMo dev", 600, r, "answer_recall", gain(0.004, -0.006, 0.014))
        for r in ("A", "B", "C")
    ]
    assert finding(ties) == (
        "LoCoMo dev at 600 tokens: facts add nothing measurable to answer recall "
        "for every recipe (A +0.004 [-0.006, +0.014], B +0.004 [-0.006, +0.014], "
        "C +0.004 [-0.006, +0.014])."
    )
    mixed = [
        Cell("x", 1500, "A", "evidence_recall", gain(0.02, 0.01, 0.03)),
        Cell("x", 1500, "B", "evidence_recall", gain(-0.02, -0.03, -0.01)),
        Cell("x", 1500, "C", "evidence_recall", gain(0.0, -0.01, 0.01)),
    ]
    assert finding(mixed) == (
        "x at 1,500 tokens: facts add to evidence recall for A (+0.020 [+0.010, "
        "+0.030]); facts lower evidence recall for B (-0.020 [-0.030, -0.010]); "
        "facts add nothing measurable to evidence recall for C (+0.000 [-0.010, "
        "+0.010])."
    )


# The block, from hand-made files ----------------------------------------------


def write_run(
    root: Path,
    folder: str,
    run: str,
    scores: dict[str, list[float]],
    *,
    commit: str = "1111111aaaa",
    data: str = "abc123",
    keep_probes: bool = True,
) -> None:
    """A run with summary.csv, report.md and (unless told) probes.csv.

    `scores` is recipe -> per-probe answer recall; evidence recall is half of it.
    """
    out = root / "evals" / "results" / folder / run
    out.mkdir(parents=True, exist_ok=True)
    rows, summary = [], []
    for system, answers in scores.items():
        for i, answer in enumerate(answers):
            rows.append(
                {
                    "system": system,
                    "conversation": "c1",
                    "probe_id": f"q{i}",
                    "category": "1",
                    "answer_recall": answer,
                    "evidence_recall": answer / 2,
                }
            )
        summary.append(
            {
                "system": system,
                "dataset": "locomo:dev.json" if "locomo" in run else "synthetic:x=1",
                "category": "all",
                "n": len(answers),
                "answer_recall": sum(answers) / len(answers),
                "evidence_recall": sum(answers) / len(answers) / 2,
            }
        )
    pd.DataFrame(summary).to_csv(out / "summary.csv", index=False)
    if keep_probes:
        pd.DataFrame(rows).reindex(columns=COLUMNS).to_csv(out / NAME, index=False)
    (out / "report.md").write_text(
        f"- dataset: `x` (sha256 `{data}...`)\n"
        f"- executor: local, workers: 2; git commit `{commit}`; started "
        "2026-01-02T03:04:05+00:00\n"
    )


WITH = {"A": [1, 1, 1, 1], "B": [1, 0, 1, 0], "full": [1, 1, 1, 1]}
ALONE = {"A": [0, 0, 0, 0], "B": [1, 0, 1, 0], "full": [1, 1, 1, 1]}


def write_both(root: Path, **options) -> None:
    for run in ("main-locomo-600", "main-synthetic-600"):
        write_run(root, "main", run, WITH, **options)
        write_run(root, "main-none", run, ALONE)


def test_the_block_pairs_each_recipe_and_says_what_facts_add(tmp_path: Path):
    write_both(tmp_path)
    block = fact_gain.fact_gain_block(tmp_path)
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    assert rows[0] == (
        "| data set | budget | recipe | answer recall with facts | turns alone "
        "(`--extractor none`) | paired gain [95% interval] |"
    )
    # A: 1 against 0 on every probe; B: the same scores on both sides.
    assert (
        rows[1] == "| LoCoMo dev | 600 | A | 1.000 | 0.000 | +1.000 [+1.000, +1.000] |"
    )
    assert (
        rows[2] == "| LoCoMo dev | 600 | B | 0.500 | 0.500 | +0.000 [+0.000, +0.000] |"
    )
    assert "| full |" not in block  # baselines keep no facts either way
    assert "evidence recall with facts" in rows[5]
    assert "| synthetic main set | 600 | A | 0.500 | 0.000 | +0.500 [" in block
    assert (
        "Facts add measurably to answer recall in 2 of 4 cells (lower it in 0, "
        "nothing measurable in 2) and to evidence recall in 2 of 4 cells"
    ) in block
    assert "Probes paired per cell: LoCoMo dev 4 (answer recall)" in block
    assert (
        "- LoCoMo dev at 600 tokens: facts add to answer recall for A (+1.000 "
        "[+1.000, +1.000]); facts add nothing measurable to answer recall for B"
    ) in block
    assert "at `1111111`, those with turns alone at `1111111`." in block


def test_runs_at_different_commits_are_said_to_differ(tmp_path: Path):
    write_both(tmp_path, commit="2222222bbbb+dirty")
    block = fact_gain.fact_gain_block(tmp_path)
    assert "at `2222222` with uncommitted changes, those with turns alone at " in block
    assert "the commits differ, so each gain also holds whatever else" in block


def test_without_per_probe_scores_no_verdict_is_given(tmp_path: Path):
    write_both(tmp_path, keep_probes=False)
    block = fact_gain.fact_gain_block(tmp_path)
    assert "| LoCoMo dev | 600 | A | 1.000 | 0.000 | +1.000 (no interval) |" in block
    assert "No intervals yet: `evals/results/main/` keeps no per-probe" in block
    assert "Facts add measurably" not in block and "\n- " not in block


def test_runs_over_different_data_cannot_be_paired(tmp_path: Path):
    write_both(tmp_path, data="def456")
    with pytest.raises(ValueError, match="ran different data sets"):
        fact_gain.fact_gain_block(tmp_path)


# The committed results page ---------------------------------------------------

PAGE = Path("docs/results.md")
"""Where the block lives; it ends with the line naming its commits."""
BLOCK = re.compile(
    r"<!-- fact-gain:begin -->\n(.*?)\n\n<sub>Made at [^\n]*</sub>\n"
    r"<!-- fact-gain:end -->",
    re.S,
)


def test_the_page_block_is_the_committed_files():
    text = (ROOT / PAGE).read_text(encoding="utf-8")
    assert BLOCK.search(text).group(1) == fact_gain.fact_gain_block(ROOT)


@pytest.mark.slow
def test_a_changed_probe_score_makes_the_page_stale(tmp_path: Path):
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copytree(ROOT / "evals" / "results", tmp_path / "evals" / "results")
    shutil.copytree(
        ROOT / "benchmarks" / "results", tmp_path / "benchmarks" / "results"
    )
    readme = tmp_path / "README.md"
    assert tables.main([str(readme), "--check"]) == 0
    summary = tmp_path / fact_gain.NONE / "main-synthetic-600" / "summary.csv"
    table = pd.read_csv(summary)
    table.loc[table["system"] == "A", "answer_recall"] = 0.1234
    table.to_csv(summary, index=False)
    kept = summary.parent / NAME
    if kept.exists():  # with per-probe scores the gain is read from them
        frame = pd.read_csv(kept, dtype=str)
        frame.loc[frame["system"] == "A", "answer_recall"] = "0.1234"
        frame.to_csv(kept, index=False)
    assert tables.main([str(readme), "--check"]) == 1
    assert tables.main([str(readme)]) == 0
    page = (tmp_path / PAGE).read_text()
    assert "| synthetic main set | 600 | A |" in page
    assert "| 0.123 |" in BLOCK.search(page).group(1)


def test_the_readme_finding_says_per_run_what_facts_add_to_answer_recall(
    tmp_path: Path,
):
    write_both(tmp_path)
    brief = fact_gain.fact_gain_brief(tmp_path)
    assert brief.count("\n- ") == 2  # one line per data set and budget
    assert (
        "- LoCoMo dev at 600 tokens: facts add to answer recall for A (+1.000 "
        "[+1.000, +1.000]); facts add nothing measurable to answer recall for B"
    ) in brief
    assert "evidence recall" not in brief
    assert "| " not in brief  # the tables stay on the results page


def test_the_readme_finding_gives_no_verdict_without_per_probe_scores(tmp_path: Path):
    write_both(tmp_path, keep_probes=False)
    brief = fact_gain.fact_gain_brief(tmp_path)
    assert "No intervals yet" in brief and "\n- " not in brief
