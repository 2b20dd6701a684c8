"""The LLM brain on a real model: llama.cpp's server on the packaged SmolLM2-135M.

A short replay of the built-in conversation through `MemoryEngine` with the LLM
brain. SmolLM2-135M is tiny: it writes valid JSON (llama.cpp constrains it with a
grammar) whose content is mostly invented, which is exactly what the defences
must survive. So nothing here checks that the model is right; the tests check
that its structured output was parsed, that what it invented was refused and
logged under the tenant, that every stored fact is grounded in the turn it cites,
and that nothing ingested was lost. One replay serves the module; the xdist group
keeps the module on one worker so the server is started once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

import pytest

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.config import LLMSettings, WindowConfig
from memory_lab.llm_client.local_server import LocalModelServer
from memory_lab.recipes import recipe
from memory_lab.text import content_words
from memory_lab.types import MemoryEvent, Message

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("llama_server")]

TURNS = 12


@dataclass
class Replay:
    engine: MemoryEngine
    tenant: str
    messages: list[Message]
    seconds: float

    def events(self, kind: str) -> list[MemoryEvent]:
        return [e for e in self.engine.events.events(self.tenant) if e.kind == kind]


def builtin_turns(n: int) -> tuple[str, list[Message]]:
    doc = json.loads(
        resources.files("memory_lab.data")
        .joinpath("builtin_conversation.json")
        .read_text()
    )
    tenant = doc["tenant"]
    return tenant, [
        Message.model_validate({"tenant": tenant, **m}) for m in doc["messages"][:n]
    ]


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> Iterator[Replay]:
    tenant, messages = builtin_turns(TURNS)
    with LocalModelServer(n_ctx=4096) as server:
        settings = LLMSettings(
            base_url=server.base_url,
            model=server.model or "",
            # Two shared cores make a small model slow; the budget is generous
            # so the test sees the model, not the fallback.
            timeout_s=1200,
            max_attempts=1,
            structured_output="auto",
            cache_path=str(tmp_path_factory.mktemp("llm") / "cache.sqlite"),
            extract_max_tokens=384,
        )
        config = MemoryConfig(
            # Recipe A, small enough that 12 turns compress twice.
            recipe=recipe("A").with_params(a_max_messages=8, a_keep_last=4),
            # One extraction call over all twelve turns.
            window=WindowConfig(extract_every=TURNS),
            llm=settings,
        )
        engine = MemoryEngine(
            None, config=config, clock=ManualClock(messages[0].timestamp)
        )
        started = time.monotonic()
        for message in messages:
            engine.ingest(tenant, [message])  # raises if any step fails
        engine.flush()  # the worker's summaries and extraction, done
        done = Replay(engine, tenant, messages, time.monotonic() - started)
        yield done
        # The figures a reader of `pytest -s` wants next to the verdicts.
        print(f"\nreplay of {TURNS} turns: {done.seconds:.1f} s wall")
        print(f"usage: {engine.brain.usage()}")
        for event in done.events("fact_rejected") + done.events("brain_fallback"):
            print(f"{event.kind}: {event.detail}")
        engine.close()


def test_the_endpoint_dialect_was_detected(replay):
    # llama.cpp answers `json_schema` with a 500 and honours json_object + schema.
    assert replay.engine.brain.summarizer.mode == "json_object_schema"


def test_the_model_was_called_and_counted(replay):
    usage = replay.engine.brain.usage()
    assert replay.engine.brain.name == "llm:SmolLM2-135M-Instruct.Q4_1"
    assert usage["calls"] > 0
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0


def test_structured_output_from_the_real_model_was_parsed(replay):
    usage = replay.engine.brain.usage()
    extract_fallbacks = [
        e for e in replay.events("brain_fallback") if e.detail.startswith("extract")
    ]
    assert extract_fallbacks == []
    assert usage["facts_proposed"] > 0
    summaries = [
        e for e in replay.events("brain_fallback") if e.detail.startswith("summarize")
    ]
    assert replay.engine.episodes.count(replay.tenant) >= 2
    assert len(summaries) < replay.engine.episodes.count(replay.tenant)


def test_invented_facts_are_refused_with_events(replay):
    usage = replay.engine.brain.usage()
    rejected = replay.events("fact_rejected")
    assert rejected and usage["facts_rejected"] == len(rejected)
    assert all(e.tenant == replay.tenant and e.refs for e in rejected)
    assert usage["facts_rejected"] <= usage["facts_proposed"]


def test_every_stored_fact_is_grounded_in_a_user_turn(replay):
    by_id = {m.id: m for m in replay.messages}
    for fact in replay.engine.facts.rows(replay.tenant):
        [turn_id] = fact.turn_ids
        turn = by_id[turn_id]
        assert turn.role == "user", fact
        assert content_words(fact.value) <= content_words(turn.content), fact


def test_nothing_ingested_was_lost(replay):
    tenant = replay.tenant
    ids = {m.id for m in replay.messages}
    assert {m.id for m in replay.engine.transcript.messages(tenant)} == ids
    covered = {m.id for m in replay.engine.window(tenant)}
    covered |= {t for ep in replay.engine.episodes.get(tenant) for t in ep.turn_ids}
    assert covered == ids
