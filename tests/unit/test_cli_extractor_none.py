"""`--extractor none` on `eval` and `main`: accepted, explained, and carried through."""

from __future__ import annotations

import json

import pytest

from memlab_cli.main import build_parser, main

REQUIRED = {"eval": ["--out", "run"], "main": []}
"""Each command's other required flags."""


@pytest.mark.parametrize("command", ["eval", "main"])
def test_the_flag_is_accepted_and_its_help_says_what_none_does(command, capsys):
    argv = [command, *REQUIRED[command], "--extractor", "none"]
    args = build_parser().parse_args(argv)
    assert args.extractor == "none"
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "none reads no facts" in help_text or "none (no facts read" in help_text


@pytest.mark.parametrize("command", ["eval", "main"])
def test_an_unknown_extractor_is_refused_naming_the_choices(command, capsys):
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args([command, *REQUIRED[command], "--extractor", "x"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--extractor: invalid choice" in err
    assert all(name in err.split("choose from")[1] for name in ("parse", "none"))


def test_main_hands_none_to_the_job(monkeypatch, tmp_path):
    import memlab_evals.cli

    seen: dict = {}
    monkeypatch.setattr(
        memlab_evals.cli, "main_job", lambda **kwargs: seen.update(kwargs) or 0
    )
    monkeypatch.setenv("MEMORY_LAB_RUNS", str(tmp_path))
    assert main(["main", "--extractor", "none"]) == 0
    assert seen["extractor"] == "none" and seen["runs"] == tmp_path


@pytest.mark.slow
def test_an_eval_with_none_logs_and_reports_it_and_stores_no_facts(tmp_path):
    out = tmp_path / "run"
    spec = "synthetic:conversations=1,sessions=2,turns_per_session=8"
    argv = ["eval", "--dataset", spec, "--systems", "A", "--budget", "300"]
    assert main([*argv, "--extractor", "none", "--out", str(out), "--quiet"]) == 0
    log = json.loads((out / "run.json").read_text())
    assert log["config"]["memory"]["extractor"] == "none"
    assert [c["stored_facts"] for c in log["conversations"]] == [[]]
    report = (out / "report.md").read_text()
    assert "- facts read from turns by: `none`" in report.splitlines()
