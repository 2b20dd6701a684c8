"""Agentic memory through the whole engine: the replying model calls memory tools.

The scripted server plays the model: it asks for tool calls, and the test reads
what the engine did with them (facts stored, end-dated), what it sent back as
`role: tool` messages, and what the turn answered. Memory work the background
worker sends (JSON, no tools) gets the server's default answers, so only the
requests that offer tools follow the script.
"""

from __future__ import annotations

from collections import deque
from datetime import UTC, datetime

import pytest

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.brains.llm.brain import FAILED_PREAMBLE
from memory_lab.config import LLMSettings
from memory_lab.facts.tools import offered_tools
from tests.integration.openai_server import (
    Behaviour,
    FakeOpenAIServer,
    default_responder,
    text,
    tool_calls,
)

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
TENANT = "t1"


class ToolScript:
    """Answers requests that offer tools from a queue; everything else by default."""

    def __init__(self, server: FakeOpenAIServer) -> None:
        self.queue: deque = deque()
        self.server = server
        server.responder = self

    def __call__(self, body: dict) -> Behaviour:
        if not body.get("tools"):
            return default_responder(body)
        item = self.queue.popleft()
        return item(body) if callable(item) else item

    def tool_requests(self) -> list[dict]:
        return [r.body for r in self.server.requests if r.body.get("tools")]


def _engine(server: FakeOpenAIServer, **settings) -> MemoryEngine:
    settings = {"use_cache": False, **settings}
    llm = LLMSettings(
        base_url=server.base_url,
        model="test",
        max_attempts=1,
        structured_output="json_schema",
        agentic_memory=True,
        **settings,
    )
    return MemoryEngine(None, config=MemoryConfig(llm=llm), clock=ManualClock(T0))


@pytest.fixture
def script(openai_server: FakeOpenAIServer) -> ToolScript:
    return ToolScript(openai_server)


def _tool_messages(body: dict) -> list[dict]:
    return [m for m in body["messages"] if m.get("role") == "tool"]


@pytest.mark.slow
def test_save_recall_and_forget_through_the_models_tool_calls(script, openai_server):
    engine = _engine(openai_server)
    try:
        saved = {"category": "preference", "key": "favourite_colour", "value": "green"}
        script.queue.extend([tool_calls(("memory_save", saved)), text("Noted: green.")])
        step = engine.chat(TENANT, "Please remember my favourite colour is green.")

        assert step.reply == "Noted: green."
        (fact,) = [
            f for f in engine.facts.active(TENANT) if f.key == "favourite_colour"
        ]
        assert (fact.value, fact.source) == ("green", "explicit")
        called = [e for e in step.events if e.kind == "tool_called"]
        assert len(called) == 1 and called[0].detail.startswith("memory_save(")
        first = script.tool_requests()[0]
        names = {t["function"]["name"] for t in first["tools"]}
        assert {"memory_save", "memory_recall", "memory_forget"} <= names
        assert first["messages"][-1]["content"].startswith("Please remember")

        script.queue.extend(
            [
                tool_calls(("memory_recall", {"query": "favourite colour"})),
                text("Green."),
            ]
        )
        step = engine.chat(TENANT, "What is my favourite colour?")

        assert step.reply == "Green."
        answered = script.tool_requests()[-1]
        (result,) = _tool_messages(answered)
        asked = answered["messages"][-2]["tool_calls"][0]
        assert answered["messages"][-2]["content"] == ""
        assert asked["function"]["name"] == "memory_recall"
        assert result["tool_call_id"] == asked["id"]
        assert "green" in result["content"]

        script.queue.extend(
            [
                tool_calls(("memory_forget", {"fact_id": fact.id})),
                text("I have forgotten it."),
            ]
        )
        step = engine.chat(TENANT, "Forget my favourite colour.")

        assert step.reply == "I have forgotten it."
        assert not [f for f in engine.facts.active(TENANT) if f.id == fact.id]
        (row,) = [r for r in engine.facts.rows(TENANT) if r.id == fact.id]
        assert row.valid_until is not None and row.status == "forgotten"
        logged = {e.kind for e in engine.events.events(TENANT)}
        assert {"fact_added", "fact_forgotten", "tool_called"} <= logged
        # The worker's memory work (extraction, JSON) is requests too: counted
        # once it is done, not while one may still be on its way.
        assert engine.flush(timeout=120)
        usage = engine.brain.usage()
        assert usage["tool_calls"] == 3 and usage["tool_errors"] == 0
        # Every round was a request, counted as one.
        assert usage["calls"] == len(openai_server.requests)
    finally:
        engine.close()


def test_bad_tool_calls_are_answered_as_errors_and_the_turn_still_answers(
    script, openai_server
):
    engine = _engine(openai_server)
    try:
        script.queue.extend(
            [
                tool_calls(
                    ("memory_fly", {"to": "the moon"}),
                    ("memory_save", '{"category": "preference", "key": '),
                    ("memory_save", {"category": "preference"}),
                    ("memory_forget", {"fact_id": "f_nowhere"}),
                ),
                text("Sorry, that did not work, but here I am."),
            ]
        )
        step = engine.chat(TENANT, "Remember that I like tea.")

        assert step.reply == "Sorry, that did not work, but here I am."
        errors = [m["content"] for m in _tool_messages(script.tool_requests()[-1])]
        assert len(errors) == 4 and all(e.startswith("error:") for e in errors)
        assert "no tool named 'memory_fly'" in errors[0]
        assert "JSON object" in errors[1]
        assert "invalid arguments" in errors[2] and "key" in errors[2]
        assert "f_nowhere" in errors[3]
        # The worker reads the turn itself ("Remember that ..." is a memory
        # command): wait for it, then no fact may come from the failed calls.
        assert engine.flush(timeout=60)
        from_tools = [
            f
            for f in engine.facts.active(TENANT)
            if any(t.startswith("tool:") for t in f.turn_ids)
        ]
        assert from_tools == []
        failed = [e for e in engine.events.events(TENANT) if e.kind == "tool_failed"]
        assert len(failed) == 4
        assert engine.brain.usage()["tool_errors"] == 4
    finally:
        engine.close()


def test_the_round_limit_stops_a_model_that_never_stops_calling_tools(
    script, openai_server
):
    engine = _engine(openai_server, tool_rounds=2)
    try:
        script.queue.extend([tool_calls(("memory_list", {}))] * 3)
        step = engine.chat(TENANT, "What do you know about me?")

        bodies = script.tool_requests()
        assert len(bodies) == 3
        assert [b.get("tool_choice") for b in bodies] == ["auto", "auto", "none"]
        assert step.reply.startswith(FAILED_PREAMBLE)
        fallback = [e for e in step.events if e.kind == "brain_fallback"]
        assert fallback and "tool round limit" in fallback[0].detail
        assert len([e for e in step.events if e.kind == "tool_called"]) == 2
        assert engine.brain.usage()["tool_round_limits"] == 1
    finally:
        engine.close()


def test_tools_are_offered_only_to_a_model_with_agentic_memory_on(openai_server):
    offline = MemoryEngine(None, clock=ManualClock(T0))
    off = MemoryEngine(
        None,
        config=MemoryConfig(
            llm=LLMSettings(base_url=openai_server.base_url, model="test")
        ),
        clock=ManualClock(T0),
    )
    try:
        assert offered_tools(offline) is None and offline.deps.tools is None
        assert off.deps.tools is None
        off.chat(TENANT, "Hello there.")
        assert not [r for r in openai_server.requests if r.body.get("tools")]
    finally:
        offline.close()
        off.close()


def test_a_cached_tool_conversation_is_replayed_and_its_calls_carried_out_again(
    script, openai_server, tmp_path
):
    saved = {"category": "preference", "key": "drink", "value": "tea"}
    stores = []
    for _ in range(2):
        engine = _engine(
            openai_server, use_cache=True, cache_path=str(tmp_path / "cache.sqlite")
        )
        script.queue.extend([tool_calls(("memory_save", saved)), text("Tea it is.")])
        try:
            step = engine.chat(TENANT, "Remember that I drink tea.", message_id="m1")
            assert step.reply == "Tea it is."
            # What the tool stored, read after the worker's own reading of the
            # turn, so the list does not depend on the worker's timing.
            assert engine.flush(timeout=60)
            stores.append(
                [
                    f.value
                    for f in engine.facts.active(TENANT)
                    if any(t.startswith("tool:") for t in f.turn_ids)
                ]
            )
            usage = engine.brain.usage()
        finally:
            engine.close()
    # The second run sent no tool request: both rounds came from the cache,
    # and the cached call still wrote the fact into the new memory.
    assert len(script.tool_requests()) == 2
    assert usage["cache_hits"] >= 2 and usage["tool_calls"] == 1
    assert stores == [["tea"], ["tea"]]
