"""The soak loop on a planted suite: every round's seed is recorded and a failure
names its test and the command that replays it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _soak(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "soak"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_a_failing_round_is_recorded_with_its_seed_and_replay(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_planted.py").write_text(
        "import random\n"
        "def test_fine():\n    assert True\n"
        "def test_order_sensitive():\n    assert random.random() < 0\n"
    )
    out = tmp_path / "out"
    done = _soak(
        "--rounds", "2", "--load", "1", "--seed", "41", "--out", str(out), str(suite)
    )
    assert done.returncode == 1, done.stdout + done.stderr
    records = [
        json.loads(line) for line in (out / "soak.jsonl").read_text().splitlines()
    ]
    assert [r["seed"] for r in records] == [41, 42]
    assert all(r["returncode"] != 0 for r in records)
    assert all(any("test_order_sensitive" in t for t in r["failed"]) for r in records)
    assert "--randomly-seed=41" in records[0]["replay"]
    assert "--hypothesis-seed=41" in records[0]["replay"]
    assert records[0]["replay"].startswith("MEMORY_LAB_HYPOTHESIS_PROFILE=explore ")
    assert "replay round 1:" in done.stdout and "0 of 2 rounds passed" in done.stdout
    assert (out / "round-01.log").exists()


@pytest.mark.slow
def test_a_passing_suite_passes_and_bad_rounds_are_refused(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_ok.py").write_text("def test_ok():\n    assert 1 + 1 == 2\n")
    done = _soak(
        "--rounds", "1", "--load", "0", "--out", str(tmp_path / "o"), str(suite)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 1 rounds passed" in done.stdout
    refused = _soak("--rounds", "0", str(suite))
    assert refused.returncode == 2 and "--rounds must be at least 1" in refused.stderr


def test_the_test_command_draws_the_same_hypothesis_examples_every_run():
    from hypothesis import settings

    assert settings.default.derandomize is True


@pytest.mark.slow
def test_a_soak_resumes_from_its_next_round_on_the_same_commit_only(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    out = tmp_path / "out"
    first = _soak(
        "--rounds", "1", "--load", "0", "--seed", "7", "--out", str(out), str(suite)
    )
    assert first.returncode == 0, first.stdout + first.stderr
    more = _soak("--resume", str(out), "--rounds", "3", "--load", "0")
    assert more.returncode == 0, more.stdout + more.stderr
    records = [
        json.loads(line) for line in (out / "soak.jsonl").read_text().splitlines()
    ]
    assert [(r["round"], r["seed"]) for r in records] == [(1, 7), (2, 8), (3, 9)]
    assert len({r["commit"] for r in records}) == 1
    assert "3 of 3 rounds passed" in more.stdout

    (out / "soak.jsonl").write_text(
        json.dumps({**records[0], "commit": "0" * 40}) + "\n"
    )
    refused = _soak("--resume", str(out), "--rounds", "2")
    assert refused.returncode == 2 and "start a new soak" in refused.stderr
    empty = _soak("--resume", str(tmp_path / "nowhere"), "--rounds", "2")
    assert empty.returncode == 2 and "holds no recorded round" in empty.stderr
