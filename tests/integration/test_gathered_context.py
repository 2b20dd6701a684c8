"""Gathered lines through `Memory`: the real parse extractor, dated sessions, context.

One person's pastimes are said in three sessions a month apart; a question that
names them gets one line listing them in time order, each with its date.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from memory_lab import Memory
from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig, GatherConfig, MemoryConfig
from memory_lab.context.gathered import gathered_for
from memory_lab.embeddings import default_embedder
from memory_lab.facts.memory import FactMemory
from memory_lab.facts.reconciliation import new_fact
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.tokens import default_counter
from memory_lab.types import FactCandidate

START = datetime(2025, 4, 6, 18, tzinfo=UTC)
SESSIONS = [
    (0, "I took up rock climbing at the indoor gym last weekend."),
    (34, "We went kayaking on Lake Vattern yesterday, my arms are sore."),
    (70, "I signed up for a sailing course in Gothenburg."),
]
LINE = re.compile(r"^- Tomas, over time: (.*)$", re.M)
QUESTION = "Which outdoor sports has Tomas done this year?"


def _memory(config: MemoryConfig | None = None) -> Memory:
    memory = Memory.open(":memory:", config=config)
    for day, text in SESSIONS:
        at = START + timedelta(days=day)
        memory.add(
            "t",
            [
                {
                    "role": "user",
                    "content": text,
                    "speaker": "Tomas",
                    "session": f"s{day}",
                    "timestamp": at.isoformat(),
                },
                {
                    "role": "assistant",
                    "content": "That sounds like a good way to spend the time.",
                    "speaker": "Wren",
                    "session": f"s{day}",
                    "timestamp": (at + timedelta(minutes=1)).isoformat(),
                },
            ],
        )
        memory.flush()
    return memory


def test_a_persons_pastimes_over_three_sessions_are_one_dated_line() -> None:
    with _memory() as memory:
        text = memory.context("t", QUESTION, budget=1500).text
    (line,) = LINE.findall(text)
    assert "rock climbing (6 Apr 2025)" in line
    assert "kayak" in line and "Lake Vattern (9 May 2025)" in line  # "yesterday"
    assert "sailing course (15 Jun 2025)" in line
    assert line.index("climbing") < line.index("Vattern") < line.index("sailing")


def test_a_question_naming_no_stored_subject_gets_no_line() -> None:
    with _memory() as memory:
        text = memory.context("t", QUESTION.replace("Tomas", "Priya"), budget=600).text
    assert "over time" not in text


def test_the_line_respects_its_token_cap() -> None:
    # 2% of 1,500 tokens: room for two of the three dated values.
    config = MemoryConfig(facts=FactConfig(gather=GatherConfig(max_line_share=0.02)))
    counter = default_counter()
    with _memory(config) as memory:
        text = memory.context("t", QUESTION, budget=1500).text
    (line,) = LINE.findall(text)
    assert counter.count(line) <= 30
    assert line.count("2025)") == 2  # two of the three fit


def test_gathering_can_be_switched_off() -> None:
    config = MemoryConfig(facts=FactConfig(gather=GatherConfig(enabled=False)))
    with _memory(config) as memory:
        text = memory.context("t", QUESTION, budget=600).text
    assert "over time" not in text


class _Counting:
    """An embedder that counts the texts it is asked for."""

    def __init__(self) -> None:
        self.inner = default_embedder()
        self.texts = 0

    def embed(self, texts):
        self.texts += len(texts)
        return self.inner.embed(texts)


@pytest.mark.slow
def test_on_a_tenant_of_ten_thousand_facts_a_line_embeds_a_bounded_pool() -> None:
    """The cost on a large tenant: the named subject's rows are read once per
    change of the tenant's facts, and at most `max_pool` of them are embedded.

    Measured through `Memory.context` on this 2-core machine, loaded: 2.6 s for
    the first question (embedding 200 fact texts no write had embedded), then
    20-40 ms more per context than with gathering switched off.
    """
    clock = ManualClock(START)
    store = InMemoryFactStore()
    facts = FactMemory(store, InMemoryEventLog(), clock, FactConfig())
    places = ["harbour", "museum", "bakery", "trail", "lake", "market", "studio"]
    for i in range(10_000):
        clock.advance(timedelta(hours=3))
        said = FactCandidate(
            category="knowledge",
            key=f"visited.place_{i}",
            value=f"the {places[i % len(places)]} number {i}",
            subject="ines" if i % 2 else "user",
            turn_ids=[f"m{i}"],
        )
        store.insert("t", new_fact("t", said, clock.now(), facts.config))
    embedder = _Counting()
    config = MemoryConfig()
    question = "Which lakes has Ines visited?"
    about = facts.about("t", question, limit=300)
    lines = gathered_for(
        facts, embedder, default_counter(), config, "t", question, about,
        now=clock.now(),
    )  # fmt: skip
    assert len(lines) == 1 and "lake" in lines[0].value
    assert embedder.texts <= config.facts.gather.max_pool + 1
    assert all(t.startswith("m") for t in lines[0].turn_ids)
