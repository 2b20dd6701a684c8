"""A bench stamps the code it started at, not the results it wrote since."""

from __future__ import annotations

import subprocess

from memlab_bench.machine import git_commit


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


def test_results_written_after_the_start_do_not_mark_the_run_dirty(tmp_path):
    repo = _repo(tmp_path / "clean")
    head = _git(repo, "rev-parse", "--short", "HEAD")
    assert git_commit(repo) == head
    (repo / "result.json").write_text('{"p50": 1.0}\n')  # the bench's own output
    assert git_commit(repo) == head


def test_a_checkout_edited_before_the_start_is_stamped_dirty(tmp_path):
    repo = _repo(tmp_path / "edited")
    (repo / "result.json").write_text("edited\n")
    assert git_commit(repo) == _git(repo, "rev-parse", "--short", "HEAD") + "+dirty"
