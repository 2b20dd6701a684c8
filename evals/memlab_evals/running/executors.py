"""Where eval work units run: here, in a local process pool, or on a Ray cluster.

`run_eval` hands its units to an executor and reads `(unit, result)` pairs back as
they finish, in whatever order; it puts them in its fixed order afterwards, so the
executor never changes the log (timing aside).

- `LocalExecutor`: this process for one worker, else a process pool on this machine.
- `RayExecutor`: one Ray task per unit, on a cluster at an address or on one
  started in this process. Ray is imported only when this executor runs.

The LLM brain's response cache is an SQLite file
(`memory_lab.llm_client.response_cache`)
that many processes can share. `run_eval` fixes its absolute path in the driver
(see `memlab_evals.running.runner.pin_cache_path`) and the path travels inside
every unit, so every worker, in a pool or in Ray, reads and writes the same file
and none repeats a request another has made. That holds on one machine; SQLite's
WAL mode does not work over a network file system, so on several machines each
node keeps its own cache at that path.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from memory_lab.errors import MemoryLabError
from memory_lab.stores.chroma_telemetry import VARIABLE

EXECUTORS = ("local", "ray")
"""Names `--executor` accepts, the first the default."""

U = TypeVar("U", bound="WorkUnit")
R = TypeVar("R")


class WorkUnit(Protocol):
    """What an executor needs of a unit: a name for progress and errors."""

    @property
    def label(self) -> str:
        """Names the unit, e.g. ``conv-3 / A``."""
        ...


class Executor(Protocol):
    """Runs a function over units and yields each result as it is done."""

    name: str

    def run(self, fn: Callable[[U], R], units: Sequence[U]) -> Iterator[tuple[U, R]]:
        """`(unit, fn(unit))` for every unit, in the order they finish."""
        ...


class UnitFailedError(MemoryLabError):
    """A unit kept failing after its retries; the message names it."""


@dataclass(frozen=True)
class LocalExecutor:
    """In this process for one worker, else a pool of worker processes.

    Args:
        workers: Processes; 1 runs every unit here, one after another.
    """

    workers: int = 1
    name: str = "local"

    def run(self, fn: Callable[[U], R], units: Sequence[U]) -> Iterator[tuple[U, R]]:
        """Run the units, yielding each result as it comes."""
        if self.workers == 1 or len(units) <= 1:
            for unit in units:
                yield unit, fn(unit)
            return
        workers = min(self.workers, len(units))
        with ProcessPoolExecutor(
            max_workers=workers,
            mp_context=_context(),
            initializer=limit_blas_threads,
            initargs=(blas_threads_per_worker(workers),),
        ) as pool:
            futures = {pool.submit(fn, u): u for u in units}
            for fut in as_completed(futures):
                yield futures[fut], fut.result()


@dataclass(frozen=True)
class RayExecutor:
    """One Ray task per unit, results gathered as they complete.

    A task whose unit raises, or whose worker process dies, is run again up to
    `max_retries` times (Ray's ``max_retries`` with ``retry_exceptions``); a unit
    that still fails stops the run with a `UnitFailedError` naming it, and the
    tasks not yet done are cancelled.

    Workers import this code from the driver's folders: their ``PYTHONPATH``
    (a task's ``runtime_env``) starts with the folders that hold `memory_lab`,
    `memlab_datasets` and `memlab_evals` here, so a cluster started elsewhere
    still runs this checkout when it shares the file system, and otherwise
    whatever memory-lab its nodes have installed.

    Args:
        address: A running cluster (``HOST:PORT``, as ``ray start --head``
            prints); None starts a private one in this process and stops it after.
        num_cpus: CPUs of the cluster started here (None: all of this machine's);
            ignored with an address.
        max_retries: Extra attempts for a failed unit.
    """

    address: str | None = None
    num_cpus: int | None = None
    max_retries: int = 2
    name: str = "ray"

    def run(self, fn: Callable[[U], R], units: Sequence[U]) -> Iterator[tuple[U, R]]:
        """Submit every unit, then yield results as `ray.wait` reports them."""
        ray = import_ray()
        started = self._connect(ray)
        pending: dict[Any, U] = {}
        try:
            remote = ray.remote(fn).options(
                num_cpus=1,
                max_retries=self.max_retries,
                retry_exceptions=True,
                runtime_env={"env_vars": worker_env()},
            )
            pending = {remote.remote(u): u for u in units}
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    unit = pending.pop(ref)
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayError as err:
                        raise UnitFailedError(
                            f"{unit.label}: failed {self.max_retries + 1} times, "
                            f"the last with {_cause(err)}"
                        ) from err
                    yield unit, result
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()

    def _connect(self, ray) -> bool:
        """Join or start a cluster; True when this call started the connection.

        A connection already made (a notebook's or a test's `ray.init`) is used
        as it is and left open.
        """
        if ray.is_initialized():
            return False
        # Before init: the cluster it starts reads these from the environment. The
        # second keeps today's device handling and silences Ray's warning about it.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        os.environ.setdefault("RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO", "0")
        if self.address:
            ray.init(
                address=self.address,
                include_dashboard=False,
                logging_level=logging.WARNING,
            )
        else:
            # "local", not None: None would join a cluster `ray start` left running.
            ray.init(
                address="local",
                num_cpus=self.num_cpus,
                include_dashboard=False,
                logging_level=logging.WARNING,
                # Units pass conversations and records only; Ray's default store
                # would reserve 30% of the memory.
                object_store_memory=256 * 1024**2,
            )
        return True


def make_executor(
    name: str = "local", *, workers: int = 1, ray_address: str | None = None
) -> Executor:
    """The executor a command line names.

    Args:
        name: One of `EXECUTORS`.
        workers: Local worker processes; with Ray and no address, the CPUs of
            the cluster started here when above 1 (else all of this machine's).
        ray_address: A running Ray cluster; only with ``ray``.

    Raises:
        ValueError: for an unknown name, workers below 1, or an address
            without Ray.
    """
    if name not in EXECUTORS:
        raise ValueError(
            f"unknown executor {name!r}; choose from {', '.join(EXECUTORS)}"
        )
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if name == "local":
        if ray_address:
            raise ValueError("--ray-address needs --executor ray")
        return LocalExecutor(workers)
    return RayExecutor(
        address=ray_address or None, num_cpus=workers if workers > 1 else None
    )


def import_ray():
    """The `ray` module, or an error saying which package to install.

    Raises:
        MemoryLabError: when Ray is not installed.
    """
    try:
        import ray
    except ImportError as err:
        raise MemoryLabError(
            "--executor ray needs the 'ray' package: pip install 'ray==2.53.0' "
            "(or memory-lab[ray])"
        ) from err
    return ray


def worker_env() -> dict[str, str]:
    """Environment for Ray workers: this code first on the path, telemetry off."""
    import memlab_datasets

    import memlab_evals
    import memory_lab

    roots: list[str] = []
    for package in (memory_lab, memlab_datasets, memlab_evals):
        root = str(Path(package.__file__).resolve().parents[1])
        if root not in roots:
            roots.append(root)
    inherited = os.environ.get("PYTHONPATH")
    return {
        "PYTHONPATH": os.pathsep.join([*roots, *([inherited] if inherited else [])]),
        VARIABLE: "False",
        "RAY_USAGE_STATS_ENABLED": "0",
    }


def _cause(err: BaseException) -> str:
    """The unit's own exception as one line, without Ray's wrapping traceback."""
    cause = getattr(err, "cause", None) or err
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[0]}" if text else type(cause).__name__


def blas_threads_per_worker(workers: int) -> int:
    """The BLAS threads each of `workers` processes may use: the cores shared out."""
    return max(1, (os.cpu_count() or 1) // workers)


def limit_blas_threads(threads: int) -> None:
    """Cap this worker's BLAS pool (numpy's OpenBLAS) at `threads`.

    Each worker process would otherwise start a BLAS pool as large as the
    machine, so with a worker per core the pools fight for the same cores, and a
    BLAS thread waiting for its partner spins. On a loaded 2-core machine the
    cosine over 10,000 turn vectors took 16.3 ms a call with 2 threads and
    4.7 ms with 1; on an idle one the main job takes the same time either way
    (296 and 297 s with embeddings kept), every table equal cell by cell.
    """
    import numpy  # noqa: F401  (loads OpenBLAS, so the limit reaches it)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=threads, user_api="blas")


WORKER_MODULES = (
    "memlab_evals.running.runner",
    "memlab_evals.systems.memory",
    "memory_lab.engine",
    "memory_lab.stores.chroma_episodes",
    "memory_lab.brains.offline.brain",
)
"""What every unit imports: the stores, the engine and the offline brain."""

OWN_PACKAGES = (
    "memory_lab",
    "memlab_cli",
    "memlab_evals",
    "memlab_bench",
    "memlab_datasets",
)


def preloaded_modules() -> list[str]:
    """What the fork server imports once, before it forks any worker.

    A worker re-runs the parent's main script (the `memory-lab` command imports
    every subcommand, pandas and matplotlib among them) and then imports what a
    unit runs: about 10 s of imports per worker on an idle 2-core machine,
    paid by each of the main job's four workers. Forked from a server that has
    them, a worker finds them imported. The parent's own modules are named so
    the re-run main script finds what it imports; nothing here opens a file,
    a session or a thread pool of ours.
    """
    ours = sorted(m for m in sys.modules if m.partition(".")[0] in OWN_PACKAGES)
    return list(dict.fromkeys(["__main__", *WORKER_MODULES, *ours]))


def _context() -> multiprocessing.context.BaseContext:
    """Forkserver where it exists, else spawn.

    Forking a process that holds ONNX sessions, SQLite handles and thread pools
    can deadlock the child; the fork server holds none, only imported modules
    (`preloaded_modules`, named before the server first starts).
    """
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(preloaded_modules())
    return context
