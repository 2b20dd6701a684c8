"""README tables written from result files, so no figure in it is typed by hand.

A block between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` in the README is
replaced by what its generator builds from committed result files; a test fails
when the README and the files disagree, so a re-run that is not carried into the
README (or a hand edit of a number) cannot land. Every generator takes the
repository root and reads only files under it, so a test can hand it a copy.

    python -m memlab_evals.readme.tables README.md          # rewrite the blocks
    python -m memlab_evals.readme.tables README.md --check  # exit 1 if stale

The generators live beside this registry: `results` (the main job's runs and
goal), `fact_gain` (what facts add over turns alone, paired by probe),
`extraction` (the extractors and this work's targets), `speed` (the bench
targets), `scaling` (processes and executors), `peers` (the peer libraries) and
`tail` (the verbatim tail and fact headers against the runs before them); `cells`
formats every figure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from memlab_evals.readme import (
    agents,
    extraction,
    fact_gain,
    peers,
    results,
    scaling,
    speed,
    tail,
)
from memlab_evals.reports.report import markdown_table

ROOT = Path(__file__).resolve().parents[3]
TRIGGERS_CSV = Path("evals/results/triggers/triggers.csv")
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


def trigger_block(root: Path) -> str:
    """Per dataset at the larger budget: the trigger columns people compare first."""
    table = pd.read_csv(root / TRIGGERS_CSV)
    budget = int(table["budget"].max())
    parts = [
        f"From `{TRIGGERS_CSV.as_posix()}` at {budget:,} tokens "
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


JUDGE_JSON = Path("evals/results/judge-check/smollm2/judge-calibration.json")


def judge_block(root: Path) -> str:
    """A judge check's rates with their intervals and counts, and its verdict."""
    check = json.loads((root / JUDGE_JSON).read_text(encoding="utf-8"))

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
        f"From `{JUDGE_JSON.as_posix()}`: judge `{check['judge']['model']}`, "
        f"{check['items']} items ({check['per_kind']} per kind, seed "
        f"{check['seed']}), verdict failures {check['verdict_failures']}: "
        f"**{verdict}** at a false-accept limit of {check['false_accept_max']:.0%}."
        f"\n\n{markdown_table(table)}"
    )


BLOCKS: dict[str, Callable[[Path], str]] = {
    "main-runs": results.runs_block,
    "goal": results.goal_block,
    "against-full": results.against_full_block,
    "fact-gain": fact_gain.fact_gain_block,
    "main-locomo": results.locomo_block,
    "main-synthetic": results.synthetic_block,
    "tail": tail.tail_block,
    "speed": speed.speed_block,
    "speed-llm": speed.llm_speed_block,
    "speed-agents": agents.agents_block,
    "extractors": extraction.extractor_block,
    "targets": extraction.targets_block,
    "triggers": trigger_block,
    "judge": judge_block,
    "peers": peers.peers_block,
    "ingest-scaling": scaling.scaling_block,
    "executors": scaling.executors_block,
}
"""Block name in the README -> generator over the repository root."""


def render(text: str, root: Path = ROOT) -> str:
    """`text` with every known block replaced by its generated content."""
    for name, make in BLOCKS.items():
        pattern = re.compile(
            rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.DOTALL
        )
        if not pattern.search(text):
            continue
        body = make(root)
        text = pattern.sub(
            lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text
        )
    return text


def main(argv: list[str] | None = None) -> int:
    """Rewrite the README's generated blocks, or with --check report them stale."""
    parser = argparse.ArgumentParser(prog="python -m memlab_evals.readme.tables")
    parser.add_argument("readme", type=Path)
    parser.add_argument("--check", action="store_true")
    parser.add_argument(
        "--root",
        type=Path,
        help="where the result files are (default: the README's folder)",
    )
    args = parser.parse_args(argv)
    root = args.root or args.readme.resolve().parent
    text = args.readme.read_text(encoding="utf-8")
    fresh = render(text, root)
    if args.check:
        if fresh != text:
            print(f"{args.readme}: generated tables are stale; run make readme")
            return 1
        return 0
    args.readme.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
