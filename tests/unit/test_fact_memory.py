"""FactMemory: reconciled writes with events, undo, forget, consolidation, reads."""

from __future__ import annotations

from datetime import timedelta

from memory_lab.brains.base import BrainResult
from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.context.assembly import rank_facts
from memory_lab.events import EVENT_KINDS
from memory_lab.facts.consolidation import grounded_summariser
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.tokens import default_counter
from tests.helpers import T0, cand


def memory(**config) -> tuple[FactMemory, ManualClock]:
    clock = ManualClock(T0)
    facts = FactMemory(
        InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig(**config)
    )
    return facts, clock


def test_add_confirm_supersede_each_log_an_event_with_undo_where_it_applies():
    facts, clock = memory()
    added = facts.write("t1", cand("home_city", "Paris", category="identity"))
    clock.advance(timedelta(hours=1))
    confirmed = facts.write(
        "t1", cand("home_city", "paris", category="identity", turn="m2")
    )
    clock.advance(timedelta(hours=1))
    moved = facts.write(
        "t1", cand("home_city", "Berlin", category="identity", turn="m3")
    )
    assert [added.kind, confirmed.kind, moved.kind] == [
        "fact_added",
        "fact_confirmed",
        "fact_superseded",
    ]
    assert added.undo and moved.undo and confirmed.undo is None
    assert {e.kind for e in facts.events.events("t1")} <= set(EVENT_KINDS)
    assert [f.value for f in facts.active("t1")] == ["Berlin"]
    chain = facts.history("t1", "identity", "home_city")
    assert [f.status for f in chain] == ["superseded", "active"]


def test_undo_restores_the_previous_value_and_forget_end_dates():
    facts, clock = memory()
    facts.write("t1", cand("diet", "vegan", category="constraint"))
    clock.advance(timedelta(hours=1))
    changed = facts.write("t1", cand("diet", "vegetarian", category="constraint"))
    clock.advance(timedelta(hours=1))
    assert facts.undo("t1", changed).kind == "undone"
    (current,) = facts.active("t1")
    assert current.value == "vegan"
    clock.advance(timedelta(hours=1))
    forgot = facts.forget("t1", current.id)
    assert forgot.kind == "fact_forgotten" and facts.active("t1") == []
    assert len(facts.rows("t1")) == 2  # nothing deleted


def test_a_much_weaker_extracted_value_is_flagged_not_stored():
    facts, clock = memory(supersede_margin=0.1)
    facts.write("t1", cand("editor", "vim", confidence=0.9))
    clock.advance(timedelta(hours=1))
    event = facts.write("t1", cand("editor", "emacs", confidence=0.7, turn="m2"))
    assert event.kind == "contradiction"
    assert [f.value for f in facts.active("t1")] == ["vim"]


def test_consolidation_folds_groups_of_three_past_the_limit():
    facts, clock = memory(consolidate_above=3)
    for i, hobby in enumerate(["hiking", "jazz", "chess", "rowing"]):
        clock.advance(timedelta(minutes=1))
        facts.write(
            "t1", cand(f"likes.{hobby}", hobby, category="preference", turn=f"m{i}")
        )
    events = facts.consolidate("t1")
    assert [e.kind for e in events] == ["facts_consolidated"]
    (folded,) = facts.active("t1")
    assert folded.key == "likes.all"
    assert folded.value == "hiking; jazz; chess; rowing"


def test_consolidation_runs_when_the_month_turns_below_the_limit():
    facts, clock = memory(consolidate_above=50)
    for i, hobby in enumerate(["hiking", "jazz", "chess"]):
        clock.advance(timedelta(minutes=1))
        facts.write(
            "t1", cand(f"likes.{hobby}", hobby, category="preference", turn=f"m{i}")
        )
    # The same month as the newest fact is no turn.
    assert not facts.month_turned("t1", clock.now())
    assert not facts.month_turned("t1", clock.now() + timedelta(days=1))
    assert facts.consolidate("t1", scheduled=False) == []
    later = clock.now() + timedelta(days=40)
    assert facts.month_turned("t1", later)
    # The schedule lives in the stored facts: a restarted process sees it too.
    again = FactMemory(facts.store, facts.events, clock, facts.config)
    assert again.month_turned("t1", later)
    assert not again.month_turned("t2", later)  # no facts, nothing to fold
    events = facts.consolidate("t1", now=later, scheduled=True)
    assert [e.kind for e in events] == ["facts_consolidated"]
    assert [f.key for f in facts.active("t1", now=later)] == ["likes.all"]


class _ScriptedBrain:
    """Condenses to a fixed text, as a model might (or might invent)."""

    name = "scripted"

    def __init__(self, text: str) -> None:
        self.text = text

    def condense(self, text: str, *, max_tokens: int) -> BrainResult[str]:
        return BrainResult(self.text)


def test_the_brain_writes_the_folded_value_only_from_its_members_words():
    values = ["long walks in the forest", "jazz records", "Thai cooking"]
    notes: list = []
    counter = default_counter()
    kept = grounded_summariser(
        _ScriptedBrain("long forest walks, jazz records, Thai cooking"), counter, notes
    )
    assert kept(values) == "long forest walks, jazz records, Thai cooking"
    # Shorter, but "where" and "records" are gone: a question could need them.
    lossy = grounded_summariser(
        _ScriptedBrain("walks, jazz, Thai cooking"), counter, notes
    )
    assert lossy(values) == "long walks in the forest; jazz records; Thai cooking"
    invented = grounded_summariser(_ScriptedBrain("hiking and opera"), counter, notes)
    assert invented(values) == "long walks in the forest; jazz records; Thai cooking"
    empty = grounded_summariser(_ScriptedBrain("  "), counter, notes)
    assert empty(values) == "long walks in the forest; jazz records; Thai cooking"


def test_candidates_hold_the_head_of_the_full_ranking():
    facts, clock = memory()
    words = ["tea", "coffee", "jazz", "chess", "rust", "python", "paris", "oslo"]
    for i, w in enumerate(words):
        clock.advance(timedelta(minutes=1))
        category = ["identity", "knowledge", "preference", "decision"][i % 4]
        facts.write("t1", cand(f"k{i}", w, category=category, turn=f"m{i}"))
    now = clock.now()
    for query in ["Do I like jazz or chess?", "tea", "nothing in common"]:
        full = rank_facts(facts.active("t1"), query, now, facts.config)[:3]
        got = rank_facts(
            facts.candidates("t1", query, limit=3), query, now, facts.config
        )
        assert [f.id for f in got[:3]] == [f.id for f in full]


def test_candidates_at_a_past_instant_hold_only_what_memory_knew_then():
    facts, clock = memory()
    start = clock.now()
    clock.advance(timedelta(hours=1))
    early = facts.write("t1", cand("home_city", "Oslo", category="identity"))
    clock.advance(timedelta(hours=1))
    facts.write("t1", cand("tea", "green tea", category="preference", turn="m2"))
    assert facts.candidates("t1", "Oslo tea", now=start, limit=5) == []
    middle = start + timedelta(minutes=90)
    got = facts.candidates("t1", "Oslo tea", now=middle, limit=5)
    assert [f.id for f in got] == early.refs


def test_open_items_and_decisions_are_never_folded():
    facts, clock = memory(consolidate_above=2)
    for i, task in enumerate(
        ["fix the login test", "review the PR", "upgrade the ORM"]
    ):
        clock.advance(timedelta(minutes=1))
        facts.write("t1", cand(f"todo.t{i}", task, category="unresolved", turn=f"m{i}"))
        facts.write(
            "t1", cand(f"choice.c{i}", f"option {i}", category="decision", turn=f"d{i}")
        )
    assert facts.consolidate("t1", scheduled=True) == []
    assert len(facts.active("t1")) == 6
