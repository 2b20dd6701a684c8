from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from memory_lab.brains.base import USAGE_FIELDS, Brain
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.config import FactConfig
from memory_lab.tokens import default_counter
from memory_lab.types import ContextBlock, ContextBundle, Message

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def message(text: str, i: int = 0, role: str = "user") -> Message:
    return Message(
        id=f"S1:{i}",
        tenant="t",
        session="S1",
        role=role,
        content=text,
        timestamp=T0 + timedelta(minutes=i),
    )


def bundle(facts: str = "", episodes: str = "") -> ContextBundle:
    blocks = []
    if facts:
        blocks.append(ContextBlock(kind="facts", text=facts, tokens=10, budget=100))
    if episodes:
        blocks.append(
            ContextBlock(kind="episodes", text=episodes, tokens=10, budget=100)
        )
    return ContextBundle(blocks=blocks, total_tokens=20, budget=200)


@pytest.fixture(scope="module")
def brain() -> RuleBasedBrain:
    return RuleBasedBrain()


SPAN = [
    message("Hi! My name is Alex and I live in Uppsala.", 0),
    message("Nice to meet you, Alex. How can I help?", 1, "assistant"),
    message("We decided to go with K2. Remind me to file the VAT return.", 2),
]


def test_is_a_brain_named_rule(brain):
    typed: Brain = brain
    assert typed.name == RuleBasedBrain.name == "rule"


def test_never_reports_notes_or_usage(brain):
    results = [
        brain.summarize(SPAN, max_tokens=50),
        brain.extract(SPAN),
        brain.condense("A long summary. " * 80, max_tokens=20),
        brain.respond(message("Hi?"), bundle()),
    ]
    assert all(r.notes == () for r in results)
    usage = brain.usage()
    assert set(USAGE_FIELDS) <= set(usage) and not any(usage.values())


def test_summarize_fits_and_keeps_content(brain):
    draft = brain.summarize(SPAN, max_tokens=40).value
    assert default_counter().count(draft.summary) <= 40
    assert "K2" in draft.summary
    assert draft.decisions == ["user: We decided to go with K2."]


def test_condense_fits(brain):
    text = "\n".join(
        f"user: Invoice {i} of 1{i}00 kr is still unpaid." for i in range(30)
    )
    out = brain.condense(text, max_tokens=30).value
    assert 0 < default_counter().count(out) <= 30


def test_extract_reads_user_turns_only(brain):
    cands = brain.extract(SPAN).value
    assert {(c.key, c.value) for c in cands} == {
        ("name", "Alex"),
        ("home_city", "Uppsala"),
        ("accounting_standard", "K2"),
        ("reminder.file_vat_return", "file the VAT return"),
    }
    assert all(c.subject == "user" for c in cands)


def test_extract_respects_the_category_vocabulary():
    config = FactConfig()
    only_identity = FactConfig(categories={"identity": config.policy("identity")})
    cands = RuleBasedBrain(categories=only_identity).extract(SPAN).value
    assert cands and {c.category for c in cands} == {"identity"}


def test_uses_the_injected_counter():
    class WordCounter:
        def count(self, text: str) -> int:
            return len(text.split())

    draft = RuleBasedBrain(counter=WordCounter()).summarize(SPAN, max_tokens=8).value
    assert 0 < len(draft.summary.split()) <= 8


def test_respond_quotes_the_fact_that_answers_with_its_date(brain):
    context = bundle(
        facts='<memory type="facts">\n'
        "- [identity] name = Alex (since 2024-05-01)\n"
        "- [identity] home city = Uppsala (since 2024-05-01)\n</memory>",
        episodes='<memory type="episodes">\n'
        "- [1 May 2024; turns S1:0..S1:2] user decided to go with K2.\n</memory>",
    )
    reply = brain.respond(message("Which city is my home?", 5), context).value
    assert reply.startswith("[offline responder: no language model is configured]")
    assert "From memory: Your home city is Uppsala (since 2024-05-01)." in reply
    assert "K2" not in reply  # shares no word and no meaning with the question


def test_respond_reads_facts_under_category_headers(brain):
    context = bundle(
        facts='<memory type="facts">\nPreferences:\n'
        "- reply language = Swedish (since 2024-05-01)\nKnowledge:\n"
        "- home city = Uppsala (since 2024-05-01)\n</memory>",
    )
    reply = brain.respond(message("Which city is my home?", 5), context).value
    assert "From memory: Your home city is Uppsala (since 2024-05-01)." in reply
    assert "Knowledge" not in reply and "Preferences" not in reply


def test_a_turn_holding_an_equals_sign_is_not_read_as_a_fact(brain):
    window = ContextBlock(
        kind="window",
        text="user (1 May 2024): my home city = Uppsala, remember",
        tokens=10,
        budget=100,
    )
    context = ContextBundle(blocks=[window], total_tokens=10, budget=200)
    reply = brain.respond(message("Which city is my home?", 3), context).value
    assert "You said on 1 May 2024" in reply and "Your home city is" not in reply


def test_an_earlier_question_is_not_the_answer_to_the_same_question(brain):
    window = ContextBlock(
        kind="window",
        text="user (2 May 2024): Quick one: which paint brand are we using "
        "for the hallway? [this week = 2024-W18]\n"
        "user (3 May 2024): The hallway gets Farrow paint, we agreed.",
        tokens=10,
        budget=100,
    )
    context = ContextBundle(blocks=[window], total_tokens=10, budget=200)
    reply = brain.respond(
        message("Which paint brand are we using for the hallway?", 4), context
    ).value
    answer = reply.split("Also in memory:")[0]
    assert "Farrow" in answer, reply
    assert "Quick one" in reply.split("Also in memory:")[1]


def test_respond_with_empty_memory_says_it_holds_nothing(brain):
    reply = brain.respond(message("Hello?"), bundle()).value
    assert reply.endswith("Memory holds nothing that answers your message.")


def test_respond_never_quotes_the_assistant(brain):
    window = ContextBlock(
        kind="window",
        text="user (1 May 2024): We chose the blue tiles.\n"
        "assistant (1 May 2024): The tiles you chose are green.",
        tokens=10,
        budget=100,
    )
    context = ContextBundle(blocks=[window], total_tokens=10, budget=200)
    reply = brain.respond(message("Which tiles did we choose?", 3), context).value
    assert "blue tiles" in reply and "green" not in reply


def test_respond_stays_short_with_a_lot_of_memory(brain):
    facts = "\n".join(
        f"- [knowledge] supplier {i} = " + "word " * 30 + "(since 2024-05-01)"
        for i in range(40)
    )
    episodes = "\n".join(
        f"- [1 May 2024; turns S1:{i}..S1:{i + 1}] the supplier said "
        + "long summary text " * 20
        for i in range(20)
    )
    reply = brain.respond(
        message("What did each supplier say?"), bundle(facts, episodes)
    ).value
    assert reply.count("; ") <= 2  # the answer and at most three related lines
    assert len(reply.split()) < 160


def test_respond_is_deterministic(brain):
    context = bundle(facts="- diet: vegan", episodes="- user moved to Oslo.")
    question = message("Where do I live?")
    assert brain.respond(question, context) == brain.respond(question, context)


_PROBE = """
import json, sys
from datetime import UTC, datetime
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.types import Message
texts = json.loads(sys.argv[1])
at = datetime(2024, 1, 1, tzinfo=UTC)
msgs = [Message(id=f"S:{i}", tenant="t", session="S", role=r, content=c, timestamp=at)
        for i, (r, c) in enumerate(texts)]
brain = RuleBasedBrain()
out = {
    "draft": brain.summarize(msgs, max_tokens=60).value.model_dump(),
    "facts": [c.model_dump() for c in brain.extract(msgs).value],
    "condensed": brain.condense("\\n".join(c for _, c in texts), max_tokens=25).value,
}
print(json.dumps(out, sort_keys=True))
"""


@pytest.mark.slow
def test_output_is_identical_across_processes_and_hash_seeds():
    # Set iteration order changes with the hash seed; output must not.
    texts = [
        ["user", "Hey! I'm allergic to peanuts, shellfish and cats. I love hiking."],
        ["assistant", "Noted. Do you want vegan recipes for Stockholm restaurants?"],
        [
            "user",
            "We chose K2 over K3. Actually I switched to K3. I still need to pay.",
        ],
        ["user", "My sister Emma lives in Oslo; our fiscal year runs January to June."],
    ]
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", _PROBE, json.dumps(texts)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=120,
        )
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["facts"]


def test_respond_keeps_multi_line_episodes_together(brain):
    episodes = (
        '<memory type="episodes">\n'
        "- [1 May 2024; turns S1:0..S1:4] user: We chose K2 &amp; Fortnox for the\n"
        "books. assistant: Noted.\n"
        "- [2 May 2024; turns S2:0..S2:1] user: I moved to Oslo.\n"
        "</memory>"
    )
    reply = brain.respond(
        message("Which books software did we choose?"), bundle(episodes=episodes)
    ).value
    assert (
        "From memory: From 1 May 2024: user: We chose K2 & Fortnox for the books. "
        "assistant: Noted." in reply
    )
    assert "Oslo" not in reply
