"""README tables written from result files, so no figure in it is typed by hand.

A block between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` in the README is
replaced by the table its generator builds from a committed result file; a test
fails when the README and the file disagree, so a re-run that is not carried into
the README (or a hand edit of a number) cannot land.

    python -m memlab_evals.readme_tables README.md          # rewrite the blocks
    python -m memlab_evals.readme_tables README.md --check  # exit 1 if stale
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from memlab_evals.report import markdown_table

ROOT = Path(__file__).resolve().parents[2]
TRIGGERS_CSV = ROOT / "evals" / "results" / "triggers" / "triggers.csv"
TRIGGER_README_COLUMNS = [
    "system",
    "evidence_recall",
    "summary_only_evidence_recall",
    "compressions_per_1k_turns",
    "compress_input_tokens_per_1k_turns",
    "wait_turns_p50",
    "episode_coherence",
    "prefix_changes_per_1k_turns",
    "evidence_from_excerpts",
]


def trigger_block(csv: Path = TRIGGERS_CSV) -> str:
    """Per dataset at the larger budget: the trigger columns people compare first."""
    table = pd.read_csv(csv)
    budget = int(table["budget"].max())
    parts = [
        f"From `{csv.relative_to(ROOT)}` at {budget:,} tokens "
        "(`triggers.md` beside it has every column and both budgets)."
    ]
    for dataset, rows in table[table["budget"] == budget].groupby(
        "dataset", sort=False
    ):
        parts += [
            "",
            f"**{dataset}**",
            "",
            markdown_table(rows[TRIGGER_README_COLUMNS]),
        ]
    return "\n".join(parts)


JUDGE_JSON = (
    ROOT / "evals" / "results" / "judge-check" / "smollm2" / ("judge-calibration.json")
)


def judge_block(path: Path = JUDGE_JSON) -> str:
    """A judge check's rates with their intervals and counts, and its verdict."""
    check = json.loads(path.read_text(encoding="utf-8"))

    def rate(r: dict) -> str:
        return (
            f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}] "
            f"({r['against']} of {r['judged']})"
        )

    rows = [
        ("false accepts (WRONG judged CORRECT)", rate(check["false_accept"])),
        ("false rejects (CORRECT judged WRONG)", rate(check["false_reject"])),
        *(
            (f"{kind} ({k['expected']} expected): against the key", rate(k))
            for kind, k in check["kinds"].items()
        ),
    ]
    table = pd.DataFrame(rows, columns=["judge check", "rate [95% CI] (count)"])
    verdict = "reliable" if check["reliable"] else "UNRELIABLE"
    return (
        f"From `{path.relative_to(ROOT)}`: judge `{check['judge']['model']}`, "
        f"{check['items']} items ({check['per_kind']} per kind, seed "
        f"{check['seed']}), verdict failures {check['verdict_failures']}: "
        f"**{verdict}** at a false-accept limit of {check['false_accept_max']:.0%}."
        f"\n\n{markdown_table(table)}"
    )


BLOCKS: dict[str, Callable[[], str]] = {
    "triggers": trigger_block,
    "judge": judge_block,
}


def render(text: str) -> str:
    """`text` with every known block replaced by its generated content."""
    for name, make in BLOCKS.items():
        pattern = re.compile(
            rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.DOTALL
        )
        if not pattern.search(text):
            continue
        body = make()
        text = pattern.sub(
            lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text
        )
    return text


def main(argv: list[str] | None = None) -> int:
    """Rewrite the README's generated blocks, or with --check report them stale."""
    parser = argparse.ArgumentParser(prog="python -m memlab_evals.readme_tables")
    parser.add_argument("readme", type=Path)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    fresh = render(text)
    if args.check:
        if fresh != text:
            print(f"{args.readme}: generated tables are stale; run make triggers")
            return 1
        return 0
    args.readme.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
