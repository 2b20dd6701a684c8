"""The six memory tools, called as a model would call them."""

from datetime import timedelta

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.facts.tools import memory_tools
from tests.helpers import T0, msg

TENANT = "t1"


@pytest.fixture
def setup():
    clock = ManualClock(T0)
    engine = MemoryEngine(clock=clock)
    tools = {t.name: t for t in memory_tools(engine, TENANT)}
    return engine, clock, tools


def test_save_stores_an_explicit_fact_with_an_undoable_event(setup):
    engine, _, tools = setup
    event = tools["memory_save"].invoke(
        {"category": "preference", "key": "reply_language", "value": "Swedish"}
    )
    assert event["kind"] == "fact_added" and event["undo"]["op"] == "revert"
    (row,) = engine.facts.active(TENANT)
    assert (row.value, row.source, row.confidence) == ("Swedish", "explicit", 1.0)


def test_update_replaces_and_forget_end_dates(setup):
    engine, _, tools = setup
    tools["memory_save"].invoke(
        {"category": "identity", "key": "home_city", "value": "Oslo"}
    )
    event = tools["memory_update"].invoke(
        {"category": "identity", "key": "home_city", "value": "Bergen"}
    )
    assert event["kind"] == "fact_superseded"
    (row,) = engine.facts.active(TENANT)
    gone = tools["memory_forget"].invoke({"fact_id": row.id})
    assert gone["kind"] == "fact_forgotten"
    assert engine.facts.active(TENANT) == []
    assert len(engine.facts.rows(TENANT)) == 2  # nothing deleted


def test_confirm_and_list(setup):
    engine, clock, tools = setup
    engine.ingest(TENANT, [msg(1, "I work at Acme.")])
    engine.close_session(TENANT)
    engine.flush()
    (row,) = tools["memory_list"].invoke({})
    clock.advance(timedelta(days=30))
    event = tools["memory_confirm"].invoke({"fact_id": row["id"]})
    assert event["kind"] == "fact_confirmed"
    assert tools["memory_list"].invoke({"category": "decision"}) == []


def test_a_fact_below_the_floor_is_never_injected_but_can_be_recalled(setup):
    engine, clock, tools = setup
    engine.ingest(TENANT, [msg(1, "I think I might be allergic to shellfish.")])
    engine.close_session(TENANT)
    engine.flush()
    engine.ingest(TENANT, [msg(2, "We have 3 employees.")])
    engine.close_session(TENANT)
    engine.flush()
    # Knowledge fades with a 120-day half-life: 170 days on (before its 182-day
    # TTL) it is below the floor.
    clock.advance(timedelta(days=170))
    faint = [
        f
        for f in engine.facts.active(TENANT)
        if engine.facts.confidence(f) < engine.config.facts.confidence_floor
    ]
    assert faint, [
        (f.key, engine.facts.confidence(f)) for f in engine.facts.rows(TENANT)
    ]
    fact = faint[0]
    bundle = engine.assemble(TENANT, f"how many {fact.value}?")
    block = bundle.block("facts")
    assert block is None or fact.id not in block.items
    recalled = tools["memory_recall"].invoke({"query": f"how many {fact.value}?"})
    assert "below the confidence floor" in recalled and fact.id in recalled
