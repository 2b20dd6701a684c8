"""`memory-lab datasets generate|describe`, driven through argparse."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest
from memlab_datasets.cli import register

DEV = (
    Path(
        os.environ.get(
            "MEMLAB_LOCOMO_DIR",
            Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo",
        )
    )
    / "locomo10_dev.json"
)


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="memory-lab")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_generate_twice_gives_identical_files(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert _run(["datasets", "generate", "--seed", "7", "--out", str(a)]) == 0
    assert _run(["datasets", "generate", "--seed", "7", "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert a.stat().st_size > 0


def test_generate_knobs_reach_the_generator(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    argv = [
        "datasets",
        "generate",
        "--out",
        str(out),
        "--conversations",
        "2",
        "--sessions",
        "3",
        "--turns-per-session",
        "10",
        "--domain",
        "coding",
        "--fact-density",
        "0.6",
        "--update-rate",
        "0.5",
        "--distractor-ratio",
        "0.1",
        "--span-days",
        "60",
    ]
    assert _run(argv) == 0
    assert _run(["datasets", "describe", str(out)]) == 0
    text = capsys.readouterr().out
    assert "conversations" in text and "turns" in text
    assert " 60 " in text  # 2 conversations x 3 sessions x 10 turns


def test_generate_rejects_bad_knobs(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    code = _run(["datasets", "generate", "--out", str(out), "--fact-density", "1.5"])
    assert code == 2
    assert "fact_density" in capsys.readouterr().err
    assert not out.exists()


def test_describe_missing_file_fails_cleanly(tmp_path, capsys):
    missing = tmp_path / "a-folder-name-long-enough-to-reach-the-terminal-edge"
    assert _run(["datasets", "describe", str(missing / "nope.jsonl")]) == 1
    err = capsys.readouterr().err
    # whole, however long the path: a message is never wrapped inside it
    assert f"{missing / 'nope.jsonl'}: no such file" in err


def test_datasets_without_subcommand_shows_help(capsys):
    assert _run(["datasets"]) == 2
    assert "generate" in capsys.readouterr().out


@pytest.mark.skipif(not DEV.exists(), reason=f"LoCoMo dev split not found at {DEV}")
def test_describe_locomo_prints_counts_and_category_names(capsys):
    assert _run(["datasets", "describe", str(DEV)]) == 0
    text = capsys.readouterr().out
    assert "2,760" in text and "999" in text
    for name in ("multi-hop", "temporal", "open-domain", "single-hop", "adversarial"):
        assert name in text
