"""What the verbatim tail and the fact headers changed, as the README shows it.

The main job's summaries from just before the change are kept in
`evals/results/main-before-tail/` (summary.csv and report.md per run); the
block sets each recipe's figures there beside the current ones in
`evals/results/main/`, so the README's account of the change is read from
files like every other figure.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from memlab_evals.readme.cells import (
    commit_ref,
    dataset_label,
    rate,
    signed,
    source,
)
from memlab_evals.readme.results import (
    MAIN,
    REPORT_RUN,
    all_rows,
    recipes,
    runs,
    value,
)
from memlab_evals.reports.report import markdown_table

BEFORE = Path("evals/results/main-before-tail")
METRICS = {"evidence_recall": "evidence recall", "answer_recall": "answer recall"}
"""The figures compared, with their names in the table (every recipe fills its
budget before and after, so context tokens are left out)."""


def _commit(summary: Path) -> str:
    """The commit a run's report.md names beside its summary."""
    found = REPORT_RUN.search((summary.parent / "report.md").read_text("utf-8"))
    return commit_ref(found.group(1)) if found else "unknown commit"


def _cell(before: float, after: float) -> str:
    return f"{rate(before)} → {rate(after)} ({signed(after - before)})"


def tail_block(root: Path) -> str:
    """Per dataset and budget, each recipe's figures before and after the change."""
    rows, used, commits = [], [], {}
    for dataset in ("locomo", "synthetic"):
        after = dict(runs(root, MAIN, dataset))
        for budget, before_path in runs(root, BEFORE, dataset):
            if budget not in after:
                continue
            old, new = all_rows(before_path), all_rows(after[budget])
            used += [before_path, after[budget]]
            commits["before"] = _commit(before_path)
            commits["after"] = _commit(after[budget])
            label = dataset_label(str(new["dataset"].iloc[0]))
            for column, name in METRICS.items():
                row = {"dataset, budget": f"{label}, {budget:,}", "metric": name}
                for system in recipes(new):
                    if system in set(old["system"]):
                        row[system] = _cell(
                            value(old, system, column), value(new, system, column)
                        )
                rows.append(row)
    if not rows:
        raise FileNotFoundError(f"no runs in both {BEFORE} and {MAIN}")
    return (
        f"From {source(*(p.relative_to(root) for p in used))}: each recipe before "
        f"(at {commits['before']}) → after (at {commits['after']}), the "
        "difference in brackets.\n\n" + markdown_table(pd.DataFrame(rows))
    )
