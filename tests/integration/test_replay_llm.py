"""`memory-lab replay --json` in LLM mode, selected by the environment alone.

Users' scripts run `MEMORY_LAB_LLM_BASE_URL=... MEMORY_LAB_LLM_MODEL=... memory-lab
replay --json` and read one JSON document: the brain that built the memory and what
it cost. The scripted loopback server stands in for the model.
"""

from __future__ import annotations

import json
import os

import pytest

from memlab_cli.main import main


@pytest.fixture
def env(monkeypatch, tmp_path, openai_server):
    for name in list(os.environ):
        if name.startswith("MEMORY_LAB_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("MEMORY_LAB_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("MEMORY_LAB_LLM_MODEL", "scripted")
    monkeypatch.setenv("MEMORY_LAB_LLM_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return openai_server


@pytest.mark.slow
def test_the_environment_alone_selects_the_llm_brain_for_replay(env, capsys):
    assert main(["replay", "--json"]) == 0
    snapshot = json.loads(capsys.readouterr().out)  # one document, not several
    assert snapshot["brain"] == "llm:scripted"
    usage = snapshot["llm_usage"]
    assert set(usage) >= {"calls", "prompt_tokens", "completion_tokens", "cache_hits"}
    assert usage["calls"] + usage["cache_hits"] > 0
    assert len(env.requests) == usage["calls"]
    assert {"window", "episodes", "facts", "events"} <= set(snapshot)


@pytest.mark.slow
def test_brain_rule_overrides_the_environment(env, capsys):
    assert main(["replay", "--json", "--brain", "rule"]) == 0
    snapshot = json.loads(capsys.readouterr().out)
    assert not snapshot["brain"].startswith("llm")
    assert snapshot["llm_usage"]["calls"] == 0
    assert env.requests == []


@pytest.mark.slow
def test_several_recipes_print_one_document_per_line(monkeypatch, capsys):
    for name in list(os.environ):
        if name.startswith("MEMORY_LAB_"):
            monkeypatch.delenv(name)
    assert main(["replay", "--json", "--recipe", "A", "--recipe", "B"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    assert all(json.loads(line)["brain"] for line in lines)
