"""Plain-language memory commands, parsed and carried out through the engine."""

from datetime import timedelta

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.facts.commands import parse_command, split_commands
from tests.helpers import T0, msg

TENANT = "t1"


@pytest.mark.parametrize(
    ("sentence", "kind", "text"),
    [
        ("Please forget that I live in Uppsala.", "forget", "I live in Uppsala"),
        ("Forget about the dentist appointment.", "forget", "the dentist appointment"),
        ("Remember that I'm vegetarian.", "remember", "I'm vegetarian"),
        ("OK, remember that we use Fortnox.", "remember", "we use Fortnox"),
        ("Can you remember that my sister is Ana?", "remember", "my sister is Ana"),
        ("Note: we file quarterly.", "remember", "we file quarterly"),
        ("That's wrong, it is K3.", "correct", "K3"),
        ("No, that's not right: I live in Oslo.", "correct", "I live in Oslo"),
    ],
)
def test_commands_are_recognised(sentence, kind, text):
    command = parse_command(sentence, msg(1, sentence))
    assert command is not None
    assert (command.kind, command.text) == (kind, text)


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't forget to call the bank.",
        "Never forget that I love you.",
        "If I said remember that I like jazz, ignore it.",
        "I remember that day well.",
        "Do you remember that trip?",
        "Remember to buy milk.",
        "I forgot that the office was closed.",
        "Did you forget that I live in Oslo?",
        "She said that's wrong, it is K3.",
        "Forget it.",
    ],
)
def test_negated_hypothetical_and_reported_forms_give_no_command(sentence):
    assert parse_command(sentence, msg(1, sentence)) is None


def test_a_command_sentence_is_taken_out_of_the_turn_for_extraction():
    turn = msg(1, "Please forget that I live in Uppsala. I live in Oslo now.")
    commands, rest = split_commands(turn)
    assert [c.kind for c in commands] == ["forget"]
    assert rest.content == "I live in Oslo now." and rest.id == turn.id
    assert split_commands(msg(2, "Remember that I'm vegetarian."))[1] is None
    reply = msg(3, "Remember that you asked.", role="assistant")
    assert split_commands(reply) == ([], reply)


def _run(*texts: str) -> MemoryEngine:
    engine = MemoryEngine(clock=ManualClock(T0))
    engine.ingest(TENANT, [msg(i, t) for i, t in enumerate(texts)])
    engine.close_session(TENANT)
    engine.flush()
    return engine


def _rows(engine, key):
    return [f for f in engine.facts.rows(TENANT) if f.key == key]


def test_forget_that_end_dates_the_fact_instead_of_confirming_it():
    engine = _run("I live in Uppsala.", "Please forget that I live in Uppsala.")
    (row,) = _rows(engine, "home_city")
    assert row.status == "forgotten" and row.ended_at == T0 + timedelta(minutes=1)
    assert row.confidence < 1.0 and row.last_confirmed_at == row.created_at
    assert all(f.key != "home_city" for f in engine.facts.active(TENANT))
    kinds = [e.kind for e in engine.events.events(TENANT)]
    assert "fact_forgotten" in kinds and "fact_confirmed" not in kinds


def test_forget_acts_on_what_came_before_not_after():
    engine = _run(
        "I live in Uppsala.", "Forget that I live in Uppsala. I live in Oslo now."
    )
    assert [f.value for f in engine.facts.active(TENANT)] == ["Oslo"]


def test_forget_with_nothing_to_match_changes_nothing_and_says_so():
    engine = _run("I live in Uppsala.", "Forget that I own a boat.")
    assert [f.value for f in engine.facts.active(TENANT)] == ["Uppsala"]
    assert "fact_not_found" in [e.kind for e in engine.events.events(TENANT)]


def test_remember_that_stores_an_explicit_fact_extraction_cannot_override():
    engine = _run("Remember that I'm vegetarian.")
    (row,) = engine.facts.active(TENANT)
    assert (row.category, row.key, row.value) == ("constraint", "diet", "vegetarian")
    assert row.source == "explicit" and row.confidence == 1.0
    assert row.expires_at is None
    engine.ingest(TENANT, [msg(5, "I'm vegan.")])
    engine.close_session(TENANT)
    engine.flush()
    assert [f.value for f in engine.facts.active(TENANT)] == ["vegetarian"]
    assert any(f.status == "contradiction" for f in engine.facts.rows(TENANT))


def test_remember_keeps_what_no_rule_places_as_a_note_in_the_users_words():
    engine = _run("Remember that the spare key is under the blue pot.")
    (row,) = engine.facts.active(TENANT)
    assert (
        row.source == "explicit" and row.value == "the spare key is under the blue pot"
    )


def test_thats_wrong_replaces_the_value_it_corrects():
    engine = _run(
        "I live in Uppsala.", "We decided to use K2.", "That's wrong, it is K3."
    )
    active = {f.key: f for f in engine.facts.active(TENANT)}
    assert active["accounting_standard"].value == "K3"
    assert active["accounting_standard"].source == "explicit"
    assert active["home_city"].value == "Uppsala"


def test_negated_forms_leave_memory_alone():
    engine = _run("I live in Uppsala.", "Don't forget that I live in Uppsala?")
    assert [f.value for f in engine.facts.active(TENANT)] == ["Uppsala"]
    assert "fact_forgotten" not in [e.kind for e in engine.events.events(TENANT)]
