"""What facts add over turns alone, paired by probe, as the README shows it.

`evals/results/main-none/` is the main job run with `--extractor none`: its
recipes read no fact from turns and keep only what a memory command states.
Set beside `evals/results/main/` it says whether facts earn their place in the
context. Both runs answer the same probes, so each recipe's gain is settled per
probe: the mean of (with facts - turns alone) and a paired bootstrap 95% interval
of it (`aggregate.bootstrap_ci`: numpy, 1,000 resamples of the probes, a fixed
seed). Two means whose intervals overlap cannot say whether facts help; the
paired interval can, since most probes score the same either way.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from memlab_evals.readme.cells import dataset_label, names, rate, signed
from memlab_evals.readme.results import (
    MAIN,
    NONE,
    all_rows,
    provenance,
    recipes,
    runs,
)
from memlab_evals.reports.aggregate import RESAMPLES, SEED, bootstrap_ci
from memlab_evals.reports.probe_file import NAME, read_probe_scores
from memlab_evals.reports.report import markdown_table

METRICS = {"answer_recall": "answer recall", "evidence_recall": "evidence recall"}
"""The metrics compared, answer recall first: it is the one the goal leads with."""
PAIR = ["conversation", "probe_id"]
"""What makes a probe the same probe in both runs."""
VERDICTS = {
    "add": "facts add to {metric}",
    "lower": "facts lower {metric}",
    "tie": "facts add nothing measurable to {metric}",
}
"""How a verdict reads in a finding, by the sign of its interval."""
DATASET_HASH = re.compile(r"\(sha256 `([0-9a-f]+)")


@dataclass(frozen=True)
class Gain:
    """One recipe's metric with facts and with turns alone, on the probes both scored.

    `low` and `high` are NaN when there are no per-probe scores to pair.
    """

    n: int
    with_facts: float
    without: float
    difference: float
    low: float
    high: float

    @property
    def paired(self) -> bool:
        """Whether the interval exists (both runs kept their probes)."""
        return not math.isnan(self.low)

    @property
    def verdict(self) -> str:
        """`add` or `lower` when the interval excludes 0, `tie` when it spans it.

        `unscored` without an interval: a difference of means alone says nothing.
        """
        if not self.paired:
            return "unscored"
        if self.low > 0:
            return "add"
        if self.high < 0:
            return "lower"
        return "tie"

    def cell(self) -> str:
        """The difference with its interval, as the table and the findings show it."""
        if math.isnan(self.difference):
            return "unscored"
        if not self.paired:
            return f"{signed(self.difference)} (no interval)"
        return f"{signed(self.difference)} [{signed(self.low)}, {signed(self.high)}]"


def paired_gain(with_facts: pd.DataFrame, without: pd.DataFrame, metric: str) -> Gain:
    """Mean per-probe difference `with_facts - without` on `metric`, with its interval.

    Each frame is one recipe's rows of a probes.csv. A probe scored on one side
    only (absent, or NaN: answer recall skips abstention probes) is left out of
    both, so the two means and the difference are over the same probes.

    Raises:
        ValueError: when a frame holds a probe twice (more than one recipe).
    """
    sides = []
    for frame in (with_facts, without):
        indexed = frame.set_index(PAIR)[metric]
        if not indexed.index.is_unique:
            raise ValueError("each side must hold one recipe's probes, once each")
        sides.append(indexed)
    both = pd.concat(sides, axis=1, keys=["a", "b"], join="inner").dropna()
    a, b = both["a"].to_numpy(float), both["b"].to_numpy(float)
    if a.size == 0:
        return Gain(0, math.nan, math.nan, math.nan, math.nan, math.nan)
    low, high = bootstrap_ci(a - b)
    return Gain(
        int(a.size), float(a.mean()), float(b.mean()), float(np.mean(a - b)), low, high
    )


def unpaired_gain(with_facts: pd.Series, without: pd.Series, metric: str) -> Gain:
    """The difference of two summary rows' means, when no probes were kept to pair."""
    a, b = float(with_facts[metric]), float(without[metric])
    return Gain(0, a, b, a - b, math.nan, math.nan)


def _probes(summary: Path) -> pd.DataFrame | None:
    path = summary.parent / NAME
    return read_probe_scores(path) if path.exists() else None


def _dataset_hash(summary: Path) -> str | None:
    report = summary.parent / "report.md"
    found = DATASET_HASH.search(report.read_text("utf-8")) if report.exists() else None
    return found.group(1) if found else None


@dataclass(frozen=True)
class Cell:
    """One data set, budget, recipe and metric."""

    dataset: str
    budget: int
    recipe: str
    metric: str
    gain: Gain


@dataclass
class Found:
    """Every cell, and what the reader needs to weigh them."""

    cells: list[Cell]
    commits: dict[str, set[str]]
    unpaired: set[Path]


def _pair_runs(root: Path, dataset: str, found: Found) -> None:
    without = dict(runs(root, NONE, dataset))
    for budget, mine in runs(root, MAIN, dataset):
        theirs = without.get(budget)
        if theirs is None:
            continue
        if _dataset_hash(mine) != _dataset_hash(theirs):
            raise ValueError(
                f"{mine.parent} and {theirs.parent} ran different data sets; their "
                "probes cannot be paired"
            )
        for folder, summary in ((MAIN, mine), (NONE, theirs)):
            found.commits[folder.name].add(provenance(summary.parent / "report.md")[0])
        rows, other = all_rows(mine), all_rows(theirs)
        label = dataset_label(str(rows["dataset"].iloc[0]))
        probes, other_probes = _probes(mine), _probes(theirs)
        for summary, kept in ((mine, probes), (theirs, other_probes)):
            if kept is None:
                found.unpaired.add(summary.parent.relative_to(root).parent)
        for recipe in recipes(rows):
            if recipe not in set(other["system"]):
                continue
            for metric in METRICS:
                if probes is None or other_probes is None:
                    gain = unpaired_gain(
                        rows[rows["system"] == recipe].iloc[0],
                        other[other["system"] == recipe].iloc[0],
                        metric,
                    )
                else:
                    gain = paired_gain(
                        probes[probes["system"] == recipe],
                        other_probes[other_probes["system"] == recipe],
                        metric,
                    )
                found.cells.append(Cell(label, budget, recipe, metric, gain))


def _table(cells: list[Cell], metric: str) -> str:
    rows = [
        {
            "data set": c.dataset,
            "budget": f"{c.budget:,}",
            "recipe": c.recipe,
            f"{METRICS[metric]} with facts": rate(c.gain.with_facts),
            "turns alone (`--extractor none`)": rate(c.gain.without),
            "paired gain [95% interval]": c.gain.cell(),
        }
        for c in cells
        if c.metric == metric
    ]
    return markdown_table(pd.DataFrame(rows))


def finding(cells: list[Cell]) -> str:
    """One data set, budget and metric in a sentence: what facts did, per recipe."""
    first = cells[0]
    parts = []
    for kind, phrase in VERDICTS.items():
        members = [c for c in cells if c.gain.verdict == kind]
        if not members:
            continue
        who = members[0].recipe if len(members) == 1 else "every recipe"
        if 1 < len(members) < len(cells):
            who = names([c.recipe for c in members])
        figures = ", ".join(
            c.gain.cell() if len(members) == 1 else f"{c.recipe} {c.gain.cell()}"
            for c in members
        )
        verb = phrase.format(metric=METRICS[first.metric])
        parts.append(f"{verb} for {who} ({figures})")
    return f"{first.dataset} at {first.budget:,} tokens: {'; '.join(parts)}."


def _tally(cells: list[Cell]) -> str:
    counts = []
    for metric, label in METRICS.items():
        mine = [c for c in cells if c.metric == metric]
        seen = {k: sum(c.gain.verdict == k for c in mine) for k in VERDICTS}
        counts.append(
            f"to {label} in {seen['add']} of {len(mine)} cells (lower it in "
            f"{seen['lower']}, nothing measurable in {seen['tie']})"
        )
    return f"Facts add measurably {' and '.join(counts)}."


def _probe_counts(cells: list[Cell]) -> str:
    shown = []
    for dataset in dict.fromkeys(c.dataset for c in cells):
        per = {
            METRICS[m]: max(
                c.gain.n for c in cells if (c.dataset, c.metric) == (dataset, m)
            )
            for m in METRICS
        }
        shown.append(f"{dataset} " + ", ".join(f"{n:,} ({m})" for m, n in per.items()))
    return f"Probes paired per cell: {'; '.join(shown)}."


def _commits(commits: dict[str, set[str]]) -> str:
    def listed(folder: str) -> str:
        return names(sorted(commits[folder]))

    text = (
        f"The runs with facts are at {listed(MAIN.name)}, those with turns alone "
        f"at {listed(NONE.name)}"
    )
    if commits[MAIN.name] != commits[NONE.name] or len(commits[MAIN.name]) > 1:
        return text + (
            ": the commits differ, so each gain also holds whatever else changed "
            "between them."
        )
    return text + "."


def _found(root: Path) -> Found:
    found = Found([], {MAIN.name: set(), NONE.name: set()}, set())
    for dataset in ("locomo", "synthetic"):
        _pair_runs(root, dataset, found)
    if not found.cells:
        raise FileNotFoundError(f"no run in both {MAIN} and {NONE}")
    return found


def fact_gain_brief(root: Path) -> str:
    """The README's finding: what facts add to answer recall, one line per run.

    The results page holds the tables (`fact_gain_block`); the README says what
    they found, so a reader of the front page learns whether facts earn their
    tokens without a claim typed by hand.
    """
    found = _found(root)
    head = (
        f"From `{MAIN.as_posix()}/` and `{NONE.as_posix()}/` (`memory-lab main` "
        f"and `memory-lab main --extractor none`), paired per probe as on the "
        f"results page. {_commits(found.commits)}"
    )
    if found.unpaired:
        return head + " No intervals yet: a run keeps no per-probe scores."
    groups: dict[tuple[str, int], list[Cell]] = {}
    for cell in found.cells:
        if cell.metric == "answer_recall":
            groups.setdefault((cell.dataset, cell.budget), []).append(cell)
    return "\n".join([head, "", *(f"- {finding(cells)}" for cells in groups.values())])


def fact_gain_block(root: Path) -> str:
    """Per data set, budget and recipe: recall with facts and with turns alone."""
    found = _found(root)
    folders = names([f"`{f.as_posix()}/main-*/`" for f in (MAIN, NONE)])
    method = (
        f"the paired bootstrap 95% interval of the per-probe difference ({RESAMPLES:,} "
        f"resamples of the probes, seed {SEED}, numpy)"
    )
    parts = [
        f"From each run's summary.csv, report.md and `{NAME}` in {folders}: each "
        f"recipe with facts (the main job) and with turns alone (`memory-lab main "
        f"--extractor none`), on the probes both scored; the gain is with facts "
        f"minus turns alone, with {method}. {_commits(found.commits)}",
    ]
    for metric in METRICS:
        parts += ["", _table(found.cells, metric)]
    if found.unpaired:
        lacking = sorted(found.unpaired)
        keeps = "keeps" if len(lacking) == 1 else "keep"
        folders = names([f"`{p.as_posix()}/`" for p in lacking])
        parts += [
            "",
            f"No intervals yet: {folders} {keeps} no per-probe scores (`{NAME}`), so "
            "the gains above are differences of means alone and whether facts add "
            "anything is not said. The main job writes the file; `make readme` "
            "carries its next run in.",
        ]
        return "\n".join(parts)
    parts += ["", _tally(found.cells) + " " + _probe_counts(found.cells), ""]
    groups: dict[tuple[str, int, str], list[Cell]] = {}
    for cell in found.cells:
        groups.setdefault((cell.metric, cell.dataset, cell.budget), []).append(cell)
    parts += [f"- {finding(cells)}" for cells in groups.values()]
    return "\n".join(parts)
