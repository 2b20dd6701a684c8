"""Consolidation folds facts of one kind by meaning, and never loses a value."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.embeddings import default_embedder
from memory_lab.facts.folding import fold_plan, member_value
from memory_lab.facts.gathering import held_rows
from memory_lab.facts.grouping import group_by_meaning
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.text import content_words
from tests.helpers import T0, cand

POTTERY = [
    ("signed_up_for.class", "pottery class"),
    ("bought.clay", "clay for pottery"),
    ("glazed.plates", "pottery plates"),
]
"""One pastime under three keys, none sharing a prefix (pairwise cosine 0.57-0.64:
alike, not restatements of one fact)."""

HAVE = [
    ("have.allergy", "peanuts"),
    ("have.meeting", "weekly team meeting"),
    ("have.car", "a red Volvo"),
]
"""One prefix over three unrelated things."""


def tier(embedder=None, **config) -> tuple[FactMemory, ManualClock]:
    clock = ManualClock(T0)
    facts = FactMemory(
        InMemoryFactStore(),
        InMemoryEventLog(),
        clock,
        FactConfig(**config),
        embedder=embedder,
    )
    return facts, clock


def stored(facts: FactMemory, clock: ManualClock, pairs) -> None:
    for i, (key, value) in enumerate(pairs):
        clock.advance(timedelta(days=3))
        facts.write("t1", cand(key, value, category="knowledge", turn=f"m{key}{i}"))


def test_complete_linkage_does_not_chain_neighbours() -> None:
    # a~b and b~c, but a and c share nothing: c starts its own group.
    vectors = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0]])
    assert group_by_meaning(vectors, 0.5) == [[0, 1], [2]]


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def test_differently_keyed_facts_of_one_kind_fold_and_a_shared_prefix_does_not(
    embedder,
) -> None:
    facts, clock = tier(embedder)
    stored(facts, clock, POTTERY + HAVE)
    assert len(facts.active("t1")) == len(POTTERY + HAVE)  # none restates another
    plan = fold_plan(facts.active("t1"), "user", embed=embedder.embed)
    assert len(plan) == 1, [[m.key for m in members] for members, _ in plan]
    members, folded = plan[0]
    assert {m.key for m in members} == {key for key, _ in POTTERY}
    # The relations differ, so each value keeps its own.
    assert folded.value == (
        "signed up for pottery class; bought clay for pottery; glazed pottery plates"
    )
    # By key prefix alone, the unrelated `have.*` facts would have folded.
    by_prefix = fold_plan(facts.active("t1"), "user")
    assert {m.key for m in by_prefix[0][0]} == {key for key, _ in HAVE}


def test_a_value_that_does_not_name_its_slot_keeps_it() -> None:
    facts, clock = tier()
    stored(facts, clock, [("budget.food", "400"), ("budget.rent", "1200")])
    food, rent = sorted(facts.active("t1"), key=lambda f: f.key)
    assert member_value(food) == "food: 400"
    assert member_value(rent) == "rent: 1200"
    assert member_value(food, with_relation=True) == "budget food: 400"


def test_no_value_disappears_from_the_facts_or_the_gathered_rows(embedder) -> None:
    facts, clock = tier(embedder, consolidate_above=3)
    stored(facts, clock, POTTERY + HAVE)
    before = {f.value for f in facts.active("t1")}
    assert [e.kind for e in facts.consolidate("t1")] == ["facts_consolidated"]
    after = facts.active("t1")
    assert len(after) == len(before) - len(POTTERY) + 1
    shown = content_words(" ".join(f.value for f in after))
    for value in before:
        assert content_words(value) <= shown, value
    # The members stay readable one by one, each with its own date.
    held = held_rows(facts.rows("t1"), clock.now(), facts.config, past=False)
    assert {f.value for f in held} == before
    assert len({f.valid_from for f in held}) == len(before)
