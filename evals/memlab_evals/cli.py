"""`memory-lab eval`, `memory-lab score` and the main job (the trigger comparison).

`memlab_cli.main` registers them; `memory_lab` never imports the evals. Errors the
user can fix are raised as `ValueError`/`MemoryLabError` and printed there as one
line.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from memlab_evals.log import RunLog
from memlab_evals.runner import default_workers, run_eval
from memlab_evals.systems import BASELINES, split_systems

DEFAULT_SYSTEMS = "A,B,C,full,window,rag-bm25"
MAIN_SYSTEMS = "A,B,C,full,window,rag-bm25,rag-embed,none"
MAIN_BUDGET = 1500
LOCOMO_DEV = Path("../shared/datasets/locomo/locomo10_dev.json")
AUDIT_NAME = "locomo10_dev_audit.json"


# --- eval ----------------------------------------------------------------------------


def register_eval(sub: argparse._SubParsersAction) -> None:
    """Add `eval`: run systems over a dataset and write run.json, summary, report."""
    p = sub.add_parser(
        "eval",
        help="compare memory recipes and baselines on a dataset",
        description="Run every system over every conversation, score the contexts "
        "and write DIR/run.json, DIR/summary.csv and DIR/report.md.",
    )
    p.add_argument(
        "--dataset",
        default="synthetic",
        help="synthetic[:knob=value,...], locomo:PATH or a dataset file",
    )
    p.add_argument(
        "--systems",
        default=DEFAULT_SYSTEMS,
        help="comma list of recipes (A, B, C, A+B, B(b_high_water=800,b_low_water=400)"
        f", ...) and baselines ({', '.join(BASELINES)}); default {DEFAULT_SYSTEMS}",
    )
    p.add_argument(
        "--budget", type=int, default=1500, help="context tokens (all but full)"
    )
    p.add_argument("--out", required=True, type=Path, help="output folder")
    p.add_argument("--workers", type=int, default=1, help="worker processes")
    p.add_argument("--gate", type=Path, help="thresholds file: exit 1 on a regression")
    p.add_argument(
        "--corrections",
        choices=("audit", "none"),
        default=None,
        help="LoCoMo answer-key corrections (default: audit when the audit file "
        "is found)",
    )
    p.add_argument(
        "--audit",
        type=Path,
        help=f"LoCoMo audit file (default: {AUDIT_NAME} beside the dataset)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run_eval)


def _run_eval(args: argparse.Namespace) -> int:
    log = evaluate(
        args.dataset,
        args.systems,
        args.budget,
        workers=args.workers,
        corrections=args.corrections,
        audit=args.audit,
        progress=not args.quiet and sys.stderr.isatty(),
    )
    return publish(log, args.out, gate=args.gate)


def evaluate(
    dataset: str,
    systems: str,
    budget: int,
    *,
    workers: int = 1,
    corrections: str | None = None,
    audit: Path | None = None,
    progress: bool = True,
) -> RunLog:
    """Load the dataset a spec names and run the systems over it.

    Systems and budget are checked before the dataset is loaded, so a typo costs
    nothing.

    Raises:
        ValueError: for an unknown system or a bad budget.
        MemoryLabError: for a dataset that cannot be loaded.
    """
    from memlab_datasets import load_dataset

    split_systems(systems)
    if budget < 1:
        raise ValueError(f"--budget must be a positive number of tokens, got {budget}")
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    audit_path, applied = _corrections(dataset, corrections, audit)
    data = load_dataset(dataset, audit=audit_path, apply_corrections=applied == "audit")
    return run_eval(
        data,
        systems,
        budget,
        workers=workers,
        progress=progress,
        dataset_spec=dataset,
        corrections=applied,
    )


def _corrections(
    dataset: str, corrections: str | None, audit: Path | None
) -> tuple[Path | None, str]:
    """The audit file to load and whether its corrections apply.

    Only LoCoMo has an answer-key audit. The default applies it when the file is
    found, because several original answers are known to be wrong.

    Raises:
        ValueError: when corrections are asked for but no audit file exists.
    """
    path = _locomo_path(dataset)
    if path is None:
        if corrections == "audit" or audit is not None:
            raise ValueError("--corrections/--audit apply to LoCoMo datasets only")
        return None, "none"
    found = audit or path.parent / AUDIT_NAME
    if not found.exists():
        if corrections == "audit" or audit is not None:
            raise ValueError(f"{found}: audit file not found")
        return None, "none"
    return found, corrections or "audit"


def _locomo_path(dataset: str) -> Path | None:
    """The LoCoMo file a dataset spec names, or None for other datasets."""
    from memlab_datasets.loading import named_dataset

    spec = dataset.strip()
    name, argument = named_dataset(spec)
    if name == "locomo":
        return Path(argument)
    path = Path(spec)
    if path.suffix == ".json" and path.exists():
        return path
    return None


def publish(log: RunLog, out: Path, *, gate: Path | None = None) -> int:
    """Write run.json, then score it and write summary.csv and report.md.

    Returns:
        0, or 1 when a gate is given and a metric regressed (the messages are
        printed, one per metric).
    """
    out.mkdir(parents=True, exist_ok=True)
    judge = _judge_settings()
    if judge is not None:
        log = log.model_copy(
            update={"config": log.config.model_copy(update={"judge": judge.label})}
        )
    log.save(out / "run.json")
    return score_dir(out, gate=gate, log=log)


def _judge_settings():
    from memlab_evals.judge import settings_from_env

    return settings_from_env()


def score_dir(out: Path, *, gate: Path | None = None, log: RunLog | None = None) -> int:
    """Score a stored run (or the one given) and write summary.csv and report.md."""
    from memlab_evals.aggregate import summarize
    from memlab_evals.report import print_table, write_report

    if log is None:
        run_file = out / "run.json"
        if not run_file.exists():
            raise ValueError(f"{run_file}: no such file; run `memory-lab eval` first")
        log = RunLog.load(run_file)
    judge = _judge_settings()
    judged = None
    if judge is not None:
        from memlab_evals.judge import judge_probes

        judged = judge_probes(log.probes, judge)
    summary = summarize(log, judged)
    summary.to_csv(out / "summary.csv", index=False)
    write_report(log, summary, out)
    print_table(summary)
    print(f"wrote {out / 'run.json'}, {out / 'summary.csv'}, {out / 'report.md'}")
    if gate is None:
        return 0
    return _gate(summary, gate)


def _gate(summary, thresholds: Path) -> int:
    """Print each regression; non-zero when there is one."""
    from memlab_evals.gate import apply_gate

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


# --- score ---------------------------------------------------------------------------


def register_score(sub: argparse._SubParsersAction) -> None:
    """Add `score`: re-score a stored run without re-running it."""
    p = sub.add_parser(
        "score",
        help="re-score a stored run (rewrites summary.csv and report.md)",
        description="Read DIR/run.json and rewrite DIR/summary.csv and DIR/report.md "
        "with the current scorers; nothing is re-run.",
    )
    p.add_argument("dir", type=Path, help="a folder written by `memory-lab eval`")
    p.add_argument("--gate", type=Path, help="thresholds file: exit 1 on a regression")
    p.set_defaults(func=lambda args: score_dir(args.dir, gate=args.gate))


def register(sub: argparse._SubParsersAction) -> None:
    """Add both sub-commands (for a single entry point)."""
    register_eval(sub)
    register_score(sub)


# --- the main job --------------------------------------------------------------------


def main_job() -> int:
    """The README's main command: the trigger comparison at a 1,500-token budget.

    A, B, C and every baseline on the built-in synthetic set; on the LoCoMo
    development split too when MEMORY_LAB_LOCOMO names it or it sits at
    ../shared/datasets/locomo/ relative to the working folder. Each run goes to
    ./runs/main-<dataset>/.
    """
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    datasets = [("synthetic", "synthetic")]
    locomo = os.environ.get("MEMORY_LAB_LOCOMO")
    if locomo:
        if not Path(locomo).exists():
            raise ValueError(f"MEMORY_LAB_LOCOMO={locomo}: no such file")
        datasets.append(("locomo", f"locomo:{locomo}"))
    elif LOCOMO_DEV.exists():
        datasets.append(("locomo", f"locomo:{LOCOMO_DEV}"))
    status = 0
    for label, spec in datasets:
        started = time.perf_counter()
        log = evaluate(
            spec,
            MAIN_SYSTEMS,
            MAIN_BUDGET,
            workers=default_workers(),
            progress=sys.stderr.isatty(),
        )
        status |= publish(log, Path("runs") / f"main-{label}")
        print(f"{label}: {time.perf_counter() - started:.0f} s")
    return status
