"""A purge of a fact takes its links with it, and keeps the links of other facts."""

from __future__ import annotations

from memory_lab.clock import ManualClock
from memory_lab.engine import MemoryEngine
from memory_lab.owner.purge import purge
from memory_lab.owner.selection import Selection
from tests.helpers import T0


def test_purging_a_fact_deletes_the_links_that_name_it(tmp_path):
    data = tmp_path / "data"
    engine = MemoryEngine(data, clock=ManualClock(T0))
    for text in (
        "Remember that my favourite drink is tea.",
        "Remember that my home city is Oslo.",
        "Remember that my job is nurse.",
    ):
        engine.chat("alice", text)
    engine.flush()
    ids = {f.value: f.id for f in engine.facts.active("alice")}
    tea, oslo, nurse = ids["tea"], ids["Oslo"], ids["nurse"]
    engine.facts.link("alice", "relates_to", tea, oslo)
    engine.facts.link("alice", "caused_by", oslo, nurse)
    engine.close()

    purge(data, "alice", Selection(fact=tea), requested_by="test")

    engine = MemoryEngine(data, clock=ManualClock(T0))
    try:
        left = engine.facts.link_store.links("alice")
        assert [(k.source, k.target) for k in left] == [(oslo, nurse)]
    finally:
        engine.close()
