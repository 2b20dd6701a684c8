"""A reply is not new memory: chat on real files, then read every tier.

The reply stays in the transcript verbatim, marked where it restates memory; the
running summary, episodes, day summaries, excerpts and facts are built without
what it restated, so a value corrected later does not come back through a copy.
What a reply adds is still summarised.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from memlab_cli.main import main
from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe
from memory_lab.brains.base import BrainResult
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.types import Message
from tests.helpers import T0

TENANT = "ana"
CONFIG = MemoryConfig(recipe=recipe("A(a_max_messages=4,a_keep_last=1)"))
TALK = [
    "I live in Porto.",
    "Where do I live?",
    "Actually I moved to Lisbon last week.",
    "Where do I live now?",
    "Which city is my home?",
]
CORRECTION = 2
"""Index in TALK of the message that corrects the city."""


def _chat(engine: MemoryEngine, clock: ManualClock, talk=TALK) -> list[str]:
    replies = []
    for text in talk:
        replies.append(engine.chat(TENANT, text).reply)
        engine.flush()
        clock.advance(timedelta(minutes=5))
    engine.close_session(TENANT)
    engine.flush()
    return replies


def _replies(engine: MemoryEngine) -> list[Message]:
    return [m for m in engine.transcript.messages(TENANT) if m.role == "assistant"]


@pytest.fixture(scope="module")
def chatted(tmp_path_factory) -> dict:
    """A chat with the offline responder on a data folder, closed at its end."""
    path = tmp_path_factory.mktemp("restated")
    clock = ManualClock(T0)
    engine = MemoryEngine(path, config=CONFIG, clock=clock)
    replies = _chat(engine, clock)
    # The next day: the chat's day is over and gets its summary.
    clock.advance(timedelta(days=1))
    engine.periods.update(TENANT, "main")
    state = {
        "replies": replies,
        "stored": _replies(engine),
        "turns": engine.transcript.messages(TENANT),
        "summary": engine.state(TENANT)["summary"],
        "episodes": engine.episodes.get(TENANT),
        "days": engine.periods.records(TENANT, "day"),
        "facts": engine.facts.rows(TENANT),
        "context": engine.assemble(TENANT, "Where is my home, Porto?"),
    }
    engine.close()
    state["path"] = path
    return state


def test_replies_are_stored_verbatim_and_marked_whole(chatted):
    stored = chatted["stored"]
    assert [m.content for m in stored] == chatted["replies"]
    assert all(m.restated == [(0, len(m.content))] for m in stored)
    # The scenario does copy memory: replies after the correction quote Porto.
    assert any("Porto" in r for r in chatted["replies"][CORRECTION:])


def test_the_marks_survive_a_restart(chatted):
    engine = MemoryEngine(chatted["path"], config=CONFIG, clock=ManualClock(T0))
    try:
        assert _replies(engine) == chatted["stored"]
    finally:
        engine.close()


def test_summary_and_episodes_hold_nothing_a_reply_restated(chatted):
    summary = chatted["summary"]
    assert "Lisbon" in summary and "assistant" not in summary
    assert summary.count("Porto") == 1  # the user's own turn, once
    correction = chatted["turns"][2 * CORRECTION].seq
    episodes = chatted["episodes"]
    assert {t for ep in episodes for t in ep.turn_ids} >= {
        m.id for m in chatted["stored"][:-1]
    }
    for ep in episodes:
        text = " ".join([ep.summary, *ep.key_facts, *ep.decisions, ep.intent])
        assert "offline responder" not in text and "From memory" not in text
        if ep.first_seq >= correction:
            assert "Porto" not in text, ep


def test_day_summaries_hold_nothing_a_reply_restated(chatted):
    [day] = chatted["days"]
    assert day.original_message_count == 2 * len(TALK)
    text = " ".join([day.summary, *day.key_facts])
    assert "Lisbon" in text and "offline responder" not in text


def test_facts_never_cite_a_reply_and_the_correction_holds(chatted):
    reply_ids = {m.id for m in chatted["stored"]}
    facts = chatted["facts"]
    assert facts and not any(reply_ids & set(f.turn_ids) for f in facts)
    active = {f.key: f.value for f in facts if f.status == "active"}
    assert active.get("home_city") == "Lisbon"
    assert all(f.status == "superseded" for f in facts if f.value == "Porto")


def test_excerpts_show_no_reply_that_only_restated(chatted):
    episodes = chatted["context"].block("episodes")
    assert episodes is not None and "Porto" in episodes.text
    assert "offline responder" not in episodes.text


class AddingBrain(RuleBasedBrain):
    """Answers as a model might: a remembered line, then an idea of its own.

    It marks nothing, so the respond node's own rule must find the quote; it
    records what extraction is given.
    """

    REPLY = "You told me you live in Porto. I suggest the Serralves museum on Saturday."

    def __init__(self) -> None:
        super().__init__()
        self.extracted: list[str] = []

    def respond(self, question, context):
        return BrainResult(self.REPLY)

    def extract(self, messages, *, known=()):
        self.extracted += [m.content for m in messages]
        return super().extract(messages, known=known)


def test_what_a_reply_adds_is_summarised_and_what_it_restated_is_not():
    brain = AddingBrain()
    clock = ManualClock(T0)
    talk = ["I live in Porto.", "Any plans for me?", "Something else?", "And now?"]
    with MemoryEngine(None, config=CONFIG, clock=clock, brain=brain) as engine:
        _chat(engine, clock, talk)
        stored = _replies(engine)
        summary = engine.state(TENANT)["summary"]
        episodes = engine.episodes.get(TENANT)
    quote = "You told me you live in Porto."
    assert all(m.content == AddingBrain.REPLY for m in stored)
    assert stored[0].restated == [(0, len(quote))]
    # Said again, the idea is in the window already: a repeat adds nothing.
    assert all(m.restated == [(0, len(m.content))] for m in stored[1:])
    assert "Serralves" in summary and "told me" not in summary
    assert any("Serralves" in ep.summary for ep in episodes)
    assert brain.extracted.count("I suggest the Serralves museum on Saturday.") == 1
    assert not any(quote in text for text in brain.extracted)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_export_and_import_keep_the_marks(chatted, tmp_path, monkeypatch):
    for name in ("MEMORY_LAB_STORE", "MEMORY_LAB_EPISODES_STORE", "MEMORY_LAB_DATA"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "ana.jsonl"
    assert main(["export", "--data", str(chatted["path"]), "--tenant", TENANT,
                 "--out", str(out)]) == 0  # fmt: skip
    lines = _lines(out)
    marks = [r["data"]["restated"] for r in lines if r.get("kind") == "message"]
    assert [m for m in marks if m] == [[[0, len(r)]] for r in chatted["replies"]]
    target = tmp_path / "copy"
    assert main(["import", "--data", str(target), str(out)]) == 0
    engine = MemoryEngine(target, config=CONFIG, clock=ManualClock(T0))
    try:
        assert engine.transcript.messages(TENANT) == chatted["turns"]
    finally:
        engine.close()


def test_a_file_from_before_the_marks_imports_with_none(chatted, tmp_path, monkeypatch):
    for name in ("MEMORY_LAB_STORE", "MEMORY_LAB_EPISODES_STORE", "MEMORY_LAB_DATA"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "ana.jsonl"
    assert main(["export", "--data", str(chatted["path"]), "--tenant", TENANT,
                 "--out", str(out)]) == 0  # fmt: skip
    lines = _lines(out)
    for record in lines:
        if record.get("kind") == "message":
            del record["data"]["restated"]
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    target = tmp_path / "old"
    assert main(["import", "--data", str(target), str(out)]) == 0
    engine = MemoryEngine(target, config=CONFIG, clock=ManualClock(T0))
    try:
        turns = engine.transcript.messages(TENANT)
    finally:
        engine.close()
    assert [m.content for m in turns] == [m.content for m in chatted["turns"]]
    assert all(m.restated == [] for m in turns)
