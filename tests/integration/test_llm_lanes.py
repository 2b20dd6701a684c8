"""Replies and memory work on separate lanes, through the whole engine.

The scenario the app meets on a small local model: summaries and extraction fail
in the background worker and open their breaker; the user's next reply must
still come from the model, not the offline responder.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.config import LLMSettings
from memory_lab.recipes import recipe
from memory_lab.types import Message
from tests.integration.openai_server import (
    HTTP_500,
    Behaviour,
    FakeOpenAIServer,
    request_method,
    text,
)

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
REPLY = "You live in Oslo, as you told me."


def _json_fails(body: dict) -> Behaviour:
    """Memory work asks for JSON and fails; a reply is plain chat and succeeds."""
    return HTTP_500 if request_method(body) != "plain" else text(REPLY)


def test_memory_work_failing_in_the_worker_leaves_replies_on_the_model(
    openai_server: FakeOpenAIServer,
):
    openai_server.responder = _json_fails
    llm = LLMSettings(
        base_url=openai_server.base_url,
        model="test",
        max_attempts=1,
        structured_output="json_schema",
        use_cache=False,
        breaker_cooldown_s=600,
    )
    config = MemoryConfig(recipe=recipe("A(a_max_messages=4,a_keep_last=1)"), llm=llm)
    engine = MemoryEngine(None, config=config, clock=ManualClock(T0))
    try:
        for i, words in enumerate(
            ["I live in Oslo.", "Noted.", "I work as a nurse.", "Okay.", "Tea."]
        ):
            message = Message(
                id=f"m{i}",
                tenant="t1",
                session="s1",
                role="user" if i % 2 == 0 else "assistant",
                content=words,
                timestamp=T0 + timedelta(minutes=i),
            )
            engine.ingest("t1", [message])
        assert engine.flush(timeout=60)
        status = engine.brain.status()
        assert status.role("background").state == "failing over"
        assert engine.brain.usage()["breaker_opened"] == 1

        step = engine.chat("t1", "Where do I live?")

        assert step.reply == REPLY
        fallbacks = [e for e in step.events if e.kind == "brain_fallback"]
        assert not [e for e in fallbacks if e.detail.startswith("respond")]
        assert "plain" in [r.method for r in openai_server.requests]
        assert engine.brain.status().role("reply").state == "ready"
    finally:
        engine.close()
