"""`extractor="none"`: memory keeps turns alone, save for what the user commands.

The ablation that measures what facts add must read no fact from a plain
statement, with the offline brain or a model, yet "remember that ...", a
correction and "forget that ..." must still work: they are the user's word, not
extraction. It must also open without the parser, which it never uses.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import pytest

from memory_lab import Memory
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.clock import ManualClock
from memory_lab.config import LLMSettings, MemoryConfig
from memory_lab.engine import MemoryEngine, make_brain
from memory_lab.tokens import default_counter
from memory_lab.types import Message
from tests.integration.openai_server import FakeOpenAIServer

STATEMENTS = [
    {"role": "user", "content": "I live in Lisbon and work at Nordea."},
    {"role": "assistant", "content": "Lisbon and Nordea, noted."},
    {"role": "user", "content": "My sister Ana is a dentist in Porto."},
]
REMEMBER = {"role": "user", "content": "Remember that my locker code is 4411."}
FORGET = {"role": "user", "content": "Please forget that my locker code is 4411."}


def facts_after(extractor: str, *turns: list[dict]) -> list:
    """The active facts of one tenant after each batch of turns is worked through."""
    with Memory.open(":memory:", extractor=extractor) as memory:
        for batch in turns:
            memory.add("ada", batch)
            memory.flush()
        return memory.facts("ada")


def test_plain_statements_give_facts_with_rules_and_none_without():
    assert facts_after("rules", STATEMENTS), "the statements must hold facts to read"
    assert facts_after("none", STATEMENTS) == []


def test_a_remembered_statement_is_kept_in_the_users_words():
    facts = facts_after("none", STATEMENTS, [REMEMBER])
    assert [(f.source, f.value) for f in facts] == [
        ("explicit", "my locker code is 4411")
    ]
    assert facts[0].key.startswith("note.")


def test_a_forget_command_ends_the_remembered_fact():
    assert facts_after("none", [REMEMBER], [FORGET]) == []


def test_a_correction_replaces_the_remembered_value():
    fix = {"role": "user", "content": "That's wrong, it is 5522."}
    facts = facts_after("none", [REMEMBER], [fix])
    assert [(f.source, f.value) for f in facts] == [("explicit", "5522")]


def test_none_needs_no_parser(monkeypatch):
    monkeypatch.setitem(sys.modules, "spacy", None)  # `import spacy` now fails
    assert RuleBasedBrain(extractor="none").extract([]).value == []
    MemoryEngine(config=MemoryConfig(extractor="none")).close()


TURN = Message(
    id="D1:0",
    tenant="ada",
    role="user",
    content="I live in Lisbon and work at Nordea.",
    timestamp=datetime(2024, 3, 1, 9, 0, tzinfo=UTC),
    session="S1",
)


@pytest.mark.parametrize("extractor", ["rules", "none"])
def test_with_a_model_as_the_brain_none_sends_nothing_to_read(extractor):
    with FakeOpenAIServer() as server:
        llm = LLMSettings(
            base_url=server.base_url, model="m", use_cache=False, max_attempts=1
        )
        config = MemoryConfig(extractor=extractor, llm=llm)
        brain = make_brain(config, default_counter(), ManualClock(TURN.timestamp))
        found = brain.extract([TURN])
        asked = bool(server.requests)
    assert asked == (extractor != "none")
    if extractor == "none":
        assert found.value == [] and found.notes == ()
