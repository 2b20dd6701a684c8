"""What a forgotten fact keeps out of a context, on hand-built turns and summaries."""

from __future__ import annotations

from datetime import timedelta

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.context.withheld import Withheld, withheld_for
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.types import Episode
from tests.helpers import T0, cand, msg

OSLO = Withheld(turns=frozenset({"m1"}), values=(frozenset({"oslo"}),))


def test_a_turn_keeps_the_sentences_of_the_fact_still_held():
    turn = msg(1, "My office moved to Oslo. My manager is called Petra.")
    shown = OSLO.message(turn)
    assert shown is not None
    assert shown.content == "My manager is called Petra."
    assert shown.id == turn.id


def test_a_source_turn_that_never_names_the_value_goes_whole():
    # The value was stored in other words than the turn's.
    assert OSLO.message(msg(1, "We are based in the Norwegian capital.")) is None
    # Another turn without the value is left alone.
    other = msg(2, "We are based in the Norwegian capital.")
    assert OSLO.message(other) == other


def test_any_speaker_quoting_the_value_is_redacted_but_only_the_user_commands():
    echo = msg(3, "Oslo, how lovely! Anything else?", role="assistant")
    shown = OSLO.message(echo)
    assert shown is not None and "Oslo" not in shown.content
    assert "Anything else?" in shown.content
    told = msg(4, "Forget that the meeting was moved. Thanks!", role="assistant")
    assert Withheld().message(told) == told
    asked = msg(5, "Forget that the meeting was moved. Thanks!")
    shown = Withheld().message(asked)
    assert shown is not None and shown.content == "Thanks!"


def test_a_longer_value_is_quoted_by_most_of_its_words_and_all_its_numbers():
    rent = Withheld(values=(frozenset({"1200", "francs", "month"}),))
    assert rent.text("We pay 1200 francs, sadly.") == ""
    assert rent.text("The gym is 60 francs a month.") == "The gym is 60 francs a month."


def test_summary_lines_keep_their_date_when_the_first_sentence_goes():
    summary = (
        "[2026-01-04] user: I moved to Oslo.\nuser: I started pottery.\n[2026-01-05] ok"
    )
    assert (
        OSLO.text(summary) == "[2026-01-04] user: I started pottery.\n[2026-01-05] ok"
    )


def test_an_episode_left_with_nothing_is_not_shown():
    base = dict(
        tenant="t1",
        session="s1",
        thread="main",
        first_seq=0,
        last_seq=1,
        turn_ids=["m0", "m1"],
        start=T0,
        end=T0,
        original_message_count=2,
        original_tokens=20,
        summary_tokens=5,
        created_at=T0,
        brain="rule-based",
    )
    gone = Episode(id="e1", summary="user: Moving to Oslo.", **base)
    kept = Episode(id="e2", summary="user: Oslo next week. Booked the ferry.", **base)
    shown = OSLO.episodes([(gone, 0.1), (kept, 0.2)])
    assert [(e.id, e.summary) for e, _ in shown] == [("e2", "Booked the ferry.")]


def facts_with(*pairs: tuple[str, str, str]) -> FactMemory:
    clock = ManualClock(T0)
    facts = FactMemory(InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig())
    for key, value, turn in pairs:
        facts.write("t1", cand(key, value, turn=turn))
    return facts


def test_a_forgotten_value_another_fact_holds_is_withheld_only_by_its_turns():
    facts = facts_with(("home_city", "Oslo", "m1"), ("office_city", "Oslo", "m2"))
    home = next(f for f in facts.active("t1") if f.key == "home_city")
    facts.forget("t1", home.id)
    withheld = withheld_for(facts, "t1", [], now=T0 + timedelta(hours=1))
    assert withheld.values == ()
    assert withheld.turns == frozenset({"m1"})


def test_a_command_not_carried_out_yet_already_withholds_what_it_names():
    facts = facts_with(("allergy", "penicillin", "m1"))
    later = T0 + timedelta(hours=1)
    before = msg(2, "I'm allergic to penicillin, by the way.", at=later)
    command = msg(3, "Please forget that I'm allergic to penicillin.", at=later)
    after = msg(4, "Turns out I am allergic to penicillin after all.", at=later)
    before, command, after = (
        m.model_copy(update={"seq": i}) for i, m in enumerate((before, command, after))
    )
    withheld = withheld_for(facts, "t1", [before, command, after], now=later)
    assert withheld.held(facts.active("t1")) == []
    assert withheld.message(command) is None
    # The value is withheld everywhere; the request's own words only before it
    # (with no fact read yet, only the words are known).
    assert withheld.message(before) is None
    assert withheld.message(after) is None
    quiet = withheld_for(facts_with(), "t1", [before, command, after], now=later)
    assert quiet.message(before) is None
    assert quiet.message(after) == after
