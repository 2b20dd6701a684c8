"""`memory-lab eval`, `memory-lab score` and the main job (the trigger comparison).

`memlab_cli.main` registers them, adds the LLM flags (brain, answer model, judge)
and resolves them, with the environment beneath, into `args.models`; nothing here
reads the environment. `memory_lab` never imports the evals. Errors the user can
fix are raised as `ValueError`/`MemoryLabError` and printed there as one line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from memlab_evals.judging.model_pass import RunModels
from memlab_evals.running.executors import EXECUTORS, make_executor
from memlab_evals.running.log import RunLog
from memlab_evals.running.runner import default_workers, run_evals
from memlab_evals.systems import describe, is_baseline, names, pick, split_systems
from memory_lab.config import DEFAULT_EXTRACTOR, EXTRACTORS, Extractor
from memory_lab.stores.chroma_telemetry import telemetry_off
from memory_lab.stores.locations import StoreSpec
from memory_lab.triggers import load_plugins

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_SYSTEMS = ",".join(["A", "B", "C", *pick("full", "window", "rag-bm25")])
"""A small set, for quick runs and tests: the cheap baselines only."""
MAIN_RECIPES = "A,B,C"
MAIN_SYSTEMS: str | None = None
"""The main job's systems; None: `MAIN_RECIPES` and every registered baseline."""
MAIN_BUDGETS = (600, 1500)
MAIN_SYNTHETIC = "synthetic:sessions=20,turns_per_session=40,span_days=120"
"""About 20,000 tokens of history per conversation: over 10x the larger budget, so
the main job measures what memory is for (the default set is small, for tests)."""
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
            log = _with_ragas(log, getattr(args, "models", None), args.quiet)
        status |= publish(
            log, budget_folder(args.out, budget, args.budget), gate=args.gate
        )
    warn_job_failures(logs.values(), "eval")
    return status


def warn_job_failures(logs: Iterable[RunLog], command: str) -> None:
    """Print `job_failure_warnings` to stderr, once over the budgets' logs.

    Every budget's log holds the same runs (one ingestion each).
    """
    lines = (line for log in logs for line in job_failure_warnings(log, command))
    for line in dict.fromkeys(lines):
        print(line, file=sys.stderr)


def job_failure_warnings(log: RunLog, command: str = "eval") -> list[str]:
    """One line per system and conversation whose memory jobs failed for good.

    Its probes are still scored, but against a memory that lacks the failed
    jobs' facts or episodes, so the numbers understate the recipe.
    """
    lines = []
    for run in log.conversations:
        failed = run.errors.get("job_failed", 0)
        if failed:
            first = next(
                (e["error"] for e in run.events if e.get("stage") == "memory job"), ""
            )
            jobs = f"{failed} memory job{'' if failed == 1 else 's'}"
            lines.append(
                f"memory-lab {command}: warning: {jobs} failed for good in "
                f"{run.conversation}/{run.system}: {first}"
            )
    return lines


def _with_ragas(log: RunLog, models: RunModels | None, quiet: bool) -> RunLog:
    """The ragas offline metrics, and its LLM metrics when a judge is configured."""
    from memlab_evals.judging.ragas_bridge import with_ragas

    log = with_ragas(log)
    plan = models.plan if models is not None else None
    if plan is None or plan.judge is None:
        return log
    from memlab_evals.judging.ragas_llm import with_ragas_llm

    def shown(done: int, total: int) -> None:
        if not quiet and (done == total or done % 25 == 0):
            print(
                f"ragas on {plan.judge.label}: {done}/{total} probes", file=sys.stderr
            )

    return with_ragas_llm(log, plan.judge, plan.options, progress=shown)


def evaluate(dataset: str, systems: str, budget: int, **options) -> RunLog:
    """One budget's run (see `evaluate_budgets`)."""
    return evaluate_budgets(dataset, systems, [budget], **options)[budget]


def evaluate_budgets(
    dataset: str,
    systems: str,
    budgets: list[int],
    *,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
    corrections: str | None = None,
    audit: Path | None = None,
    progress: bool = True,
    models: RunModels | None = None,
    stores: StoreSpec | None = None,
    extractor: Extractor = DEFAULT_EXTRACTOR,
    plugins: tuple[str, ...] | list[str] = (),
    vector_cache: Path | None = None,
) -> dict[int, RunLog]:
    """Load the dataset a spec names, run the systems over it, then the models.

    One log per budget, from one ingestion of each conversation into each
    system (`runner.run_evals`).
    Systems and budgets are checked before the dataset is loaded, so a typo costs
    nothing. With `models`, memory recipes use its brain, and its plan answers
    and judges every probe (see `memlab_evals.judging.model_pass`). With
    `stores`, memory recipes keep their memory on those servers. `executor` and
    `ray_address` choose where units run (see `memlab_evals.running.executors`).
    `plugins` are modules that register triggers, imported here and by every
    worker process. `vector_cache` is a file every unit keeps its embeddings in
    (`memory_lab.vector_cache`), so a turn is embedded once per machine.

    Raises:
        ValueError: for an unknown system, a bad budget, or a Ray address
            without the Ray executor.
        MemoryLabError: for a dataset that cannot be loaded, Ray missing, or a
            unit that failed on every attempt.
    """
    from memlab_datasets import load_dataset

    load_plugins(plugins)
    split_systems(systems)
    for budget in budgets:
        if budget < 1:
            raise ValueError(
                f"--budget must be a positive number of tokens, got {budget}"
            )
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    runner = make_executor(executor, workers=workers, ray_address=ray_address)
    audit_path, applied = _corrections(dataset, corrections, audit)
    data = load_dataset(dataset, audit=audit_path, apply_corrections=applied == "audit")
    models = models or RunModels()
    started = time.perf_counter()
    logs = run_evals(
        data,
        systems,
        budgets,
        workers=workers,
        executor=runner,
        progress=progress,
        dataset_spec=dataset,
        corrections=applied,
        llm=models.llm,
        stores=stores,
        extractor=extractor,
        plugins=plugins,
        vector_cache=vector_cache,
    )
    return {
        budget: run_models(log, models, started=started, progress=progress)
        for budget, log in logs.items()
    }


def run_models(
    log: RunLog, models: RunModels, *, started: float, progress: bool = False
) -> RunLog:
    """Record the brain, then answer and judge every probe as the plan says."""
    from memlab_evals.judging.model_pass import brain_info, run_model_pass
    from memory_lab.prompts import prompt_versions

    info = brain_info(
        log,
        models.brain,
        extractor=models.extractor,
        prompts=prompt_versions() if models.brain is not None else {},
        seconds=time.perf_counter() - started,
    )
    # The price prices the brain's reading too, with no answer model at all.
    info = info.model_copy(
        update={
            "price_per_1k_prompt": models.plan.price_per_1k_prompt,
            "price_per_1k_completion": models.plan.price_per_1k_completion,
        }
    )
    if models.plan.checks_judge:
        info = _checked_judge(info, log.config.dataset, models.plan)
    log = log.model_copy(update={"llm": info})
    if not models.plan.calls_models:
        return log
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, disable=not progress, transient=True) as bar:
        task = bar.add_task("answers", total=len(log.probes))
        return run_model_pass(log, models.plan, on_probe=lambda: bar.advance(task))


def _checked_judge(info, dataset: str, plan) -> object:
    """`info` with the judge's check, run before any J it will give.

    Same endpoint, options and cache as the judging pass, so a repeated run sends
    nothing twice; the rates go into run.json and beside J in the report.
    """
    from memlab_evals.judging.judge_check import check_judge

    calibration, checked = check_judge(
        dataset, plan.judge, per_kind=plan.judge_check_per_kind, options=plan.options
    )
    return info.model_copy(
        update={
            "judge_calibration": calibration.model_dump(mode="json"),
            "judge_checks": [c.model_dump(mode="json") for c in checked],
        }
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

    Raises:
        ValueError: when `locomo` names a file that does not exist.
    """
    datasets = [("synthetic", MAIN_SYNTHETIC)]
    if locomo:
        if not Path(locomo).exists():
            raise ValueError(f"MEMORY_LAB_LOCOMO={locomo}: no such file")
        datasets.append(("locomo", f"locomo:{locomo}"))
    elif LOCOMO_DEV.exists():
        datasets.append(("locomo", f"locomo:{LOCOMO_DEV}"))
    return datasets


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
) -> int:
    """The README's main command: the trigger comparison at 600 and 1,500 tokens.

    A, B, C and every baseline on a synthetic set over 10x the larger budget; on
    the LoCoMo development split too when `locomo` names it (MEMORY_LAB_LOCOMO) or
    it sits at ../shared/datasets/locomo/ relative to the working folder. Each run
    goes to RUNS/main-<dataset>-<budget>/, and the goal across them (best recipe
    against best raw-turn retriever, paired) to RUNS/main-goal.csv and .png. With
    `models`, recipes use its brain; `extractor="rules"` is the ablation of the
    offline brain's fact reading, and `"none"` that of facts altogether. Triggers
    the `plugins` register run beside A, B and C.
    """
    telemetry_off()
    datasets = main_datasets(locomo)
    from memlab_evals.reports.aggregate import probe_scores
    from memlab_evals.reports.goal_table import goal_rows

    status = 0
    goal: list[dict] = []
    seconds: dict[str, float] = {}
    kept_before = _vectors_kept(vector_cache)
    for label, spec in datasets:
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
