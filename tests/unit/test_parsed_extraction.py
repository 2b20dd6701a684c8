"""The parser brain on sentences no rule was written for, and on bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.clock import ManualClock
from memory_lab.config import MemoryConfig
from memory_lab.engine import MemoryEngine
from tests.helpers import T0, msg

DAY = 24 * 60


def facts(*texts: str, speaker: str = "") -> set[tuple[str, str]]:
    turns = [msg(i, t, minutes=DAY, speaker=speaker) for i, t in enumerate(texts)]
    return {(c.subject, c.value) for c in parse_candidates(turns)}


def test_two_facts_of_two_people_in_one_sentence() -> None:
    got = facts("I work as a nurse in Leeds, and my husband Tom is a pilot.")
    assert ("user", "nurse") in got
    assert ("tom", "pilot") in got
    assert ("user", "Tom") in got  # the relation, valued by the name


def test_fillers_and_dates_never_become_values() -> None:
    got = facts(
        "By the way, I am allergic to shellfish.",
        "I switched to Octopus Energy on Monday.",
    )
    assert ("user", "shellfish") in got
    assert ("user", "Octopus Energy") in got
    assert not any("way" in v or "Monday" in v for _, v in got)


@pytest.mark.parametrize(
    "text",
    [
        "I don't own a bike.",
        "If I had the money I'd buy a boat.",
        "Someday I might learn Japanese.",
        "My boss says I should move to Berlin.",
        "Do you like cats?",
        "Have you ever been to Lisbon?",
    ],
)
def test_what_is_not_asserted_is_not_stored(text: str) -> None:
    assert facts(text) == set()


def test_a_move_to_a_place_is_the_home_city_and_to_a_tool_is_not() -> None:
    turns = [msg(0, "I moved to New York City last year.", minutes=DAY)]
    assert {(c.key, c.value) for c in parse_candidates(turns)} == {
        ("home_city", "New York City")
    }
    turns = [msg(0, "I finally moved to Neovim.", minutes=DAY)]
    assert not any(c.key == "home_city" for c in parse_candidates(turns))


def test_a_named_speaker_is_the_subject() -> None:
    got = facts("I just adopted a rescue greyhound called Pepper.", speaker="Priya")
    assert any(s == "priya" and "greyhound" in v for s, v in got)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "😂😂🎉", "Je suis allergique aux arachides.", "x" * 1_000_000],
)
def test_bad_input_gives_no_fact_and_no_crash(text: str) -> None:
    assert facts(text) == set()


def test_an_update_in_other_words_supersedes_the_old_value() -> None:
    clock = ManualClock(T0)
    engine = MemoryEngine(config=MemoryConfig(extractor="parse"), clock=clock)
    try:
        for i, text in enumerate(
            [
                "Our grocery budget is about 300 a month.",
                "Heads up, the grocery budget has gone up to 380.",
            ]
        ):
            clock.advance(timedelta(days=1))
            engine.ingest("t1", [msg(i, text, at=clock.now())])
        engine.close_session("t1")
        assert engine.flush(timeout=60)
        rows = [r for r in engine.facts.rows("t1") if r.key == "budget.grocery"]
        active = [r.value for r in rows if r.is_active(clock.now())]
        assert active == ["380"]
        assert any("300" in r.value and r.status == "superseded" for r in rows)
    finally:
        engine.close()


def test_quitting_ends_what_joining_began() -> None:
    clock = ManualClock(T0)
    engine = MemoryEngine(config=MemoryConfig(extractor="parse"), clock=clock)
    try:
        for i, text in enumerate(
            ["I joined a community choir last spring.", "I quit the choir in June."]
        ):
            clock.advance(timedelta(days=1))
            engine.ingest("t1", [msg(i, text, at=clock.now())])
        engine.close_session("t1")
        assert engine.flush(timeout=60)
        rows = engine.facts.rows("t1")
        joined = [r for r in rows if "community choir" in r.value]
        assert joined and not any(r.is_active(clock.now()) for r in joined)
        # An ending closes the fact; it does not stand as a new value.
        assert not any("quit" in r.value for r in rows)
        assert any(
            r.valid_until is not None and r.holds_at(r.valid_from) for r in joined
        ), "the choir held until it was quit, and memory still knows it did"
    finally:
        engine.close()


@pytest.mark.parametrize(
    "text",
    [
        "I forgot to renew my passport again.",
        "I keep meaning to call my grandmother but I never get round to it.",
    ],
)
def test_what_did_not_happen_is_not_stored(text: str) -> None:
    got = facts(text)
    assert not any("passport" in v or "grandmother" in v for _, v in got), got


def test_a_measure_of_time_is_no_value() -> None:
    got = facts("I spent half of the afternoon cleaning out the garage.")
    assert not any(v in {"half", "afternoon"} for _, v in got), got
    assert ("user", "garage") in got


def test_moving_a_thing_to_a_value_keys_the_thing() -> None:
    turns = [msg(0, "We moved the book club to Thursday evenings.", minutes=DAY)]
    got = {(c.key, c.value) for c in parse_candidates(turns)}
    assert any("club" in k and "Thursday" in v for k, v in got), got


def test_a_liking_keeps_its_manner() -> None:
    got = facts("Honestly I like my eggs with hot sauce.")
    assert any("hot sauce" in v for _, v in got), got


def test_a_name_the_speaker_addresses_is_not_the_subject() -> None:
    got = facts(
        "Hi Maria, since we last chatted, I'm volunteering as a mentor.",
        speaker="Ana",
    )
    assert got and all(s == "ana" for s, _ in got), got


def test_a_phrase_before_an_ending_verb_is_not_what_it_ends() -> None:
    got = facts(
        "I'm here for you every step of the way.",
        "By the way, I finished the first draft of my novel last week.",
        speaker="Ana",
    )
    assert all(v.strip() for _, v in got), got
    assert any("draft" in v for _, v in got), got


def test_it_after_a_change_names_the_changed_things_new_value() -> None:
    turns = [
        msg(0, "We changed accountants, it's Johan Ek now.", minutes=DAY),
        msg(1, "My budget got tighter, now it's $600 a month max.", minutes=DAY),
    ]
    got = {(c.key, c.value) for c in parse_candidates(turns)}
    assert ("accountant", "Johan Ek") in got
    assert any(k == "budget" and v.startswith("$600") for k, v in got)
    # The replaced thing itself is no value, and "it" naming nothing is skipped.
    assert not any(v == "accountants" for _, v in got)
    said = facts("I painted a sunset yesterday, it was a great experience.")
    assert not any("experience" in v for _, v in said)


def test_a_clause_that_drops_its_i_is_the_speakers() -> None:
    got = facts(
        "Joined a climbing gym near the office last month.",
        "Been learning Korean on the side.",
    )
    assert ("user", "climbing gym") in got
    assert ("user", "Korean") in got
    # A request, thanks to the listener and a clause as subject state nothing.
    for text in (
        "Remind me to call the plumber tomorrow.",
        "Thanking you for the lovely dinner.",
        "Seeing you there was great.",
    ):
        turns = [msg(0, text, minutes=DAY)]
        assert not [c for c in parse_candidates(turns) if c.category == "knowledge"]


def test_general_and_sorting_nouns_are_no_value_until_narrowed() -> None:
    got = facts(
        "I finally found a way to switch off after work.",
        "I've been baking all sorts of vegan desserts lately.",
        "I have a real love for old motorbikes.",
    )
    values = {v for _, v in got}
    assert "vegan desserts" in values  # what "all sorts of" sorts
    assert any("motorbikes" in v for v in values)  # "love" narrowed by its object
    assert not any(v in {"way", "a way"} or v.startswith("sorts") for v in values)
