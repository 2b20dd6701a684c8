"""Agentic memory on a real model: SmolLM2-135M behind `llm serve --tools`.

The model is far too small to use the tools well (see the README's "Agentic
memory"); what is checked is what must hold whatever it does: with the
function-calling chat format its requests come back as tool calls, every call is
recorded as an event under the tenant, the tool messages it was answered with
are strings the server accepted, and the turn still ends with a reply.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.config import LLMSettings
from memory_lab.llm_client.local_server import TOOL_CALLING_ARGS, LocalModelServer

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("llama_server")]


@pytest.fixture(scope="module")
def tool_server() -> Iterator[LocalModelServer]:
    with LocalModelServer(n_ctx=4096, extra_args=TOOL_CALLING_ARGS) as running:
        yield running


def test_a_turn_with_tools_on_smollm2_answers_and_records_its_calls(
    tool_server, tmp_path
):
    llm = LLMSettings(
        base_url=tool_server.base_url,
        model=tool_server.model or "",
        agentic_memory=True,
        tool_rounds=2,
        use_cache=False,
        timeout_s=300,
        max_attempts=1,
    )
    engine = MemoryEngine(
        tmp_path / "data",
        config=MemoryConfig(llm=llm),
        clock=ManualClock(datetime(2025, 3, 3, 9, tzinfo=UTC)),
    )
    try:
        step = engine.chat("t1", "Please remember that my favourite colour is green.")
        calls = [e for e in step.events if e.kind in ("tool_called", "tool_failed")]
        usage = engine.brain.usage()
    finally:
        engine.close()
    assert step.reply
    assert calls, "with the function-calling format SmolLM2 calls tools"
    assert usage["tool_calls"] == len(calls)
    # A rejected request would have sent the reply to the fallback.
    assert not [e for e in step.events if e.kind == "brain_fallback"]
