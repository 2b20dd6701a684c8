"""The peer libraries beside the recipes, as the README shows them.

One eval run keeps summary.csv (the table) and run.json (what was run, when, and
each failure by kind); a peer's zeros mean little without its failures, so the
block prints both.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pandas as pd

from memlab_evals.readme.cells import commit_ref, count, missing, moment, rate, seconds
from memlab_evals.readme.results import all_rows
from memlab_evals.reports.report import markdown_table

PEERS_RUN = Path("evals/results/peers-smollm2")


def number(value: object) -> float:
    """A summary figure, with an undefined one read as none."""
    return 0.0 if missing(value) else float(value)  # type: ignore[arg-type]


def peer_table(rows: pd.DataFrame) -> str:
    """Recall, the QA metrics, and what each system cost in requests and time."""
    table = pd.DataFrame(
        {
            "system": rows["system"],
            "status": rows["status"],
            "evidence recall": rows["evidence_recall"].map(rate),
            "answer recall": rows["answer_recall"].map(rate),
            "F1": rows["answer_f1"].map(rate),
            "J": rows["judged_accuracy"].map(rate),
            "hallucinated memory": rows["hallucinated_memory_rate"].map(rate),
            "LLM calls (memory + answer)": [
                f"{count(number(r['brain_calls']))} + "
                f"{count(number(r['llm_calls']) - number(r['brain_calls']))}"
                for _, r in rows.iterrows()
            ],
            "prompt / completion tokens": [
                f"{count(r['llm_prompt_tokens'])} / {count(r['llm_completion_tokens'])}"
                for _, r in rows.iterrows()
            ],
            "ingest p50 / p95 ms": [
                f"{count(r['ingest_ms_p50'])} / {count(r['ingest_ms_p95'])}"
                for _, r in rows.iterrows()
            ],
            "retrieve p50 / p95 ms": [
                f"{count(r['retrieve_ms_p50'])} / {count(r['retrieve_ms_p95'])}"
                for _, r in rows.iterrows()
            ],
            "context tokens": rows["context_tokens_mean"].map(count),
        }
    )
    return markdown_table(table)


def failures(log: dict) -> str | None:
    """Each system's failures by kind, summed over its conversations."""
    kinds: dict[str, Counter] = {}
    for unit in log["conversations"]:
        kinds.setdefault(unit["system"], Counter()).update(unit.get("errors") or {})
    shown = [
        f"{system} " + ", ".join(f"{kind} {n}" for kind, n in sorted(errors.items()))
        for system, errors in kinds.items()
        if errors
    ]
    return "; ".join(shown) if shown else None


def peers_block(root: Path) -> str:
    """The peers run: its table, what was run and when, and the peers' failures."""
    folder = root / PEERS_RUN
    rows = all_rows(folder / "summary.csv")
    log = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    config = log["config"]
    turns = {u["conversation"]: u["turns"] for u in log["conversations"]}
    wall = ", ".join(
        f"{stage.replace('_', ' ')} {seconds(s)}"
        for stage, s in ((log.get("llm") or {}).get("seconds") or {}).items()
    )
    conversations = "conversation" if len(turns) == 1 else "conversations"
    parts = [
        f"From `{PEERS_RUN.as_posix()}/summary.csv` (category `all`) and `run.json` "
        f"there: `{config['dataset']}` ({sum(turns.values()):,} turns in "
        f"{len(turns)} {conversations}), budget {config['budget']}, commit "
        f"{commit_ref(config['git_commit'])}, started {moment(config['started_at'])}"
        + (f"; wall time {wall}" if wall else "")
        + ".",
        "",
        peer_table(rows),
    ]
    failed = failures(log)
    if failed:
        parts += ["", f"Failures by kind (`run.json`): {failed}."]
    return "\n".join(parts)
