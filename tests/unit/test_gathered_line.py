"""Gathered lines: whom a question names, which rows a line may list, and the line."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.context.fact_groups import fact_line
from memory_lab.embeddings import default_embedder
from memory_lab.facts.gathering import (
    gathered_line,
    held_rows,
    is_gathered,
    named_subjects,
)
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.tokens import default_counter
from memory_lab.types import FactCandidate
from tests.helpers import T0, cand

COUNTER = default_counter()
SUBJECTS = ["user", "user's sister", "ines", "ines's son", "bo"]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Which cities has Ines lived in?", ["ines"]),
        ("What sports do Ines's sons play?", ["ines", "ines's son"]),
        ("Where did my sister study?", ["user", "user's sister"]),
        ("What do I usually cook?", ["user"]),
        ("What did the son build?", []),  # whose son? no one is named
        ("Where does Priya work?", []),
        ("What's the weather like?", []),
    ],
)
def test_a_question_names_the_subjects_whose_every_word_it_says(question, named):
    assert named_subjects(question, SUBJECTS) == named


def tier(**config) -> tuple[FactMemory, ManualClock]:
    clock = ManualClock(T0)
    store = InMemoryFactStore()
    return FactMemory(store, InMemoryEventLog(), clock, FactConfig(**config)), clock


def later(clock: ManualClock, days: int = 20) -> None:
    clock.advance(timedelta(days=days))


def test_what_held_once_is_listed_for_the_past_and_what_holds_for_now():
    facts, clock = tier()
    facts.write("t", cand("went_to", "a choir rehearsal", subject="bo", turn="m1"))
    later(clock)
    facts.write("t", cand("went_to", "a jazz night", subject="bo", turn="m2"))
    later(clock)
    facts.write("t", cand("drives", "a Saab", subject="bo", turn="m3"))
    later(clock)
    facts.write(
        "t", cand("drives", "a Volvo", subject="bo", turn="m4", source="explicit")
    )
    later(clock)
    facts.write("t", cand("plays", "darts", subject="bo", turn="m5"))
    (darts,) = [f for f in facts.active("t") if f.value == "darts"]
    facts.forget("t", darts.id)
    rows, now = facts.rows("t"), clock.now()

    past = {f.value for f in held_rows(rows, now, facts.config, past=True)}
    assert past == {"a choir rehearsal", "a jazz night", "a Volvo"}
    assert "a Saab" not in past  # corrected: it may never have held
    present = {f.value for f in held_rows(rows, now, facts.config, past=False)}
    assert present == {"a jazz night", "a Volvo"}
    # Read at an earlier instant, what memory learned later is not there.
    early = held_rows(rows, T0, facts.config, past=True)
    assert {f.value for f in early} == {"a choir rehearsal"}


def test_a_consolidated_row_is_listed_as_its_members():
    facts, clock = tier(consolidate_above=2)
    for i, hobby in enumerate(["hiking", "jazz", "chess"]):
        later(clock, 5)
        facts.write("t", cand(f"likes.{hobby}", hobby, turn=f"m{i}"))
    assert facts.consolidate("t")
    held = held_rows(facts.rows("t"), clock.now(), facts.config, past=False)
    assert sorted(f.value for f in held) == ["chess", "hiking", "jazz"]


@pytest.fixture(scope="module")
def embed():
    return default_embedder().embed


def said(key: str, value: str, sentence: str, turn: str) -> FactCandidate:
    """Ines's fact as the parse reads it: the sentence is its evidence."""
    return FactCandidate(
        category="knowledge",
        key=key,
        value=value,
        subject="ines",
        evidence=sentence,
        turn_ids=[turn],
    )


def _trips(facts: FactMemory, clock: ManualClock) -> None:
    for candidate in [
        said("visit.lisbon", "Lisbon", "Ines visited Lisbon with her aunt.", "m0"),
        said("likes.tea", "green tea", "Ines likes green tea.", "m1"),
        said("travel_to", "Porto", "She travelled to Porto by train.", "m2"),
        said("go_to", "Madrid", "Then she went to Madrid.", "m3"),
        said("fly_to", "Seville", "She flew to Seville for the fair.", "m4"),
    ]:
        later(clock, 31)
        facts.write("t", candidate)


def _line(facts, query, embed, max_tokens=80):
    held = held_rows(facts.rows("t"), facts.clock.now(), facts.config, past=True)
    return gathered_line(held, query, embed, COUNTER, facts.config, max_tokens)


def test_the_line_lists_the_kind_asked_about_by_date(embed):
    facts, clock = tier()
    _trips(facts, clock)
    line = _line(facts, "Which cities has Ines visited?", embed)
    assert line is not None and is_gathered(line.id)
    assert line.value == (
        "visit Lisbon (3 Apr 2025); travel to Porto (4 Jun 2025); "
        "go to Madrid (5 Jul 2025); fly to Seville (5 Aug 2025)"
    )
    assert line.subject == "ines" and line.category == "knowledge"
    # Its sources are the rows' turns, so evidence it carries is credited.
    assert set(line.turn_ids) == {"m0", "m2", "m3", "m4"}
    shown = fact_line(line, hedged=False, now=clock.now())
    assert shown == f"- Ines, over time: {line.value}"


def test_a_replaced_value_is_on_the_line_of_the_value_that_replaced_it(embed):
    facts, clock = tier()
    facts.write("t", said("live_in", "Uppsala", "Ines lives in Uppsala.", "m1"))
    later(clock)
    facts.write("t", said("live_in", "Lund", "Ines lives in Lund now.", "m2"))
    line = _line(facts, "Where has Ines lived?", embed)
    assert line is not None
    assert line.value == "live in Uppsala (3 Mar 2025); live in Lund (23 Mar 2025)"


def test_the_line_keeps_to_its_token_cap(embed):
    facts, clock = tier()
    _trips(facts, clock)
    line = _line(facts, "Which cities has Ines visited?", embed, max_tokens=24)
    assert line is not None
    assert COUNTER.count(line.value) <= 24
    assert 2 <= line.value.count("(") < 4  # some cities, not all of them


def test_one_value_or_one_day_makes_no_line(embed):
    facts, clock = tier()
    facts.write("t", said("visit.lisbon", "Lisbon", "Ines visited Lisbon.", "m1"))
    asked = "Which cities has Ines visited?"
    assert _line(facts, asked, embed) is None
    facts.write("t", said("visit.porto", "Porto", "Ines visited Porto.", "m2"))
    assert _line(facts, asked, embed) is None  # the same day
    later(clock)
    facts.write("t", said("visit.faro", "Faro", "Ines visited Faro.", "m3"))
    assert _line(facts, asked, embed) is not None
