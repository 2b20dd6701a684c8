"""The main job's results as the README shows them: runs, goal, share of `full`.

`memory-lab main` keeps, per dataset and budget, `main-<dataset>-<budget>/` with
summary.csv and report.md, and the goal across them in main-goal.csv; these
blocks read nothing else, so a re-run carried into those files is carried into
the README by one command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from memlab_evals.readme.cells import (
    commit_ref,
    count,
    dataset_label,
    moment,
    names,
    rate,
    ratio,
    signed,
    source,
    span,
    times,
    verdict,
    with_ci,
)
from memlab_evals.reports.report import markdown_table
from memlab_evals.systems import kind_of

MAIN = Path("evals/results/main")
RULES = Path("evals/results/main-rules")
NONE = Path("evals/results/main-none")
GOAL_CSV = MAIN / "main-goal.csv"

RUN_COLUMNS = {
    "evidence_recall": "evidence recall",
    "evidence_word_overlap": "evidence word overlap",
    "answer_recall": "answer recall",
    "stale_answer_rate": "stale answer",
    "abstention_violation_rate": "abstention violation",
    "hallucinated_memory_rate": "hallucinated memory",
    "compression_ratio": "compression ratio",
    "context_tokens_mean": "context tokens",
}
"""Summary columns a run table shows, in order, when the file has values for them.

A column no system has a value for is left out (LoCoMo plants no knowledge
updates, so it has no stale answers); a column added to the summary later
(`evidence_word_overlap`) appears as soon as the files have it.
"""
PLAIN = {"compression_ratio": ratio, "context_tokens_mean": count}
"""Columns written without an interval; every other one gets its bootstrap CI."""
UNITS = {"locomo": "questions", "synthetic": "probes"}

KEEP_EVIDENCE = 0.85
"""Target: the best recipe keeps this share of `full`'s evidence recall."""
KEEP_ANSWER = 0.75
"""Target: a recipe keeps this share of `full`'s answer recall."""
KEEP_ANSWER_PARSE = 0.78
"""The higher answer-recall target set for the parse as the offline extractor."""
TOKEN_REDUCTION = 15.0
"""Target: `full` needs at least this many times a recipe's context tokens."""


def runs(root: Path, folder: Path, dataset: str) -> list[tuple[int, Path]]:
    """The summaries of `dataset`'s runs in `folder`, largest budget first."""
    found = []
    for path in (root / folder).glob(f"main-{dataset}-*/summary.csv"):
        budget = path.parent.name.rsplit("-", 1)[1]
        if budget.isdigit():
            found.append((int(budget), path))
    if not found:
        raise FileNotFoundError(f"no main-{dataset}-<budget>/summary.csv in {folder}")
    return sorted(found, reverse=True)


def all_rows(path: Path) -> pd.DataFrame:
    """One row per system: the summary's rows of category `all`."""
    table = pd.read_csv(path)
    return table[table["category"].astype(str) == "all"].reset_index(drop=True)


def recipes(rows: pd.DataFrame) -> list[str]:
    """The memory recipes among a summary's systems (not baselines, not peers)."""
    return [s for s in rows["system"] if kind_of(s) == "recipe"]


def value(rows: pd.DataFrame, system: str, column: str) -> float:
    """One system's figure in a summary's `all` rows."""
    return float(rows.loc[rows["system"] == system, column].iloc[0])


def run_table(rows: pd.DataFrame) -> str:
    """A run's systems with the columns the file has values for."""
    cells: dict[str, list[str]] = {"system": list(rows["system"])}
    for column, header in RUN_COLUMNS.items():
        if column not in rows or rows[column].isna().all():
            continue
        fmt = PLAIN.get(column)
        cells[header] = [
            fmt(r[column]) if fmt else with_ci(r, column) for _, r in rows.iterrows()
        ]
    return markdown_table(pd.DataFrame(cells))


def stale_counts(rows: pd.DataFrame, summary: pd.DataFrame) -> str | None:
    """Stale answers as counts of the knowledge-update probes, per recipe."""
    updates = summary[
        (summary["category"].astype(str) != "all")
        & summary["stale_answer_rate"].notna()
    ]
    if updates.empty:
        return None
    shown, probes = [], 0
    for system in recipes(rows):
        mine = updates[updates["system"] == system]
        stale = round(float((mine["stale_answer_rate"] * mine["n"]).sum()))
        shown.append(f"{system} {stale}")
        probes = int(mine["n"].sum())
    return f"{', '.join(shown)} of {probes}"


def run_block(root: Path, dataset: str) -> str:
    """Every budget's table for one dataset, largest budget first."""
    found = runs(root, MAIN, dataset)
    first = all_rows(found[0][1])
    parts = [
        f"From {source(*(p.relative_to(root) for _, p in found))}: the rows of "
        f"category `all`, {count(first['n'].max())} "
        f"{UNITS.get(dataset, 'probes')} per system."
    ]
    stale = []
    for budget, path in found:
        rows = all_rows(path)
        parts += ["", f"At {budget:,} tokens:", "", run_table(rows)]
        counts = stale_counts(rows, pd.read_csv(path))
        if counts:
            stale.append(f"at {budget:,} tokens {counts}")
    if stale:
        parts += [
            "",
            f"Stale answers among the knowledge-update probes: {'; '.join(stale)}.",
        ]
    return "\n".join(parts)


def locomo_block(root: Path) -> str:
    """The LoCoMo development split's runs."""
    return run_block(root, "locomo")


def synthetic_block(root: Path) -> str:
    """The main synthetic set's runs."""
    return run_block(root, "synthetic")


def goal_rows(root: Path) -> pd.DataFrame:
    """main-goal.csv, LoCoMo first, then by budget, largest first."""
    goal = pd.read_csv(root / GOAL_CSV)
    order = {label: i for i, label in enumerate(("locomo", "synthetic"))}
    rank = goal["dataset"].map(lambda d: order.get(d.split(":", 1)[0], len(order)))
    return goal.assign(_rank=rank, _budget=-goal["budget"]).sort_values(
        ["_rank", "_budget"], kind="stable"
    )


def goal_label(row: pd.Series) -> str:
    """A goal cell's dataset and budget, such as "LoCoMo dev, 1,500"."""
    return f"{dataset_label(row['dataset'])}, {int(row['budget']):,}"


def goal_block(root: Path) -> str:
    """The best recipe against the best raw-turn retriever, per run and metric."""
    goal = goal_rows(root)
    table = pd.DataFrame(
        {
            "dataset, budget": [goal_label(r) for _, r in goal.iterrows()],
            "metric": [m.replace("_", " ") for m in goal["metric"]],
            "best recipe": [
                f"{r['recipe']} {rate(r['recipe_mean'])}" for _, r in goal.iterrows()
            ],
            "best raw-turn retriever": [
                f"`{r['retriever']}` {rate(r['retriever_mean'])}"
                for _, r in goal.iterrows()
            ],
            "paired difference": [
                f"{signed(r['difference'])} "
                f"[{signed(r['ci_low'])}, {signed(r['ci_high'])}]"
                for _, r in goal.iterrows()
            ],
            "verdict": [f"**{v}**" if v == "ahead" else v for v in goal["verdict"]],
        }
    )
    tally = goal["verdict"].value_counts()
    summary = ", ".join(
        f"{kind} in {int(tally.get(kind, 0))}" for kind in ("ahead", "tied", "behind")
    )
    lines = [
        f"From `{GOAL_CSV.as_posix()}`.",
        "",
        markdown_table(table),
        "",
        f"Of {len(goal)} cells: {summary}.",
    ]
    for kind in ("tied", "behind"):
        cells = goal[goal["verdict"] == kind]
        if len(cells):
            where = "; ".join(
                f"{goal_label(r)} ({r['metric'].replace('_', ' ')})"
                for _, r in cells.iterrows()
            )
            lines[-1] += f" {kind.capitalize()}: {where}."
    probes = "; ".join(
        f"{dataset_label(d)} "
        + ", ".join(
            f"{int(n):,} ({m.replace('_', ' ')})"
            for m, n in rows.groupby("metric", sort=False)["n"].max().items()
        )
        for d, rows in goal.groupby("dataset", sort=False)
    )
    lines[-1] += f" Probes paired per cell: {probes}."
    return "\n".join(lines)


def kept_of_full(rows: pd.DataFrame, metric: str) -> dict[str, float]:
    """Each recipe's `metric` as a share of `full`'s."""
    whole = value(rows, "full", metric)
    return {s: value(rows, s, metric) / whole for s in recipes(rows)}


def against_full_block(root: Path) -> str:
    """What the recipes keep of `full` on LoCoMo at the larger budget, and for what."""
    budget, path = runs(root, MAIN, "locomo")[0]
    rows = all_rows(path)
    evidence = kept_of_full(rows, "evidence_recall")
    answers = kept_of_full(rows, "answer_recall")
    tokens = {
        s: value(rows, "full", "context_tokens_mean")
        / value(rows, s, "context_tokens_mean")
        for s in recipes(rows)
    }
    best = max(evidence, key=evidence.__getitem__)

    def listed(shares: dict[str, float]) -> str:
        return ", ".join(f"{k} {rate(v)}" for k, v in shares.items())

    raw = ", ".join(rate(value(rows, s, "answer_recall")) for s in answers)
    return (
        f"From `{path.relative_to(root).as_posix()}`: against `full` at "
        f"{budget:,} tokens the best recipe ({best}) keeps "
        f"{rate(evidence[best])} of its evidence recall (target {KEEP_EVIDENCE}: "
        f"{verdict({best: evidence[best]}, KEEP_EVIDENCE)}); of its answer recall "
        f"the recipes keep {listed(answers)} ({raw} against "
        f"{rate(value(rows, 'full', 'answer_recall'))}; target {KEEP_ANSWER}: "
        f"{verdict(answers, KEEP_ANSWER)}; for the parse {KEEP_ANSWER_PARSE}: "
        f"{verdict(answers, KEEP_ANSWER_PARSE)}), with {span(tokens.values(), times)} "
        f"fewer context tokens (target "
        f"{TOKEN_REDUCTION:.0f}x: {verdict(tokens, TOKEN_REDUCTION)})."
    )


REPORT_RUN = re.compile(r"git commit `([^`]+)`; started (\S+)")
REPORT_WALL = re.compile(r"^- wall time: (.+)$", re.MULTILINE)


def provenance(report: Path) -> tuple[str, str, str]:
    """Commit, start and wall time from a run's report.md, or blanks if unrecorded."""
    text = report.read_text(encoding="utf-8") if report.exists() else ""
    run, wall = REPORT_RUN.search(text), REPORT_WALL.search(text)
    if run is None:
        return "not recorded", "", wall.group(1) if wall else ""
    return commit_ref(run.group(1)), moment(run.group(2)), wall.group(1) if wall else ""


def runs_block(root: Path) -> str:
    """When and at which commit each kept run was measured, from its report.md."""
    rows = []
    folders = [f for f in (MAIN, RULES, NONE) if f == MAIN or (root / f).is_dir()]
    for folder in folders:
        for dataset in ("locomo", "synthetic"):
            for budget, path in runs(root, folder, dataset):
                commit, started, wall = provenance(path.parent / "report.md")
                rows.append(
                    (
                        f"`{folder.name}/`",
                        f"{dataset_label(dataset)}, {budget:,}",
                        commit,
                        started,
                        wall,
                    )
                )
    table = pd.DataFrame(
        rows, columns=["folder", "run", "commit", "started", "wall time"]
    )
    shown = names([f"`{f.as_posix()}/main-*/report.md`" for f in folders])
    return f"From the run lines of each {shown}:\n\n{markdown_table(table)}"
