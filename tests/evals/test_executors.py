"""Choosing an executor (names, flags, errors) and what a pool gives its workers."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from memlab_evals.running.executors import (
    WORKER_MODULES,
    LocalExecutor,
    RayExecutor,
    blas_threads_per_worker,
    import_ray,
    make_executor,
    worker_env,
)
from memlab_evals.running.runner import pin_cache_path

from memlab_cli.main import build_parser, main
from memory_lab.config import LLMSettings
from memory_lab.errors import MemoryLabError
from tests.helpers import blas_threads
from tests.worker_probe import imported


def test_local_is_the_default_and_ray_takes_an_address():
    assert make_executor() == LocalExecutor(1)
    assert make_executor("local", workers=3) == LocalExecutor(3)
    assert make_executor("ray") == RayExecutor(address=None, num_cpus=None)
    assert make_executor("ray", workers=2, ray_address="127.0.0.1:6379") == (
        RayExecutor(address="127.0.0.1:6379", num_cpus=2)
    )


@pytest.mark.slow
def test_pool_workers_share_the_cores_among_their_blas_threads():
    # A BLAS pool per worker as large as the machine, a worker per core: the
    # pools fight for the cores. Each worker gets its share instead.
    got = dict(LocalExecutor(2).run(blas_threads, ["first", "second"]))
    share = max(1, (os.cpu_count() or 1) // 2)
    assert blas_threads_per_worker(2) == share
    assert got == {"first": share, "second": share}


@pytest.mark.slow
def test_pool_workers_start_with_what_a_unit_imports_already_imported():
    # Each worker would otherwise import the engine, the stores and the brain
    # (and the parent's main script) for itself.
    got = dict(LocalExecutor(2).run(imported, list(WORKER_MODULES)))
    assert got == dict.fromkeys(WORKER_MODULES, True)


@pytest.mark.parametrize(
    ("name", "workers", "address", "message"),
    [
        ("dask", 1, None, "unknown executor"),
        ("local", 0, None, "at least 1"),
        ("local", 1, "127.0.0.1:6379", "--ray-address needs --executor ray"),
    ],
)
def test_bad_choices_are_refused(name, workers, address, message):
    with pytest.raises(ValueError, match=message):
        make_executor(name, workers=workers, ray_address=address)


def test_missing_ray_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(MemoryLabError, match="needs the 'ray' package"):
        import_ray()


def test_eval_help_shows_the_executor_flags(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["eval", "--help"])
    text = capsys.readouterr().out
    assert "--executor {local,ray}" in text
    assert "--ray-address ADDRESS" in text


def test_an_address_without_ray_is_a_one_line_error(tmp_path, capsys):
    status = main(["eval", "--out", str(tmp_path), "--ray-address", "127.0.0.1:6379"])
    assert status == 2
    assert "--ray-address needs --executor ray" in capsys.readouterr().err


def test_workers_get_this_checkout_first_on_their_path():
    import memlab_evals

    env = worker_env()
    paths = env["PYTHONPATH"].split(os.pathsep)
    assert str(Path(memlab_evals.__file__).resolve().parents[1]) in paths
    assert env["RAY_USAGE_STATS_ENABLED"] == "0"


def test_the_cache_path_is_fixed_in_the_driver(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    llm = LLMSettings(base_url="http://127.0.0.1:9/v1", model="m")
    pinned = pin_cache_path(llm)
    assert pinned.cache_path == str(tmp_path / "memory-lab" / "llm-cache.sqlite")
    off = llm.model_copy(update={"use_cache": False})
    assert pin_cache_path(off) is off
    assert pin_cache_path(None) is None
