"""A fact's one-line summary and its body; stored rows from before bodies existed."""

from __future__ import annotations

import sqlite3

from memory_lab.facts.summary import CUT, SUMMARY_TOKENS, fact_summary
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.tokens import default_counter
from memory_lab.types import Fact
from tests.helpers import T0, cand


def _fact(**kw) -> Fact:
    fields = {
        "id": "f1",
        "tenant": "t1",
        "subject": "user",
        "category": "preference",
        "key": "reply_language",
        "value": "Swedish",
        "confidence": 0.8,
        "importance": 0.5,
        "source": "extracted",
        "session": "s1",
        "turn_ids": ["m1"],
        "valid_from": T0,
        "last_confirmed_at": T0,
        "created_at": T0,
    } | kw
    return Fact(**fields)


def test_the_summary_is_the_facts_sentence_on_one_line():
    fact = _fact(value="Swedish,\n  then   English")
    assert fact_summary(fact) == "Replies should be in Swedish, then English"
    # The evidence says how the verb was said; the value is the row's.
    adopted = _fact(key="adopt.puppy", value="puppy", evidence="We adopted a puppy!")
    assert fact_summary(adopted) == "You adopted a puppy"
    said = adopted.model_copy(update={"evidence": "We're adopting a puppy"})
    assert fact_summary(said) == "You are adopting a puppy"


def test_a_long_value_is_cut_to_the_cap_and_marked():
    counter = default_counter()
    long = " ".join(f"item{i}" for i in range(200))
    summary = fact_summary(_fact(value=long))
    assert summary.startswith("Replies should be in item0 item1")
    assert summary.endswith(CUT)
    assert counter.count(summary) <= SUMMARY_TOKENS
    assert "\n" not in summary


def test_detail_is_the_body_else_the_evidence():
    assert _fact(evidence="I reply in Swedish").detail == "I reply in Swedish"
    fuller = _fact(evidence="Swedish", body="Swedish at work, English with family")
    assert fuller.detail == "Swedish at work, English with family"
    assert _fact().body == ""


def test_a_candidates_body_reaches_the_row(tmp_path):
    from memory_lab.clock import ManualClock
    from memory_lab.config import FactConfig
    from memory_lab.facts.memory import FactMemory
    from memory_lab.stores.memory import InMemoryEventLog

    store = SqlFactStore(tmp_path / "f.sqlite3")
    facts = FactMemory(store, InMemoryEventLog(), ManualClock(T0), FactConfig())
    c = cand("database", "Postgres", category="decision")
    event = facts.write("t1", c.model_copy(update={"body": "chosen for its JSON"}))
    assert store.get("t1", event.refs[0]).body == "chosen for its JSON"


def test_a_fact_file_from_before_bodies_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite3"
    store = SqlFactStore(path)
    store.insert("a", _fact(tenant="a", evidence="I reply in Swedish"))
    store.close()
    # As the code before bodies left it: no body, no record of migrations.
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE facts DROP COLUMN body")
    conn.execute("DROP TABLE schema_version")
    conn.commit()
    conn.close()
    reopened = SqlFactStore(path)
    old = reopened.get("a", "f1")
    assert old.body == "" and old.detail == "I reply in Swedish"
    reopened.insert("a", _fact(tenant="a", id="f2", body="the fuller text"))
    assert reopened.get("a", "f2").body == "the fuller text"


def test_the_save_tool_keeps_a_detail_as_the_body():
    from memory_lab import ManualClock, MemoryEngine
    from memory_lab.facts.tools import memory_tools

    engine = MemoryEngine(clock=ManualClock(T0))
    try:
        save = next(t for t in memory_tools(engine, "t1") if t.name == "memory_save")
        event = save.invoke(
            {
                "category": "decision",
                "key": "database",
                "value": "Postgres",
                "detail": "chosen over MySQL for its JSON support",
            }
        )
        row = engine.facts.store.get("t1", event["refs"][0])
        assert row.body == "chosen over MySQL for its JSON support"
        assert row.detail == row.body and fact_summary(row) == "Your database is Postgres"
    finally:
        engine.close()
