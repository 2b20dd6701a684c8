"""README and docs/ tables written from result files, so no figure is typed by hand.

A block between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` in the README or
a page under docs/ is replaced by what its generator builds from committed result
files; a test fails when a page and the files disagree, so a re-run that is not
carried into the pages (or a hand edit of a number) cannot land. Every generator
takes the repository root and reads only files under it, so a test can hand it a
copy.

    python -m memlab_evals.readme.tables README.md          # rewrite the blocks
    python -m memlab_evals.readme.tables README.md --check  # exit 1 if stale

Each block ends with the commit(s) its figures were made at (`stamps`), and
a rewrite warns when that commit is older than the last change to the code it
measures.

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
    stamps,
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
    "fact-gain-brief": fact_gain.fact_gain_brief,
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
    "result-exceptions": stamps.exceptions_block,
}
"""Block name on a page -> generator over the repository root."""


def render(text: str, root: Path = ROOT, warn: str | None = None) -> str:
    """`text` with every known block replaced by its generated content.

    Each block ends with the commit its figures were made at. With `warn` (the
    page's name), a block whose commit is older than the last change to the code
    it measures is reported on stderr, with how many commits behind it is.
    """
    for name, make in BLOCKS.items():
        pattern = re.compile(
            rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.DOTALL
        )
        if not pattern.search(text):
            continue
        body, read = stamps.made_with_reads(make, root)
        made_at, unstamped = stamps.block_stamps(read, root)
        body += "\n\n" + stamps.stamp_line(made_at, unstamped)
        if warn is not None:
            for line in stamps.staleness_warnings(warn, name, made_at, root):
                print(f"warning: {line}", file=sys.stderr)
        text = pattern.sub(
            lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text
        )
    return text


def pages(readme: Path) -> list[Path]:
    """The README and the pages under docs/ beside it: where blocks may live."""
    return [readme, *sorted((readme.resolve().parent / "docs").glob("*.md"))]


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated blocks of the README and its docs/ pages.

    With --check, report the stale pages instead and exit 1 when there are any.
    """
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
    stale = []
    for page in pages(args.readme):
        text = page.read_text(encoding="utf-8")
        shown = page.name if page == args.readme else f"docs/{page.name}"
        fresh = render(text, root, warn=None if args.check else shown)
        if args.check:
            if fresh != text:
                stale.append(shown)
        elif fresh != text:
            page.write_text(fresh, encoding="utf-8")
    if stale:
        print(f"generated tables are stale in {', '.join(stale)}; run make readme")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
