from datetime import UTC, datetime, timedelta, timezone

import pytest

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.facts.memory import FactMemory
from memory_lab.facts.valid_time import (
    date_candidates,
    resolve_valid_from,
    without_trailing_date,
)
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from tests.helpers import cand, msg

# A Wednesday afternoon.
SAID = datetime(2026, 2, 11, 15, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("She started on 1 November 2025.", datetime(2025, 11, 1, tzinfo=UTC)),
        ("She started on November 1, 2025.", datetime(2025, 11, 1, tzinfo=UTC)),
        ("We moved to Oslo on 2025-06-30.", datetime(2025, 6, 30, tzinfo=UTC)),
        ("We have used K3 since March.", datetime(2025, 3, 1, tzinfo=UTC)),
        ("We have used K3 since January.", datetime(2026, 1, 1, tzinfo=UTC)),
        ("I've lived here since 2019.", datetime(2019, 1, 1, tzinfo=UTC)),
        ("I moved to Uppsala yesterday.", datetime(2026, 2, 10, tzinfo=UTC)),
        ("We switched banks last week.", datetime(2026, 2, 2, tzinfo=UTC)),
        ("We switched banks last month.", datetime(2026, 1, 1, tzinfo=UTC)),
        ("I got a dog three days ago.", datetime(2026, 2, 8, tzinfo=UTC)),
        ("I started at Acme 2 years ago.", datetime(2024, 2, 11, tzinfo=UTC)),
        ("I was born in 1990.", datetime(1990, 1, 1, tzinfo=UTC)),
    ],
)
def test_date_phrases_resolve_against_the_message(sentence, expected):
    assert resolve_valid_from(sentence, SAID) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "I live in Uppsala.",
        "File the VAT return before May 12.",
        "We need the report by 3 March.",
        "I'm on call until 1 June.",
        "I work in marketing.",
        "My sister's birthday is on 3 May.",
        "The audit is on 1 December 2026.",
    ],
)
def test_undated_statements_and_deadlines_name_no_start(sentence):
    assert resolve_valid_from(sentence, SAID) is None


def test_dates_keep_the_message_time_zone():
    oslo = timezone(timedelta(hours=1))
    said = datetime(2026, 2, 11, 0, 30, tzinfo=oslo)
    assert resolve_valid_from("I moved yesterday.", said) == datetime(
        2026, 2, 10, tzinfo=oslo
    )


def test_candidates_take_their_turn_time_or_their_stated_date():
    turns = [msg(1, "I live in Uppsala.", at=SAID), msg(2, "x", at=SAID)]
    plain = cand("home_city", "Uppsala", turn="m1")
    dated = cand("employer", "Acme", turn="m2").model_copy(
        update={"evidence": "I joined Acme on 1 November 2025."}
    )
    given = dated.model_copy(update={"valid_from": datetime(2020, 1, 1, tzinfo=UTC)})
    orphan = cand("pet", "dog", turn="m99")
    out = date_candidates([plain, dated, given, orphan], turns)
    assert [c.valid_from for c in out] == [
        SAID,
        datetime(2025, 11, 1, tzinfo=UTC),
        datetime(2020, 1, 1, tzinfo=UTC),
        None,
    ]


def _memory(start: datetime) -> tuple[FactMemory, ManualClock]:
    clock = ManualClock(start)
    return FactMemory(
        InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig()
    ), clock


def test_a_past_question_answers_with_the_value_that_held_then():
    """The bitemporal case: valid day 0-10, replaced on day 10, asked about day 5."""
    day0 = datetime(2026, 1, 1, tzinfo=UTC)
    memory, clock = _memory(day0)
    memory.write("t", cand("home_city", "Oslo", category="identity"))
    clock.set(day0 + timedelta(days=10))
    memory.write("t", cand("home_city", "Uppsala", category="identity", turn="m2"))
    day5 = day0 + timedelta(days=5)
    assert [f.value for f in memory.active("t", now=day5)] == ["Oslo"]
    assert [f.value for f in memory.active("t", at=day5)] == ["Oslo"]
    assert [f.value for f in memory.active("t")] == ["Uppsala"]


def test_a_backdated_correction_changes_the_past_only_from_when_it_was_learned():
    day0 = datetime(2026, 1, 1, tzinfo=UTC)
    memory, clock = _memory(day0)
    memory.write("t", cand("employer", "Acme", category="identity"))
    clock.set(day0 + timedelta(days=20))
    # Learned on day 20: the change happened on day 12.
    memory.write(
        "t",
        cand("employer", "Initech", category="identity", turn="m2").model_copy(
            update={"valid_from": day0 + timedelta(days=12)}
        ),
    )
    day15, day18 = day0 + timedelta(days=15), day0 + timedelta(days=18)
    # What was true on day 15, as memory knows it now: Initech.
    assert [f.value for f in memory.active("t", at=day15)] == ["Initech"]
    # What memory believed on day 18 about day 15: still Acme.
    assert [f.value for f in memory.active("t", at=day15, believed_at=day18)] == [
        "Acme"
    ]
    old = memory.history("t", "identity", "employer")[0]
    assert old.valid_until == day0 + timedelta(days=12)
    assert old.ended_at == day0 + timedelta(days=20)


def test_forgetting_ends_belief_but_not_the_record_of_it():
    day0 = datetime(2026, 1, 1, tzinfo=UTC)
    memory, clock = _memory(day0)
    memory.write("t", cand("home_city", "Oslo", category="identity"))
    fact = memory.active("t")[0]
    clock.set(day0 + timedelta(days=3))
    memory.forget("t", fact.id)
    assert memory.active("t") == []
    assert memory.active("t", at=day0 + timedelta(days=1)) == []
    before = memory.active("t", now=day0 + timedelta(days=1))
    assert [f.value for f in before] == ["Oslo"]


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("Visma yesterday", "Visma"),
        ("Oslo since last week", "Oslo"),
        ("K3 since March", "K3"),
        ("Acme three days ago", "Acme"),
        ("Oslo on 1 February 2025", "Oslo"),
        ("Fortnox", "Fortnox"),
        ("yesterday", "yesterday"),
        ("born in 1990", "born in 1990"),
    ],
)
def test_a_date_phrase_moves_from_the_value_into_valid_time(value, kept):
    assert without_trailing_date(value) == kept


def _replay(lag: timedelta) -> tuple[list, list]:
    """Write a dated history at each turn's time, with the clock `lag` ahead."""
    day0 = datetime(2026, 1, 1, tzinfo=UTC)
    memory, clock = _memory(day0)
    steps = [
        (0, cand("accountant", "Berit", category="knowledge", turn="m1")),
        (1, cand("home_city", "Oslo", category="identity", turn="m2")),
        # Dated to begin later: today's view holds it from the day it is said.
        (
            2,
            cand("home_city", "Uppsala", category="identity", turn="m3").model_copy(
                update={"valid_from": day0 + timedelta(days=40)}
            ),
        ),
        # The same slot said with a qualifier, while the day-0 fact is in force
        # (its TTL ends on day 182, before a lagging clock's time).
        (100, cand("accountant.external", "Berit Ek", turn="m4")),
        (101, cand("budget", "300", category="decision", turn="m5")),
    ]
    views = []
    for day, candidate in steps:
        when = day0 + timedelta(days=day)
        clock.set(when + lag)
        memory.write("t", candidate, now=when)
        views.append([(f.key, f.value) for f in memory.active("t", now=when)])
    rows = [
        (f.key, f.value, f.status, f.valid_until)
        for f in memory.store.rows("t")
    ]
    return views, rows


def test_work_done_late_reads_and_writes_what_it_would_have_on_time():
    """A worker behind the clock must reach the same facts as one keeping up."""
    on_time = _replay(timedelta(0))
    assert _replay(timedelta(days=400)) == on_time
    views, _ = on_time
    assert ("home_city", "Uppsala") in views[2]
    assert ("accountant.external", "Berit Ek") not in views[3]
