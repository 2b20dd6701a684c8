"""What a run is stamped with, so a stored number can be traced to what made it.

The commit and whether the tree was dirty, the package and scorer versions, and
each trigger's module and source digest; `strip_timing` removes what says when
and how a run was made, leaving what it found, for determinism checks.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import subprocess
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from memlab_evals.running.executors import Executor
from memlab_evals.running.log import RunLog
from memlab_evals.systems import is_baseline, is_peer, split_tools
from memory_lab.recipes import recipe
from memory_lab.triggers import get_trigger

TIMING_FIELDS = {"ingest_ms", "retrieve_ms", "started_at", "workers", "executor"}
"""Fields that say when and how a run was made, not what it found."""

CODE_CHECKOUT = Path(__file__).resolve().parents[3]
"""The checkout this code runs from, whose commit a run is stamped with."""


def triggers_used(names: Sequence[str]) -> dict[str, dict[str, str]]:
    """Each trigger the run's recipes use: where it is defined and a digest of it.

    A trigger's code changes its results as much as its parameters do, so the
    log names its module and a digest of its source (its decision, its cut and
    its parameter model).
    """
    used: dict[str, dict[str, str]] = {}
    for name in names:
        if is_baseline(name) or is_peer(name):
            continue
        for use in recipe(split_tools(name)[0]).triggers:
            trigger = get_trigger(use.name)
            if trigger is None or use.name in used:
                continue
            used[use.name] = {
                "module": trigger.module,
                "summary": trigger.summary,
                "source_sha1": _source_digest(
                    trigger.decide, trigger.splits, trigger.params
                ),
            }
    return used


def _source_digest(*parts: object) -> str:
    digest = hashlib.sha1()
    for part in parts:
        if part is None:
            continue
        try:
            digest.update(inspect.getsource(part).encode())
        except (OSError, TypeError):  # defined where no source file exists
            digest.update(repr(part).encode())
    return digest.hexdigest()[:16]


def _check_reachable(
    triggers: dict[str, dict[str, str]], executor: Executor, workers: int
) -> None:
    """Fail before any unit runs when a worker process could not find a trigger.

    Raises:
        ValueError: naming the trigger defined in ``__main__`` (a notebook cell
            or a script) while units run in other processes.
    """
    in_process = executor.name == "local" and workers == 1
    stranded = [n for n, t in triggers.items() if t["module"] == "__main__"]
    if stranded and not in_process:
        raise ValueError(
            f"trigger {stranded[0]!r} is defined in __main__ (a notebook cell or a "
            "script), which worker processes cannot import: run with workers=1, "
            "or move it to a module and pass it as a plugin"
        )


@functools.cache
def git_commit(checkout: Path = CODE_CHECKOUT) -> str:
    """The commit the code ran at, with '+dirty' when the tree has edits.

    Read once per process, at its first run: the code a process runs is what
    was checked out when it started, and a job that writes its results into the
    checkout (the main job into evals/results/) must not stamp its later runs
    dirty with its own output.
    """
    try:
        sha = _git(checkout, "rev-parse", "HEAD")
        dirty = _git(checkout, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{sha}+dirty" if dirty else sha


def _git(checkout: Path, *args: str) -> str:
    """What a git command prints in `checkout`, stripped."""
    return subprocess.run(
        ["git", *args],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    ).stdout.strip()


def package_version() -> str:
    """The installed memory-lab's version, or 'unknown'."""
    try:
        return version("memory-lab")
    except PackageNotFoundError:
        return "unknown"


def scorer_versions() -> dict[str, str]:
    """Versions of the scorers that will read this log, when they are installed."""
    try:
        from memlab_evals.scorers import SCORER_VERSIONS
    except ImportError:
        return {}
    return dict(SCORER_VERSIONS)


def strip_timing(log: RunLog) -> dict:
    """The log as a dict without wall-clock fields: what determinism compares."""
    data = log.model_dump(mode="json")
    for key in TIMING_FIELDS & set(data["config"]):
        data["config"].pop(key)
    for run in data["conversations"]:
        run.pop("ingest_ms", None)
    for probe in data["probes"]:
        probe.pop("retrieve_ms", None)
    return data
