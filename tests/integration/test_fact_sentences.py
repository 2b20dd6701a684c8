"""Through the public API: what a user says comes back as sentences a person writes.

The turns are stored and read by the offline brain on the memory's worker; the
context's facts block and the offline reply are then read as an outsider would.
"""

from __future__ import annotations

import re

import pytest

from memory_lab import Memory
from memory_lab.api_views import fact_summary

TURNS = [
    "I live in Oslo, in a flat near the harbour.",
    "I'm a physiotherapist at a sports clinic.",
    "We adopted a puppy last week.",
    "I'm allergic to penicillin.",
    "My brother Anders is a firefighter.",
    "Our food budget went up to 450.",
]


@pytest.fixture(scope="module")
def memory():
    with Memory.open(":memory:") as memory:
        memory.add("ada", [{"role": "user", "content": text} for text in TURNS])
        assert memory.flush(timeout=120)
        yield memory


def _fact_lines(text: str) -> list[str]:
    block = re.search(r'<memory type="facts">\n(.*?)\n</memory>', text, re.S)
    assert block, text
    return [line for line in block.group(1).splitlines() if line.startswith("- ")]


def test_the_facts_block_says_each_fact_as_a_sentence(memory):
    facts = memory.facts("ada")
    asked = [
        "Tell me about my life",
        "Did we adopt a puppy?",
        "What is the budget?",
        "What does Anders do?",
    ]
    lines = sorted(
        {
            line
            for question in asked
            for line in _fact_lines(memory.context("ada", question, budget=1500).text)
        }
    )
    assert len(lines) >= 5, lines
    for line in lines:
        assert " = " not in line and "_" not in line, line
        assert re.match(r"- [A-Z]", line), line
        assert re.search(r" \(since \d{4}-\d{2}-\d{2}\)$", line), line
        assert not re.search(r"\bYour (?:live|adopt|is)\b", line), line
    shown = " ".join(lines)
    for fact in facts:
        if fact.key.count(".") or "_" in fact.key:
            assert fact.key not in shown
    harbour = next(f for f in facts if "harbour" in f.value)
    assert f"- You live in a {harbour.value} (since" in shown
    assert "- You adopted a puppy (since" in shown
    # Whether a third party's fact wins a place depends on ranking; the
    # summary every fact list shows says it the same way.
    assert "Anders is a firefighter" in {fact_summary(f) for f in facts}
    assert "- Your food budget is 450 (since" in shown


def test_the_offline_reply_says_the_fact_as_a_sentence(memory):
    step = memory.chat("ada", "Where is my flat?")
    assert step.reply is not None
    assert "You live in a flat near the harbour" in step.reply
    assert "Your live in" not in step.reply and "live in flat" not in step.reply
