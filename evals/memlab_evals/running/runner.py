"""Run systems over a dataset and write down exactly what each one would inject.

One work unit is one system over one conversation, in a fresh data folder: turns go
in order under a manual clock that follows their timestamps, and at each probe the
context is assembled for the probe's question, timed and logged. Units run where
an executor puts them (`memlab_evals.running.executors`: this process, a local
pool, a Ray cluster); their results are put back in a fixed order, so the log
(timing aside) is the same whatever the executor and the worker count.

What each probe's record holds is built in `memlab_evals.running.records`; what
a run is stamped with (commit, versions, trigger digests) in
`memlab_evals.running.provenance`, whose names are re-exported here.
"""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from memlab_datasets.types import Conversation, Dataset

from memlab_evals.running.executors import Executor, make_executor
from memlab_evals.running.log import (
    ConversationRun,
    ProbeRecord,
    RunConfig,
    RunLog,
)
from memlab_evals.running.provenance import (
    CODE_CHECKOUT,
    TIMING_FIELDS,
    _check_reachable,
    git_commit,
    package_version,
    scorer_versions,
    strip_timing,
    triggers_used,
)
from memlab_evals.running.records import (
    asked_time,
    conversation_run,
    health,
    probe_record,
)
from memlab_evals.systems import (
    check_models,
    make_system,
    memory_settings,
    split_systems,
    system_params,
)
from memory_lab.brains.offline.parse.parse_cache import (
    keep_parses_on_disk,
    parses_beside,
)
from memory_lab.config import DEFAULT_EXTRACTOR, Extractor, LLMSettings
from memory_lab.embeddings import default_embedder
from memory_lab.llm_client.response_cache import default_cache_path
from memory_lab.stores.locations import StoreSpec
from memory_lab.text import turn_line
from memory_lab.tokens import default_counter
from memory_lab.triggers import load_plugins

__all__ = [
    "CODE_CHECKOUT",
    "TIMING_FIELDS",
    "Unit",
    "_check_reachable",
    "default_workers",
    "git_commit",
    "pin_cache_path",
    "run_eval",
    "run_evals",
    "run_unit",
    "strip_timing",
    "triggers_used",
]


@dataclass(frozen=True)
class Unit:
    """One system over one conversation: the grain of parallel work."""

    conversation_index: int
    system_index: int
    conversation: Conversation
    system: str
    budgets: tuple[int, ...]
    """Context budgets: the memory is built once and assembled under each."""
    llm: LLMSettings | None = None
    stores: StoreSpec | None = None
    """Servers for the memory recipes, with this unit's own namespace."""
    extractor: Extractor = DEFAULT_EXTRACTOR
    """How the offline brain reads facts (`rules` for the ablation)."""
    plugins: tuple[str, ...] = ()
    """Modules that register triggers, imported first (worker processes too)."""
    vector_cache: Path | None = None
    """The file embeddings are kept in across units and runs; None: memory only."""

    @property
    def label(self) -> str:
        """The unit in progress lines and errors: ``conversation / system``."""
        return f"{self.conversation.id} / {self.system}"


def run_unit(unit: Unit) -> dict[int, tuple[ConversationRun, list[ProbeRecord]]]:
    """Feed one conversation to one fresh system and record every probe.

    Each probe's context is assembled under every budget of the unit from the
    same memory (what a system stores does not depend on the budget its
    contexts are cut to), so a run over several budgets ingests once. The
    questions are embedded before the first turn, so no `retrieve_ms` holds
    a question's embedding. A probe with its own `asked_at` (LongMemEval's
    question date) is asked then: the system is told the time has come
    (`wait_until`), so a memory's clock reads that date when it answers. The
    stores live in a temporary folder of their own (real SQLite and Chroma),
    deleted afterwards, so units never see each other's memory.
    """
    load_plugins(unit.plugins)
    embedder = default_embedder()
    embedder.keep_on_disk(unit.vector_cache)
    # Parses are kept beside the vectors: one setting keeps both or neither.
    keep_parses_on_disk(parses_beside(unit.vector_cache))
    conv = unit.conversation
    if not conv.turns:
        run = conversation_run(unit.system, conv, [], None)
        return {b: (run, []) for b in unit.budgets}
    # Every system that searches by meaning embeds the question the same way.
    # Made here, untimed, the vector is found by whichever system asks first,
    # so `retrieve_ms` is the search and assembly alone for all of them, not
    # an embedding for the systems that happen to run first.
    embedder.embed(list(dict.fromkeys(p.question for p in conv.probes)))
    counter = default_counter()
    probes_after = defaultdict(list)
    for probe in conv.probes:
        if probe.after_turn not in conv.positions:
            raise ValueError(
                f"{conv.id}: probe {probe.id} is asked after unknown turn "
                f"{probe.after_turn!r}"
            )
        probes_after[probe.after_turn].append(probe)

    ingest_ms: list[float] = []
    records: dict[int, list[ProbeRecord]] = {b: [] for b in unit.budgets}
    history: list[str] = []
    history_tokens = 0
    with tempfile.TemporaryDirectory(prefix="memory-lab-eval-") as tmp:
        system = make_system(
            unit.system,
            budget=unit.budgets[0],
            tenant=conv.tenant,
            start=conv.turns[0].timestamp,
            data_dir=Path(tmp) / "data",
            counter=counter,
            llm=unit.llm,
            stores=unit.stores,
            extractor=unit.extractor,
        )
        try:
            if health(system).skipped:
                # Never ran (a peer without a model): a row that says so, and no
                # probes, so nothing is scored as if it had forgotten.
                run = conversation_run(unit.system, conv, [], system)
                return {b: (run, []) for b in unit.budgets}
            for turn in conv.turns:
                t0 = time.perf_counter()
                system.ingest(turn)
                ingest_ms.append((time.perf_counter() - t0) * 1000)
                history.append(turn_line(turn))
                asked = probes_after.get(turn.id, ())
                if asked:
                    # Counted as `full` renders it, so full's ratio is exactly 1.
                    history_tokens = counter.count("\n".join(history))
                for probe in sorted(asked, key=lambda p: asked_time(p, turn.timestamp)):
                    when = _wait_until(system, asked_time(probe, turn.timestamp))
                    system.settle()
                    for budget in unit.budgets:
                        _at_budget(system, budget)
                        records[budget].append(
                            probe_record(
                                unit.system, conv, probe, system, when, history_tokens
                            )
                        )
            run = conversation_run(unit.system, conv, ingest_ms, system)
        finally:
            system.close()
    return {b: (run, records[b]) for b in unit.budgets}


def _wait_until(system, when: datetime) -> datetime:
    """Let the system's time reach `when` with no new turn; returns `when`.

    Only systems that keep a clock (memory recipes) have `wait_until`; for
    the others time between turns changes nothing.
    """
    wait = getattr(system, "wait_until", None)
    if callable(wait):
        wait(when)
    return when


def _at_budget(system, budget: int) -> None:
    """Cut the system's next contexts to `budget` (`full` has none to cut)."""
    if getattr(system, "budget", None) is not None:
        system.budget = budget


def run_eval(
    dataset: Dataset,
    systems: Sequence[str] | str,
    budget: int,
    **options,
) -> RunLog:
    """Every system over every conversation at one budget (see `run_evals`)."""
    return run_evals(dataset, systems, [budget], **options)[budget]


def run_evals(
    dataset: Dataset,
    systems: Sequence[str] | str,
    budgets: Sequence[int],
    *,
    workers: int = 1,
    executor: Executor | str = "local",
    progress: bool = True,
    dataset_spec: str | None = None,
    corrections: str = "none",
    llm: LLMSettings | None = None,
    stores: StoreSpec | None = None,
    extractor: Extractor = DEFAULT_EXTRACTOR,
    plugins: Sequence[str] = (),
    vector_cache: Path | None = None,
) -> dict[int, RunLog]:
    """Every system over every conversation, as one versioned log per budget.

    Each conversation is ingested into each system once; every probe's context
    is then assembled under each budget from that one memory, so the logs are
    what separate runs at each budget would give (timing aside), for the
    ingestion of one.

    Args:
        dataset: The conversations with their probes and ground truth.
        systems: Names (see `memlab_evals.systems`) or one comma-separated string.
        budgets: Context token budgets for every system except ``full``.
        workers: Worker processes; 1 runs in this process.
        executor: Where units run: an `Executor`, or a name from
            `memlab_evals.running.executors.EXECUTORS` built with `workers`.
        progress: Show a progress bar.
        dataset_spec: How the dataset was named on the command line, for the log.
        corrections: LoCoMo answer-key corrections applied: 'none' or 'audit'.
        llm: The LLM brain for memory recipes; None keeps the rule-based brain.
        stores: Servers for the memory recipes' stores; each unit keeps to a
            namespace of its own under this run's, so none sees another's memory.
        extractor: How facts are read: `parse`, `rules` or `none`.
        plugins: Modules that register triggers; worker processes import them
            before their first unit (a trigger defined in a notebook cell runs
            with one worker, in this process).
        vector_cache: A file every unit keeps its embeddings in, shared by the
            worker processes and by later runs (`memory_lab.vector_cache`);
            None keeps them in each process's memory.

    Raises:
        ValueError: for an unknown system, a `+tools` system without `llm`, a
            budget below 1, workers below 1 or an unknown executor.
        UnitFailedError: a unit failed on every attempt (Ray executor).
    """
    names = split_systems(systems if isinstance(systems, str) else ",".join(systems))
    check_models(names, llm)
    budgets = tuple(dict.fromkeys(budgets))
    if not budgets:
        raise ValueError("give at least one budget")
    for budget in budgets:
        if budget < 1:
            raise ValueError(
                f"budget must be a positive number of tokens, got {budget}"
            )
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    plugins = tuple(plugins)
    load_plugins(plugins)
    if isinstance(executor, str):
        executor = make_executor(executor, workers=workers)
    triggers = triggers_used(names)
    _check_reachable(triggers, executor, workers)
    llm = pin_cache_path(llm)
    started_at = datetime.now(UTC).isoformat()
    configs = {
        budget: RunConfig(
            dataset=dataset_spec or dataset.name,
            dataset_hash=dataset.content_hash,
            source="+".join(sorted({c.source for c in dataset.conversations})),
            systems=names,
            recipes={n: p for n in names if (p := system_params(n))},
            memory=memory_settings(budget, extractor),
            budget=budget,
            workers=workers,
            executor=executor.name,
            git_commit=git_commit(),
            started_at=started_at,
            memory_lab_version=package_version(),
            corrections=corrections,
            triggers=triggers,
            plugins=list(plugins),
        )
        for budget in budgets
    }
    run_space = f"eval-{uuid.uuid4().hex[:10]}"
    units = [
        Unit(
            ci,
            si,
            conv,
            name,
            budgets,
            llm,
            _unit_stores(stores, run_space, ci, si),
            extractor,
            plugins,
            vector_cache,
        )
        for ci, conv in enumerate(dataset.conversations)
        for si, name in enumerate(names)
    ]
    results = _execute(units, executor, progress)
    logs = {}
    for budget in budgets:
        runs: list[ConversationRun] = []
        probes: list[ProbeRecord] = []
        for unit in units:  # the fixed order: conversation, then system as given
            run, records = results[(unit.conversation_index, unit.system_index)][budget]
            runs.append(run)
            probes.extend(records)
        logs[budget] = RunLog(
            config=configs[budget],
            scorers=scorer_versions(),
            conversations=runs,
            probes=probes,
        )
    return logs


def _unit_stores(
    stores: StoreSpec | None, run_space: str, conversation: int, system: int
) -> StoreSpec | None:
    if stores is None or not stores.remote:
        return None
    return replace(stores, namespace=f"{run_space}-c{conversation}-s{system}")


def _execute(units: list[Unit], executor: Executor, progress: bool) -> dict:
    """Run the units on the executor, behind one progress bar."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    results: dict[tuple[int, int], dict] = {}
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    todo = sorted(units, key=_heaviest_first)
    with Progress(*columns, disable=not progress, transient=True) as bar:
        task = bar.add_task("eval", total=len(units))
        for unit, result in executor.run(run_unit, todo):
            results[(unit.conversation_index, unit.system_index)] = result
            bar.update(task, description=unit.label)
            bar.advance(task)
    return results


def _heaviest_first(unit: Unit) -> tuple[bool, int, int]:
    """Memory recipes before baselines, system by system, longest conversation first.

    A recipe's unit costs many times a baseline's, so when the longest units
    start first the cheap ones fill the last minutes of the run; in conversation
    order, the last conversation's recipes ran while the other workers idled.
    System by system, workers start on different conversations, so a turn is
    parsed and embedded once and every later system reads it from the run's
    caches; two recipes of one conversation started together made both twice.
    """
    return (
        not system_params(unit.system),
        unit.system_index,
        -len(unit.conversation.turns),
    )


def pin_cache_path(llm: LLMSettings | None) -> LLMSettings | None:
    """The brain's settings with the response cache at an absolute path.

    Left unset, each worker would find the default cache from its own
    environment; fixed here, every worker (a pool's, a Ray cluster's) shares the
    driver's file, so no unit repeats a request another has already made.
    """
    if llm is None or not llm.use_cache:
        return llm
    path = Path(llm.cache_path) if llm.cache_path else default_cache_path()
    return llm.model_copy(update={"cache_path": str(path.expanduser().resolve())})


def default_workers() -> int:
    """A worker per core, at most four: each one loads its own embedder and stores."""
    return max(1, min(4, os.cpu_count() or 1))
