"""One slot under two spellings of its key is updated, not doubled."""

from __future__ import annotations

from datetime import timedelta

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from tests.helpers import T0, cand


def _memory() -> tuple[FactMemory, ManualClock]:
    clock = ManualClock(T0)
    return FactMemory(
        InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig()
    ), clock


def _values(facts: FactMemory) -> dict[str, str]:
    return {f.key: f.value for f in facts.active("t")}


def test_a_bare_head_updates_the_qualified_slot():
    facts, clock = _memory()
    facts.write("t", cand("accountant.external", "Maria Lind", turn="m1"))
    clock.advance(timedelta(days=3))
    facts.write("t", cand("accountant", "Johan Ek", turn="m2"))
    assert _values(facts) == {"accountant.external": "Johan Ek"}


def test_an_ambiguous_head_and_other_qualifiers_stay_apart():
    facts, clock = _memory()
    facts.write("t", cand("budget.food", "$300", turn="m1"))
    facts.write("t", cand("budget.rent", "$900", turn="m2"))
    clock.advance(timedelta(days=3))
    facts.write("t", cand("budget", "$500", turn="m3"))
    assert _values(facts) == {
        "budget.food": "$300",
        "budget.rent": "$900",
        "budget": "$500",
    }


def test_list_keys_and_other_people_never_join():
    facts, clock = _memory()
    facts.write("t", cand("likes.jazz", "jazz", turn="m1"))
    facts.write("t", cand("accountant", "Sara Holm", turn="m2", subject="melanie"))
    clock.advance(timedelta(days=3))
    facts.write("t", cand("likes", "hiking", turn="m3"))
    facts.write("t", cand("accountant.external", "Johan Ek", turn="m4"))
    rows = {(f.subject, f.key, f.value) for f in facts.active("t")}
    assert rows == {
        ("user", "likes.jazz", "jazz"),
        ("user", "likes", "hiking"),
        ("melanie", "accountant", "Sara Holm"),
        ("user", "accountant.external", "Johan Ek"),
    }
