"""A bench or an eval stamps the code it started at, not the results it wrote since."""

from __future__ import annotations

import subprocess

import pytest
from memlab_bench.machine import git_commit as bench_commit
from memlab_evals.running.runner import git_commit as run_commit

STAMPS = pytest.mark.parametrize("git_commit", [bench_commit, run_commit])


def _git(repo, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _repo(path):
    path.mkdir()
    _git(path, "init", "-q")
    (path / "result.json").write_text("{}\n")
    _git(path, "add", "result.json")
    _git(path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first")
    return path


def _head(repo, git_commit) -> str:
    """HEAD as the stamp spells it: the bench's short, the eval run's full."""
    full = _git(repo, "rev-parse", "HEAD")
    return full[: len(git_commit(repo).split("+")[0])]


@STAMPS
def test_results_written_after_the_start_do_not_mark_the_run_dirty(
    tmp_path, git_commit
):
    repo = _repo(tmp_path / "clean")
    head = _head(repo, git_commit)
    assert git_commit(repo) == head
    (repo / "result.json").write_text('{"p50": 1.0}\n')  # the run's own output
    assert git_commit(repo) == head


@STAMPS
def test_a_checkout_edited_before_the_start_is_stamped_dirty(tmp_path, git_commit):
    repo = _repo(tmp_path / "edited")
    (repo / "result.json").write_text("edited\n")
    assert git_commit(repo) == _head(repo, git_commit) + "+dirty"
