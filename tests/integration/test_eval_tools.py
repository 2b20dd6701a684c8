"""`memory-lab eval --systems A,A+tools` against the scripted loopback server.

The scripted model saves one fact through the memory tools on every user turn,
then answers; memory work gets the server's default answers. The `+tools`
system's rows carry its name, its facts and its tool calls; the recipe beside
it calls no tool. Without a model the suffix is refused before anything runs.
"""

from __future__ import annotations

import csv
import json
import os

import pytest
from memlab_datasets import load_dataset

from memlab_cli.main import main
from tests.integration.openai_server import (
    Behaviour,
    FakeOpenAIServer,
    default_responder,
    text,
    tool_calls,
)

DATASET = "synthetic:conversations=1,sessions=2,turns_per_session=6"
SAVED = {"category": "preference", "key": "tool_note", "value": "kept by the model"}


def saving(body: dict) -> Behaviour:
    if not body.get("tools"):
        return default_responder(body)
    if any(m.get("role") == "tool" for m in body["messages"]):
        return text("Noted.")
    return tool_calls(("memory_save", SAVED))


@pytest.fixture
def env(tmp_path, monkeypatch):
    for name in list(os.environ):
        if name.startswith("MEMORY_LAB_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("MEMORY_LAB_LLM_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path


def _eval(out, *extra: str) -> int:
    return main(
        [
            "eval",
            "--dataset", DATASET,
            "--systems", "A,A+tools",
            "--budget", "600",
            "--quiet",
            "--out", str(out),
            *extra,
        ]
    )  # fmt: skip


@pytest.mark.slow
def test_tools_system_runs_beside_its_recipe_under_its_own_name(env):
    with FakeOpenAIServer(saving) as server:
        code = _eval(
            env / "run",
            "--llm-base-url", server.base_url,
            "--llm-model", "scripted",
        )  # fmt: skip
        tool_requests = [r for r in server.requests if r.body.get("tools")]
    assert code == 0
    with open(env / "run" / "summary.csv", encoding="utf-8") as f:
        systems = {r["system"] for r in csv.DictReader(f)}
    assert {"A", "A+tools"} <= systems
    (log_path,) = (env / "run").glob("*.json*")
    log = json.loads(log_path.read_text(encoding="utf-8"))
    runs = {r["system"]: r for r in log["conversations"]}
    (conv,) = load_dataset(DATASET).conversations
    user_turns = sum(1 for m in conv.turns if m.role == "user")
    # One save per user turn, each answered, then one answer after its result.
    assert runs["A+tools"]["brain_usage"]["tool_calls"] == user_turns > 0
    assert len(tool_requests) == 2 * user_turns
    assert runs["A"]["brain_usage"].get("tool_calls", 0) == 0
    saved = [f for f in runs["A+tools"]["stored_facts"] if f["key"] == "tool_note"]
    assert saved and saved[0]["source"] == "explicit"
    assert not [f for f in runs["A"]["stored_facts"] if f["key"] == "tool_note"]
    assert log["config"]["recipes"]["A+tools"]["agentic_memory"] is True


def test_without_a_model_the_suffix_is_refused_naming_the_problem(env, capsys):
    assert _eval(env / "none") == 2
    err = capsys.readouterr().err
    assert "A+tools" in err and "no model is configured" in err
    assert not (env / "none").exists()
