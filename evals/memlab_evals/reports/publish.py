"""Writing a run's files: run.json, then its scores, summary, probes and report.

`memory-lab eval` and `score`, the main job and the trigger comparison all end
here; the gate, when given, decides the exit status.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memlab_evals.running.log import RunLog

if TYPE_CHECKING:
    import pandas as pd


def publish(
    log: RunLog,
    out: Path,
    *,
    gate: Path | None = None,
    probes: pd.DataFrame | None = None,
) -> int:
    """Write run.json, then score it and write summary.csv and report.md.

    Returns:
        0, or 1 when a gate is given and a metric regressed (the messages are
        printed, one per metric).
    """
    out.mkdir(parents=True, exist_ok=True)
    judge = log.llm.judge_endpoint if log.llm else None
    if judge is not None:
        label = f"{judge.model} @ {judge.base_url}"
        log = log.model_copy(
            update={"config": log.config.model_copy(update={"judge": label})}
        )
    log.save(out / "run.json")
    if log.llm is not None and log.llm.judge_checks:
        from memlab_evals.judging.judge_check import ITEMS_FILE

        lines = [json.dumps(item, sort_keys=True) for item in log.llm.judge_checks]
        (out / ITEMS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return score_dir(out, gate=gate, log=log, probes=probes)


def score_dir(
    out: Path,
    *,
    gate: Path | None = None,
    log: RunLog | None = None,
    probes: pd.DataFrame | None = None,
) -> int:
    """Score a stored run (or the one given): summary.csv, probes.csv, report.md.

    Answers and verdicts are read from the log; scoring never calls a model. The
    probes are scored once (`probes`, when the caller has them) for every file;
    probes.csv keeps them one by one, so runs can be compared paired.
    """
    from memlab_evals.reports.aggregate import probe_scores, summarize
    from memlab_evals.reports.probe_file import write_probe_scores
    from memlab_evals.reports.report import print_table, write_report

    if log is None:
        run_file = out / "run.json"
        if not run_file.exists():
            raise ValueError(f"{run_file}: no such file; run `memory-lab eval` first")
        log = RunLog.load(run_file)
    probes = probe_scores(log) if probes is None else probes
    summary = summarize(log, probes)
    summary.to_csv(out / "summary.csv", index=False)
    kept = write_probe_scores(probes, out)
    write_report(log, summary, out, probes)
    print_table(summary, log=log)
    print(
        f"wrote {out / 'run.json'}, {out / 'summary.csv'}, {kept}, {out / 'report.md'}"
    )
    if gate is None:
        return 0
    return _gate(summary, gate)


def _gate(summary, thresholds: Path) -> int:
    """Print each regression; non-zero when there is one."""
    from memlab_evals.reports.gate import apply_gate

    if not thresholds.exists():
        raise ValueError(f"{thresholds}: thresholds file not found")
    problems = apply_gate(summary, thresholds)
    if not problems:
        print(f"gate {thresholds}: pass")
        return 0
    print(f"gate {thresholds}: {len(problems)} regression(s)", file=sys.stderr)
    for line in problems:
        print(f"  {line}", file=sys.stderr)
    return 1
