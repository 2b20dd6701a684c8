"""The app's agentic memory switch, and the tool calls listed under a reply.

The toggle belongs to the model's controls: offline it is not shown, and a
switch turned on from the command line says it has no effect there.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from streamlit.testing.v1 import AppTest

from app_ui import actions
from app_ui.settings import build_llm
from app_ui.sidebar import AGENTIC_OFFLINE, LLM, RULES
from memlab_cli.main import main
from memory_lab import ManualClock, Memory
from tests.integration.openai_server import (
    Behaviour,
    FakeOpenAIServer,
    default_responder,
    text,
    tool_calls,
)


def _sidebar() -> None:
    import streamlit as st

    from app_ui.sidebar import choose_settings

    chosen = choose_settings()
    llm = chosen.llm if chosen is not None else None
    st.markdown(f"agentic: {llm.agentic_memory if llm is not None else 'no model'}")


@pytest.fixture
def env(monkeypatch, tmp_path):
    for name in ("MEMORY_LAB_LLM_BASE_URL", "MEMORY_LAB_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMORY_LAB_LLM_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.delenv("MEMORY_LAB_AGENTIC_MEMORY", raising=False)
    return monkeypatch


def _app() -> AppTest:
    at = AppTest.from_function(_sidebar, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _shown(at: AppTest) -> str:
    return at.markdown[-1].value


def test_the_toggle_is_shown_with_a_model_and_sets_agentic_memory(env) -> None:
    at = _app()
    assert not [t for t in at.sidebar.toggle if t.key == "agentic_memory"]
    at.sidebar.radio(key="brain").set_value(LLM).run()
    at.sidebar.text_input(key="llm_url").set_value("http://127.0.0.1:9/v1").run()
    assert _shown(at) == "agentic: False"
    at.sidebar.toggle(key="agentic_memory").set_value(True).run()
    assert _shown(at) == "agentic: True"


def test_switched_on_offline_it_says_it_has_no_effect(env) -> None:
    env.setenv("MEMORY_LAB_AGENTIC_MEMORY", "1")
    at = _app()
    assert at.sidebar.radio(key="brain").value == RULES
    assert AGENTIC_OFFLINE in [c.value for c in at.sidebar.caption]
    assert _shown(at) == "agentic: no model"
    at.sidebar.radio(key="brain").set_value(LLM).run()
    at.sidebar.text_input(key="llm_url").set_value("http://127.0.0.1:9/v1").run()
    assert at.sidebar.toggle(key="agentic_memory").value is True
    assert _shown(at) == "agentic: True"


def test_the_app_command_notes_that_offline_the_flag_does_nothing(
    env, capsys, monkeypatch
) -> None:
    started = {}

    def execve(path, cmd, environ):
        started["env"] = environ
        raise SystemExit(0)

    monkeypatch.setattr("os.execve", execve)
    with pytest.raises(SystemExit):
        main(["app", "--agentic-memory"])
    assert started["env"]["MEMORY_LAB_AGENTIC_MEMORY"] == "1"
    assert "no effect until a model is chosen" in capsys.readouterr().err


@pytest.mark.slow
def test_the_models_tool_calls_are_listed_for_its_reply(env, tmp_path) -> None:
    def respond(body: dict) -> Behaviour:
        if not body.get("tools"):
            return default_responder(body)
        if any(m.get("role") == "tool" for m in body["messages"]):
            return text("Saved.")
        saved = {"category": "preference", "key": "drink", "value": "tea"}
        return tool_calls(("memory_save", saved), ("memory_fly", {}))

    with FakeOpenAIServer(respond) as server:
        llm = build_llm(server.base_url, "test", agentic_memory=True)
        memory = Memory.open(
            brain=llm, clock=ManualClock(datetime(2025, 1, 1, tzinfo=UTC))
        )
        try:
            step = actions.send(memory, "ana", "Remember that I drink tea.")
        finally:
            memory.close()
    assert step.reply == "Saved."
    (saved, ok), (flown, failed_ok) = actions.tool_calls(step)
    assert saved.startswith("memory_save(") and ok
    assert "no tool named 'memory_fly'" in flown and not failed_ok
