"""`memory-lab eval`, `memory-lab score` and the main job (the trigger comparison).

`memlab_cli.main` registers them, adds the LLM flags (brain, answer model, judge)
and resolves them, with the environment beneath, into `args.models`; nothing here
reads the environment. `memory_lab` never imports the evals. Errors the user can
fix are raised as `ValueError`/`MemoryLabError` and printed there as one line.

The commands are here; running an evaluation is `memlab_evals.evaluation`,
writing its files `memlab_evals.reports.publish`, and the main job's sets
`memlab_evals.main_plan`. Their names are importable from here as before.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from memlab_evals.evaluation import (
    AUDIT_NAME,
    evaluate,
    evaluate_budgets,
    job_failure_warnings,
    run_models,
    warn_job_failures,
    with_ragas_columns,
)
from memlab_evals.judging.model_pass import RunModels
from memlab_evals.main_plan import (
    LOCOMO_DEV,
    MAIN_BUDGETS,
    MAIN_RECIPES,
    MAIN_SYNTHETIC,
    MAIN_SYSTEMS,
    added_datasets,
)
from memlab_evals.main_plan import main_datasets as _main_datasets
from memlab_evals.reports.publish import publish, score_dir
from memlab_evals.running.executors import EXECUTORS
from memlab_evals.running.runner import default_workers
from memlab_evals.systems import describe, is_baseline, names, pick, split_systems
from memory_lab.config import DEFAULT_EXTRACTOR, EXTRACTORS, Extractor
from memory_lab.stores.chroma_telemetry import telemetry_off
from memory_lab.triggers import load_plugins

__all__ = [
    "AUDIT_NAME",
    "DEFAULT_SYSTEMS",
    "LOCOMO_DEV",
    "MAIN_BUDGETS",
    "MAIN_RECIPES",
    "MAIN_SYNTHETIC",
    "MAIN_SYSTEMS",
    "budget_folder",
    "budget_list",
    "evaluate",
    "evaluate_budgets",
    "job_failure_warnings",
    "main_datasets",
    "main_job",
    "main_systems",
    "publish",
    "register",
    "register_eval",
    "register_score",
    "run_models",
    "score_dir",
    "systems_help",
    "warn_job_failures",
]

DEFAULT_SYSTEMS = ",".join(["A", "B", "C", *pick("full", "window", "rag-bm25")])
"""A small set, for quick runs and tests: the cheap baselines only."""


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
        help="a registered data set, NAME:ARGUMENT (" + dataset_usages() + ", or "
        "a name a --plugin module registers), or a .jsonl/.json dataset file",
    )
    p.add_argument(
        "--systems",
        default=DEFAULT_SYSTEMS,
        help=systems_help(),
    )
    p.add_argument(
        "--budget",
        type=budget_list,
        default=[1500],
        help="context tokens (all but full); several, comma-separated (600,1500), "
        "ingest each conversation once and write one run per budget to "
        "OUT/budget-N/",
    )
    p.add_argument("--out", required=True, type=Path, help="output folder")
    p.add_argument("--workers", type=int, default=1, help="worker processes")
    p.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="local",
        help="where units run: local (this machine, --workers processes) or ray "
        "(one Ray task per conversation and system, retried on failure; results "
        "are the same)",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help="a running Ray cluster (HOST:PORT from `ray start --head`); default: "
        "start one in this process",
    )
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
    p.add_argument(
        "--extractor",
        choices=EXTRACTORS,
        default=DEFAULT_EXTRACTOR,
        help="how facts are read from turns: parse (a dependency parse, with "
        "the rules for instructions and corrections), rules (the pattern table "
        "alone, for ablations) or none (no facts read, by the offline brain or "
        "an LLM brain: turns alone, save for what memory commands such as "
        "'remember that ...' store)",
    )
    p.add_argument(
        "--ragas",
        action="store_true",
        help="add ragas's metrics as columns: context recall and precision against "
        "the evidence turns (string similarity, offline) and, with --answer, the gold "
        "answer's presence in the answer; with a judge too, ragas's faithfulness and "
        "answer correctness on the judge's endpoint",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run_eval)


def dataset_usages() -> str:
    """How each registered data set is named, for ``--dataset`` help."""
    from memlab_datasets import registry

    return registry.usages()


def systems_help() -> str:
    """``--systems`` help: the recipe grammar and each registered system's line."""
    listed = "; ".join(
        f"{name} ({describe(name)})" for name in (*names("baseline"), *names("peer"))
    )
    return (
        "comma list of recipes (A, B, C, A+B, B(b_high_water=800,b_low_water=400), "
        f"...), baselines and peers: {listed}. A recipe with +tools (A+tools) runs "
        f"with agentic memory and needs a model; default {DEFAULT_SYSTEMS}"
    )


def budget_list(text: str) -> list[int]:
    """`1500` or `600,1500`: positive token budgets, each named once."""
    try:
        budgets = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a budget or a comma-separated list of budgets"
        ) from None
    if not budgets or any(b < 1 for b in budgets):
        raise argparse.ArgumentTypeError(
            f"{text!r}: budgets must be positive numbers of tokens"
        )
    return list(dict.fromkeys(budgets))


def budget_folder(out: Path, budget: int, budgets: list[int]) -> Path:
    """Where one budget's run goes: OUT itself for one budget, OUT/budget-N/ else."""
    return out if len(budgets) == 1 else out / f"budget-{budget}"


def _run_eval(args: argparse.Namespace) -> int:
    logs = evaluate_budgets(
        args.dataset,
        args.systems,
        args.budget,
        workers=args.workers,
        executor=args.executor,
        ray_address=args.ray_address,
        corrections=args.corrections,
        audit=args.audit,
        progress=not args.quiet and sys.stderr.isatty(),
        models=getattr(args, "models", None),
        stores=getattr(args, "stores", None),
        extractor=args.extractor,
        plugins=getattr(args, "plugins", ()),
        vector_cache=getattr(args, "vector_cache", None),
    )
    status = 0
    for budget, log in logs.items():
        if args.ragas:
            log = with_ragas_columns(log, getattr(args, "models", None), args.quiet)
        status |= publish(
            log, budget_folder(args.out, budget, args.budget), gate=args.gate
        )
    warn_job_failures(logs.values(), "eval")
    return status


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


def main_datasets(locomo: Path | None) -> list[tuple[str, str]]:
    """The main job's datasets: the synthetic set, and LoCoMo when it is found.

    Read from this module's `MAIN_SYNTHETIC` and `LOCOMO_DEV`, so a test or a
    notebook that sets them here changes the main job.

    Raises:
        ValueError: when `locomo` names a file that does not exist.
    """
    return _main_datasets(locomo, synthetic=MAIN_SYNTHETIC, locomo_dev=LOCOMO_DEV)


def main_systems(added: list[str]) -> str:
    """The main job's systems; each trigger a plug-in added runs as a recipe too."""
    spec = MAIN_SYSTEMS or ",".join([MAIN_RECIPES, *names("baseline")])
    found = split_systems(spec)
    recipes = [n for n in found if not is_baseline(n)]
    rest = [n for n in found if is_baseline(n)]
    return ",".join(recipes + [a for a in added if a not in recipes] + rest)


def main_job(
    *,
    locomo: Path | None = None,
    models: RunModels | None = None,
    runs: Path = Path("runs"),
    extractor: Extractor = DEFAULT_EXTRACTOR,
    plugins: tuple[str, ...] = (),
    vector_cache: Path | None = None,
    datasets: tuple[str, ...] | list[str] = (),
) -> int:
    """The README's main command: the trigger comparison at 600 and 1,500 tokens.

    A, B, C and every baseline on a synthetic set over 10x the larger budget; on
    the LoCoMo development split too when `locomo` names it (MEMORY_LAB_LOCOMO) or
    it sits at ../shared/datasets/locomo/ relative to the working folder. Each run
    goes to RUNS/main-<dataset>-<budget>/, and the goal across them (best recipe
    against best raw-turn retriever, paired) to RUNS/main-goal.csv and .png. With
    `models`, recipes use its brain; `extractor="rules"` is the ablation of the
    offline brain's fact reading, and `"none"` that of facts altogether. Triggers
    the `plugins` register run beside A, B and C. `datasets` are registered data
    sets run after those (``longmemeval:PATH:sample=50``), each to
    RUNS/main-<its name>-<budget>/.
    """
    telemetry_off()
    plan = main_datasets(locomo)
    plan += added_datasets(datasets, plan)
    from memlab_evals.reports.aggregate import probe_scores
    from memlab_evals.reports.goal_table import goal_rows

    status = 0
    goal: list[dict] = []
    seconds: dict[str, float] = {}
    kept_before = _vectors_kept(vector_cache)
    for label, spec in plan:
        started = time.perf_counter()
        # Each conversation is ingested into each system once, then assembled
        # at every budget (the memory does not depend on the budget).
        logs = evaluate_budgets(
            spec,
            main_systems(load_plugins(plugins)),
            list(MAIN_BUDGETS),
            workers=default_workers(),
            progress=sys.stderr.isatty(),
            models=models,
            extractor=extractor,
            plugins=plugins,
            vector_cache=vector_cache,
        )
        for budget, log in logs.items():
            name = f"main-{label}-{budget}"
            probes = probe_scores(log)
            status |= publish(log, runs / name, probes=probes)
            goal += goal_rows(name, log, probes)
        warn_job_failures(logs.values(), "main")
        seconds[label] = round(time.perf_counter() - started, 1)
        budgets = " and ".join(f"{b:,}" for b in MAIN_BUDGETS)
        print(f"{label} at {budgets} tokens: {seconds[label]:.0f} s")
    _publish_goal(goal, runs)
    _publish_times(seconds, runs, kept_before, vector_cache)
    return status


def _vectors_kept(path: Path | None) -> int:
    """How many vectors the cache file held (0 without one): cold or warm."""
    if path is None or not path.is_file():
        return 0
    from memory_lab.embeddings import MiniLMEmbedder
    from memory_lab.vector_cache import VectorFile

    return VectorFile(path, MiniLMEmbedder.dim).count()


def _publish_times(
    seconds: dict[str, float], runs: Path, kept_before: int, cache: Path | None
) -> None:
    """RUNS/main-times.json: the job's wall time, for the README's speed table.

    With the machine it ran on and whether embeddings were already kept, since
    a first run on a machine makes every vector and a later one reads them.
    """
    import os
    from datetime import UTC, datetime

    from memlab_evals.running.runner import git_commit

    record = {
        "command": "memory-lab main",
        "seconds": seconds,
        "total_seconds": round(sum(seconds.values()), 1),
        "workers": default_workers(),
        "cores": os.cpu_count(),
        "vector_cache": "off" if cache is None else "on",
        "vectors_kept_before": kept_before,
        "git_commit": git_commit(),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    path = runs / "main-times.json"
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {path}: {record['total_seconds']:.0f} s in all")


def _publish_goal(rows: list[dict], runs: Path) -> None:
    """The goal across the runs: RUNS/main-goal.csv and .png, and a line per row."""
    from memlab_evals.reports.goal_table import write_goal

    table = write_goal(rows, runs)
    for r in table.itertuples():
        print(
            f"{r.run} {r.metric}: {r.recipe} {r.recipe_mean:.3f} vs {r.retriever} "
            f"{r.retriever_mean:.3f}, paired difference {r.difference:+.3f} "
            f"[{r.ci_low:+.3f}, {r.ci_high:+.3f}]: {r.verdict}"
        )
    print(f"wrote {runs / 'main-goal.csv'}, {runs / 'main-goal.png'}")
