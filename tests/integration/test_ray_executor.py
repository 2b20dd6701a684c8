"""`--executor ray` on a real local Ray cluster: the same log, retries, clear failure.

One cluster (two CPUs, no dashboard) serves the module; the xdist group keeps these
tests on one pytest worker so two clusters never compete for the two cores.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from memlab_datasets import load_dataset  # noqa: E402
from memlab_evals.running import runner  # noqa: E402
from memlab_evals.running.executors import RayExecutor, UnitFailedError, worker_env  # noqa: E402

pytestmark = [pytest.mark.xdist_group("ray"), pytest.mark.slow]

SPEC = "synthetic:conversations=2,sessions=2,turns-per-session=6"
SYSTEMS = "A,window"
BUDGET = 300


@pytest.fixture(scope="module")
def cluster():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO", "0")
    ray.init(address="local", num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def data():
    return load_dataset(SPEC)


@pytest.fixture(scope="module")
def local(data):
    return runner.strip_timing(runner.run_eval(data, SYSTEMS, BUDGET, progress=False))


def fail_first_attempt(label: str, marks: Path):
    """A `run_unit` that raises on the first attempt at one unit, then runs it.

    The mark is a file because a retry may land in another worker process.
    """

    def run(unit):
        from memlab_evals.running.runner import run_unit

        mark = marks / "failed-once"
        if unit.label == label and not mark.exists():
            mark.touch()
            raise RuntimeError("injected failure on the first attempt")
        return run_unit(unit)

    return run


def always_fail(label: str, marks: Path):
    """A `run_unit` that raises on every attempt at one unit, counting them."""

    def run(unit):
        from memlab_evals.running.runner import run_unit

        if unit.label == label:
            (marks / f"attempt-{os.getpid()}-{os.urandom(4).hex()}").touch()
            raise ValueError("injected failure on every attempt")
        return run_unit(unit)

    return run


def test_workers_import_this_checkout(cluster):
    @ray.remote(runtime_env={"env_vars": worker_env()})
    def where() -> str:
        import memlab_evals.running.runner

        return memlab_evals.running.runner.__file__

    assert Path(ray.get(where.remote())).resolve() == Path(runner.__file__).resolve()


def test_a_ray_run_logs_what_a_local_run_logs(cluster, data, local):
    log = runner.run_eval(data, SYSTEMS, BUDGET, executor=RayExecutor(), progress=False)
    assert log.config.executor == "ray"
    assert runner.strip_timing(log) == local


def test_a_unit_that_fails_once_is_retried_and_the_run_completes(
    cluster, data, local, tmp_path, monkeypatch
):
    label = f"{data.conversations[0].id} / window"
    monkeypatch.setattr(runner, "run_unit", fail_first_attempt(label, tmp_path))
    log = runner.run_eval(
        data, SYSTEMS, BUDGET, executor=RayExecutor(max_retries=2), progress=False
    )
    assert (tmp_path / "failed-once").exists()  # the failure did happen
    assert runner.strip_timing(log) == local


def test_a_unit_that_always_fails_stops_the_run_naming_it(
    cluster, data, tmp_path, monkeypatch
):
    label = f"{data.conversations[1].id} / A"
    monkeypatch.setattr(runner, "run_unit", always_fail(label, tmp_path))
    with pytest.raises(UnitFailedError) as failed:
        runner.run_eval(
            data, SYSTEMS, BUDGET, executor=RayExecutor(max_retries=1), progress=False
        )
    message = str(failed.value)
    assert message.startswith(label)
    assert "failed 2 times" in message
    assert "ValueError: injected failure on every attempt" in message
    assert len(list(tmp_path.glob("attempt-*"))) == 2  # once, then one retry
