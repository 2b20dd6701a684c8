"""Links between facts: checked, tenant-scoped, logged, end-dated, read both ways."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.events import EVENT_KINDS
from memory_lab.facts.links import LinkError
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import (
    InMemoryEventLog,
    InMemoryFactLinkStore,
    InMemoryFactStore,
)
from memory_lab.stores.sql_events import SqlEventLog
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.sqlite_db import MEMORY, SqliteDatabase
from tests.helpers import T0, cand


def _memory(kind: str) -> FactMemory:
    clock = ManualClock(T0)
    if kind == "memory":
        return FactMemory(
            InMemoryFactStore(),
            InMemoryEventLog(),
            clock,
            FactConfig(),
            links=InMemoryFactLinkStore(),
        )
    db = SqliteDatabase(MEMORY)
    return FactMemory(
        SqlFactStore(db),
        SqlEventLog(db),
        clock,
        FactConfig(),
        links=SqlFactLinkStore(db),
    )


@pytest.fixture(params=["memory", "sqlite"])
def facts(request) -> FactMemory:
    return _memory(request.param)


def _two(facts: FactMemory, tenant: str = "t1") -> tuple[str, str]:
    a = facts.write(tenant, cand("database", "Postgres", category="decision"))
    b = facts.write(tenant, cand("team_skill", "SQL", turn="m2"))
    return a.refs[0], b.refs[0]


def test_a_link_is_logged_and_read_from_both_ends(facts):
    a, b = _two(facts)
    event = facts.link("t1", "caused_by", a, b)
    assert event.kind == "fact_linked" and event.kind in EVENT_KINDS
    assert event in facts.events.events("t1")
    (from_a,) = facts.links("t1", a)
    (from_b,) = facts.links("t1", b)
    assert from_a == from_b
    assert (from_a.type, from_a.source, from_a.target) == ("caused_by", a, b)
    assert from_a.id == event.refs[0] and from_a.created_at == T0


def test_relates_to_reads_the_same_whichever_end_asked(facts):
    a, b = _two(facts)
    first = facts.link("t1", "relates_to", a, b)
    again = facts.link("t1", "relates_to", b, a)
    assert again.detail.startswith("Already linked") and again.refs == first.refs
    assert len(facts.links("t1", a)) == 1
    assert [e.kind for e in facts.events.events("t1")].count("fact_linked") == 1


@pytest.mark.parametrize(
    ("link_type", "said"),
    [
        ("causes", "unknown link type 'causes'"),
        ("supersedes", "made by corrections"),
    ],
)
def test_a_type_that_cannot_be_asked_for_is_named(facts, link_type, said):
    a, b = _two(facts)
    with pytest.raises(LinkError, match=said):
        facts.link("t1", link_type, a, b)
    assert facts.links("t1", a) == []


def test_no_self_links_and_no_links_to_missing_facts(facts):
    a, _ = _two(facts)
    with pytest.raises(LinkError, match="itself"):
        facts.link("t1", "relates_to", a, a)
    with pytest.raises(LinkError, match="no fact 'nope'"):
        facts.link("t1", "relates_to", a, "nope")
    assert [e.kind for e in facts.events.events("t1")].count("fact_linked") == 0


def test_another_tenants_fact_is_missing_and_nothing_is_written(facts):
    a, _ = _two(facts, "t1")
    theirs, _ = _two(facts, "t2")
    with pytest.raises(LinkError, match=f"no fact '{theirs}' for tenant 't1'"):
        facts.link("t1", "relates_to", a, theirs)
    with pytest.raises(LinkError, match="for tenant 't2'"):
        facts.link("t2", "relates_to", theirs, a)
    assert facts.links("t1", a) == [] and facts.links("t2", theirs) == []
    # Even a link id known to one tenant cannot be ended by another.
    made = facts.link("t1", "relates_to", a, _two(facts, "t1")[1])
    with pytest.raises(LinkError, match="no link"):
        facts.unlink("t2", made.refs[0])
    assert facts.links("t1", a)[0].ended_at is None


def test_unlink_end_dates_and_keeps_the_row(facts):
    a, b = _two(facts)
    link_id = facts.link("t1", "caused_by", a, b).refs[0]
    facts.clock.advance(timedelta(hours=2))
    ended = facts.unlink("t1", link_id)
    assert ended.kind == "fact_unlinked" and ended in facts.events.events("t1")
    assert facts.links("t1", a) == []
    (kept,) = facts.links("t1", a, include_ended=True)
    assert kept.id == link_id and kept.ended_at == T0 + timedelta(hours=2)
    with pytest.raises(LinkError, match="already ended"):
        facts.unlink("t1", link_id)
    # Asked for again, it is a new link: the ended one stays as it was.
    facts.clock.advance(timedelta(hours=1))
    renewed = facts.link("t1", "caused_by", a, b)
    assert renewed.refs[0] != link_id
    assert len(facts.links("t1", a, include_ended=True)) == 2


def test_supersession_reads_as_a_link_without_a_row_of_its_own(facts):
    old = facts.write("t1", cand("home_city", "Paris", category="identity")).refs[0]
    facts.clock.advance(timedelta(days=1))
    new = facts.write("t1", cand("home_city", "Oslo", category="identity", turn="m2"))
    new_id = new.refs[0]
    (link,) = facts.links("t1", old)
    assert (link.type, link.source, link.target) == ("supersedes", new_id, old)
    assert facts.links("t1", new_id) == [link]
    assert facts.link_store.links("t1") == []
    with pytest.raises(LinkError, match="restoring"):
        facts.unlink("t1", link.id)


def test_the_memory_tools_link_read_and_unlink_for_their_tenant_only():
    from memory_lab import MemoryEngine
    from memory_lab.facts.tools import memory_tools

    engine = MemoryEngine(clock=ManualClock(T0))
    try:
        mine = {t.name: t for t in memory_tools(engine, "t1")}
        theirs = {t.name: t for t in memory_tools(engine, "t2")}
        a = mine["memory_save"].invoke(
            {"category": "decision", "key": "database", "value": "Postgres"}
        )["refs"][0]
        b = mine["memory_save"].invoke(
            {"category": "knowledge", "key": "team_skill", "value": "SQL"}
        )["refs"][0]
        made = mine["memory_link"].invoke(
            {"source_id": a, "target_id": b, "link_type": "caused_by"}
        )
        assert made["kind"] == "fact_linked"
        assert mine["memory_links"].invoke({"fact_id": b}) == [
            {"id": made["refs"][0], "type": "caused_by", "source": a, "target": b}
        ]
        assert theirs["memory_links"].invoke({"fact_id": b}) == []
        with pytest.raises(LinkError, match="no link"):
            theirs["memory_unlink"].invoke({"link_id": made["refs"][0]})
        ended = mine["memory_unlink"].invoke({"link_id": made["refs"][0]})
        assert ended["kind"] == "fact_unlinked"
        assert mine["memory_links"].invoke({"fact_id": b}) == []
        with pytest.raises(LinkError, match="unknown link type 'blames'"):
            mine["memory_link"].invoke(
                {"source_id": a, "target_id": b, "link_type": "blames"}
            )
    finally:
        engine.close()
