"""The extractor comparison and this work's targets, as the README shows them.

The parse and the pattern table are compared by running the main job once with
each (`evals/results/main/` and `evals/results/main-rules/`) and the two
statement sets once with each (`evals/results/extraction/`); the README's row per
extractor is read from those files alone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from memlab_evals.readme.cells import (
    machine_stamp,
    ms,
    rate,
    signed,
    source,
    verdict,
)
from memlab_evals.readme.results import (
    GOAL_CSV,
    KEEP_ANSWER_PARSE,
    MAIN,
    RULES,
    all_rows,
    goal_rows,
    kept_of_full,
    runs,
    value,
)
from memlab_evals.readme.speed import INGEST_P95_MS
from memlab_evals.reports.report import markdown_table

EXTRACTION = Path("evals/results/extraction")
QUICK = Path("benchmarks/results/bench-quick.json")
EXTRACTORS = (
    ("rules alone (`--extractor rules`)", RULES, "rules"),
    ("parse (default)", MAIN, "parse"),
)
"""README label, the main job's folder and the statement files' suffix."""
STATEMENT_SETS = (
    ("statement set recall / precision, forbidden", "statements-{}.txt"),
    ("second statement set (never read)", "statements-b-{}.txt"),
    ("third statement set (never read)", "statements-c-{}.txt"),
    ("fourth statement set (never read)", "statements-d-{}.txt"),
)
COMPARED = ("A", "B")
"""Recipes whose LoCoMo recall the table shows side by side."""
SHOWN = "A"
"""The recipe whose extraction, stale answers and hallucinations the table shows."""
STATEMENT_LINE = re.compile(
    r"recall ([\d.]+) \(\d+/\d+\), precision ([\d.]+) \(\d+/\d+\), "
    r"forbidden values stored: (\d+)"
)

EXTRACTION_RECALL = 0.35
"""Target: LoCoMo extraction recall of the offline extractor."""
EXTRACTION_PRECISION = 0.60
"""Target: LoCoMo extraction precision at that recall."""
STALE_ANSWERS = 0.05
"""Target: stale-answer rate on the main synthetic set, at most."""
EXTRACTED_PER_S = 50.0
"""Target: turns the worker extracts per second of its job time, at least."""


def statement_cell(path: Path) -> str:
    """The cell "recall / precision, forbidden" from a statement-set result file."""
    found = STATEMENT_LINE.search(path.read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"{path}: no 'recall ..., precision ..., forbidden' line")
    recall, precision, forbidden = found.groups()
    return f"{rate(float(recall))} / {rate(float(precision))}, {forbidden}"


def extractor_row(root: Path, folder: Path, suffix: str) -> dict[str, str]:
    """One extractor's cells, headed by the budgets its runs have."""
    locomo = runs(root, folder, "locomo")
    synthetic = {b: all_rows(p) for b, p in sorted(runs(root, folder, "synthetic"))}
    top = all_rows(locomo[0][1])
    cells = {
        "LoCoMo extraction recall / precision": (
            f"{rate(value(top, SHOWN, 'extraction_recall'))} / "
            f"{rate(value(top, SHOWN, 'extraction_precision'))}"
        )
    }
    a, b = COMPARED
    for budget, path in locomo:
        rows = all_rows(path)
        ev = [rate(value(rows, s, "evidence_recall")) for s in COMPARED]
        ans = [rate(value(rows, s, "answer_recall")) for s in COMPARED]
        cells[f"LoCoMo {budget:,}: {a} / {b} evidence, answer recall"] = (
            f"{' / '.join(ev)}, {' / '.join(ans)}"
        )
    budgets = " / ".join(f"{x:,}" for x in synthetic)
    cells[f"synthetic stale answers {budgets}"] = " / ".join(
        rate(value(rows, SHOWN, "stale_answer_rate")) for rows in synthetic.values()
    )
    cells["synthetic hallucinated memory"] = rate(
        value(synthetic[max(synthetic)], SHOWN, "hallucinated_memory_rate")
    )
    for header, name in STATEMENT_SETS:
        cells[header] = statement_cell(root / EXTRACTION / name.format(suffix))
    return cells


def extractor_block(root: Path) -> str:
    """The parse against the pattern table on every corpus both were run on."""
    rows = [
        {"extractor": label, **extractor_row(root, folder, suffix)}
        for label, folder, suffix in EXTRACTORS
    ]
    synthetic = []
    for label, folder, _ in EXTRACTORS:
        budget, path = runs(root, folder, "synthetic")[0]
        top = all_rows(path)
        synthetic.append(
            (
                label.split(" (")[0],
                rate(value(top, SHOWN, "extraction_recall")),
                rate(value(top, SHOWN, "extraction_precision")),
            )
        )
    names = " and ".join(f"{r} with the {n}" for n, r, _ in synthetic)
    precisions = " and ".join(p for _, _, p in synthetic)
    files = [
        EXTRACTION / n.format(s) for _, _, s in EXTRACTORS for _, n in STATEMENT_SETS
    ]
    return (
        f"From the summaries (category `all`) in `{RULES.as_posix()}/` and "
        f"`{MAIN.as_posix()}/` and from {source(*files)}; extraction, stale answers "
        f"and hallucinated memory are recipe {SHOWN}'s.\n\n"
        f"{markdown_table(pd.DataFrame(rows))}\n\n"
        f"On the main synthetic set (recipe {SHOWN} at {budget:,} tokens) extraction "
        f"recall is {names}, at precision {precisions}."
    )


def met(ok: bool) -> str:
    """The word a target's verdict is read by."""
    return "met" if ok else "missed"


def targets_block(root: Path) -> str:
    """Each target of this work against the files that measure it, one line each."""
    budget, locomo = runs(root, MAIN, "locomo")[0]
    top = all_rows(locomo)
    recall = value(top, SHOWN, "extraction_recall")
    precision = value(top, SHOWN, "extraction_precision")
    answers = kept_of_full(top, "answer_recall")
    goal = goal_rows(root)
    goal = goal[goal["dataset"].str.startswith("locomo")]
    small = goal[
        (goal["budget"] == goal["budget"].min()) & (goal["metric"] == "evidence_recall")
    ].iloc[0]
    synthetic = sorted(runs(root, MAIN, "synthetic"))
    stale = {b: value(all_rows(p), SHOWN, "stale_answer_rate") for b, p in synthetic}
    quick = json.loads((root / QUICK).read_text(encoding="utf-8"))
    ingest = next(r for r in quick["ingest"] if r["system"] == SHOWN)["total"]["p95_ms"]
    burst = next(r for r in quick["burst"] if r["system"] == SHOWN)
    lines = [
        f"From `{locomo.relative_to(root).as_posix()}`, `{GOAL_CSV.as_posix()}`, "
        f"the synthetic summaries in `{MAIN.as_posix()}/` and `{QUICK.as_posix()}` "
        f"({machine_stamp(quick)}):",
        "",
        f"- LoCoMo extraction recall {rate(recall)} at precision {rate(precision)} "
        f"(recipe {SHOWN}; target {EXTRACTION_RECALL:.2f} at "
        f"{EXTRACTION_PRECISION:.2f}: "
        f"recall {met(recall >= EXTRACTION_RECALL)}, precision "
        f"{met(precision >= EXTRACTION_PRECISION)});",
        f"- answer recall at {budget:,} tokens kept of `full`'s: "
        + ", ".join(f"{k} {rate(v)}" for k, v in answers.items())
        + f" (target {KEEP_ANSWER_PARSE}: {verdict(answers, KEEP_ANSWER_PARSE)});",
        f"- LoCoMo evidence recall at {int(small['budget']):,} tokens: "
        f"{small['recipe']} {rate(small['recipe_mean'])} against "
        f"`{small['retriever']}` {rate(small['retriever_mean'])}, paired "
        f"{signed(small['difference'])} [{signed(small['ci_low'])}, "
        f"{signed(small['ci_high'])}], {small['verdict']} (target ahead: "
        f"{met(small['verdict'] == 'ahead')});",
        f"- stale answers on the main synthetic set (recipe {SHOWN}): "
        + ", ".join(f"{rate(v)} at {b:,} tokens" for b, v in stale.items())
        + f" (target {STALE_ANSWERS}: "
        + f"{met(all(v <= STALE_ANSWERS for v in stale.values()))});",
        f"- ingest p95 {ms(ingest)} (recipe {SHOWN}; target {INGEST_P95_MS:.0f} ms: "
        f"{met(ingest <= INGEST_P95_MS)}) and the worker extracting "
        f"{burst['turns_extracted_per_s']:.1f} turns per second of job time under "
        f"a {burst['messages']:,}-message burst (target {EXTRACTED_PER_S:.0f}: "
        f"{met(burst['turns_extracted_per_s'] >= EXTRACTED_PER_S)}).",
    ]
    return "\n".join(lines)
