"""Running an evaluation: load a dataset, run the systems, then the models.

What `memory-lab eval`, the main job and the trigger comparison share, below the
commands that parse flags and the reports that write files.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path

from memlab_evals.judging.model_pass import RunModels
from memlab_evals.running.executors import make_executor
from memlab_evals.running.log import RunLog
from memlab_evals.running.runner import run_evals
from memlab_evals.systems import split_systems
from memory_lab.config import DEFAULT_EXTRACTOR, Extractor
from memory_lab.stores.locations import StoreSpec
from memory_lab.triggers import load_plugins

AUDIT_NAME = "locomo10_dev_audit.json"


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


def with_ragas_columns(log: RunLog, models: RunModels | None, quiet: bool) -> RunLog:
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
