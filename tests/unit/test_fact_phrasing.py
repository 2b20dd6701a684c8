"""Facts said as sentences: statements read by the offline brain, then phrased.

Each statement goes through the real extraction (the parse and the rules), and
the fact it yields is phrased; the sentence must hold the value, name whom it is
about, carry a verb, and never show the key's own spelling.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from memory_lab.brains.offline.brain import RuleBasedBrain
from memory_lab.context.fact_groups import fact_line
from memory_lab.facts.phrasing import phrase
from memory_lab.facts.summary import CUT, fact_summary
from memory_lab.tokens import default_counter
from memory_lab.types import Fact
from tests.helpers import T0, msg

# (speaker, statement, a value the fact holds, whom the sentence opens with,
#  a word the sentence must say)
STATEMENTS = [
    (
        "",
        "I live in Oslo, in a flat near the harbour.",
        "flat near the harbour",
        "You",
        "live",
    ),
    (
        "",
        "Honestly I'm a physiotherapist at a sports clinic.",
        "physiotherapist",
        "You",
        "are",
    ),
    ("", "I work at Maersk as a logistics analyst.", "Maersk", "Your", "employer"),
    ("", "We moved to Utrecht last autumn.", "Utrecht", "Your", "city"),
    ("", "I really enjoy birdwatching.", "birdwatching", "You", "like"),
    ("", "I'm quite fond of Portuguese tiles.", "Portuguese tiles", "You", "fond"),
    ("", "I drive an old blue Saab.", "Saab", "You", "drive"),
    ("", "My laptop is a ThinkPad.", "ThinkPad", "Your", "laptop"),
    ("", "I'm planning to climb Kilimanjaro next year.", "Kilimanjaro", "You", "plan"),
    ("", "I'm allergic to penicillin.", "penicillin", "You", "allergic"),
    ("", "I can't eat shellfish.", "shellfish", "You", "eat"),
    ("", "My brother Anders is a firefighter.", "firefighter", "Anders", "is"),
    ("", "My aunt lives in Cork.", "Cork", "Your", "aunt's"),
    ("priyanka", "I adopted two kittens last month.", "kittens", "Priyanka", "adopted"),
    ("tomasz", "I teach chemistry at a high school.", "chemistry", "Tomasz", "teaches"),
    ("", "I've been learning the accordion since May.", "accordion", "You", "learning"),
    ("", "Our food budget went up to 450.", "450", "Your", "budget"),
    ("", "I'm training for a triathlon.", "triathlon", "You", "training"),
    ("", "I sold my motorbike.", "motorbike", "You", "sold"),
]


@pytest.fixture(scope="module")
def brain() -> RuleBasedBrain:
    return RuleBasedBrain()


def _read(brain: RuleBasedBrain, speaker: str, statement: str, value: str):
    turn = msg(1, statement, speaker=speaker)
    found = brain.extract([turn]).value
    held = [c for c in found if value.lower() in c.value.lower()]
    assert held, f"no fact holding {value!r} read from {statement!r}: {found}"
    return held[0]


@pytest.mark.parametrize(
    ("speaker", "statement", "value", "opens", "says"),
    STATEMENTS,
    ids=[s[1][:32] for s in STATEMENTS],
)
def test_a_stated_fact_reads_as_a_sentence(
    brain, speaker, statement, value, opens, says
):
    fact = _read(brain, speaker, statement, value)
    sentence = phrase(fact.subject, fact.key, fact.value, fact.evidence).text
    words = sentence.replace("'", " ").split()
    assert fact.value in sentence
    assert sentence.count(fact.value) == 1
    assert sentence.split()[0] == opens, sentence
    assert says in sentence.split(), sentence
    assert "_" not in sentence, sentence
    if re.search(r"[_.]", fact.key):
        assert fact.key not in sentence, sentence
    assert not re.search(r"\bYour (?:live|work|is)\b", sentence), sentence
    assert not sentence.endswith(".")
    assert len(words) >= 3


def test_the_flat_near_the_harbour_reads_as_said(brain):
    fact = _read(brain, "", "I live in Oslo, in a flat near the harbour.", "flat")
    said = phrase(fact.subject, fact.key, fact.value, fact.evidence).text
    assert said == "You live in a flat near the harbour"


def test_a_past_statement_stays_past_and_a_present_one_agrees(brain):
    adopted = _read(brain, "", "We adopted a puppy last week.", "puppy")
    assert phrase("user", adopted.key, adopted.value, adopted.evidence).text == (
        "You adopted a puppy"
    )
    # The same key and value said of a named person: the present agrees with them.
    living = _read(brain, "", "I live in a flat near the harbour.", "flat")
    said = phrase("melanie", living.key, living.value, living.evidence).text
    assert said == "Melanie lives in a flat near the harbour"


def test_a_slot_and_something_owned_read_as_the_users():
    assert phrase("user", "home_city", "Oslo").text == "Your home city is Oslo"
    rent = phrase("user", "budget.rent", "900", "My rent budget is 900 a month")
    assert rent.text == "Your rent budget is 900"
    told = "I have a dentist appointment on 12 May"
    assert phrase("user", "appointment.dentist", "12 May", told).text == (
        "Your dentist appointment is on 12 May"
    )
    sister = phrase("user's sister", "employer", "IKEA", "My sister works at IKEA")
    assert sister.text == "Your sister's employer is IKEA"


def test_a_name_reads_as_who_they_are_to_the_user():
    said = phrase("user", "sister.emma", "Emma", "My sister Emma is a doctor").text
    assert said == "Emma is your sister"
    assert (
        phrase("melanie", "husband.name", "Tom").text
        == "Melanie's husband's name is Tom"
    )


def test_a_kept_statement_is_said_back_in_the_second_person():
    note = phrase("user", "note.my_locker_code_is", "my locker code is 4512")
    assert note.text == "Your locker code is 4512"
    unsafe = phrase("user", "note.so_am_i", "so am I")
    assert unsafe.text == "So am I"
    instruction = phrase("user", "never.use_emojis", "Never use emojis")
    assert instruction.text == "Never use emojis"


def test_a_users_my_inside_a_value_becomes_your_and_anothers_stays():
    told = "I need to renew my passport before June"
    mine = phrase(
        "user", "todo.renew_passport_before", "renew my passport before June", told
    )
    assert mine.text == "You need to renew your passport before June"
    theirs = phrase("melanie", "todo.renew_passport_before", "renew my passport")
    assert "my passport" in theirs.text and theirs.text.startswith("Melanie")


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("Project/Deadline", "Friday", "Project/Deadline: Friday"),
        ("a.b.c.d", "x", "a b c d: x"),
        ("Home City", "Oslo", "Home City: Oslo"),
    ],
)
def test_a_key_of_no_known_shape_falls_back_to_its_words(key, value, expected):
    assert phrase("user", key, value).text == expected
    assert phrase("emma", key, value).text == f"Emma: {expected}"


def _fact(**fields) -> Fact:
    base = {
        "id": "f1",
        "tenant": "t1",
        "subject": "user",
        "category": "knowledge",
        "key": "live_in.flat",
        "value": "flat near the harbour",
        "confidence": 0.8,
        "importance": 0.5,
        "source": "extracted",
        "session": "s1",
        "turn_ids": ["m1"],
        "evidence": "I live in Oslo, in a flat near the harbour.",
        "valid_from": T0 - timedelta(days=40),
        "last_confirmed_at": T0,
        "created_at": T0,
    }
    return Fact(**(base | fields))


def test_a_facts_block_line_keeps_its_date_and_hedge():
    line = fact_line(_fact(), hedged=True, now=T0)
    since = (T0 - timedelta(days=40)).date().isoformat()
    assert line == f"- You live in a flat near the harbour (unsure) (since {since})"
    old = _fact(
        category="decision",
        key="choice.k2_or_k3",
        value="K2",
        valid_from=T0 - timedelta(days=400),
        evidence="We chose K2 over K3",
    )
    assert fact_line(old, hedged=False, now=T0).endswith(
        f"({'historical, decided'} {(T0 - timedelta(days=400)).date().isoformat()})"
    )
    assert "You chose K2" in fact_line(old, hedged=False, now=T0)


def test_the_summary_is_the_sentence_cut_to_its_cap():
    assert fact_summary(_fact()) == "You live in a flat near the harbour"
    long = " ".join(f"room{i}" for i in range(200))
    summary = fact_summary(_fact(key="home_city", value=long, evidence=""))
    assert summary.startswith("Your home city is room0 room1")
    assert summary.endswith(CUT)
    assert default_counter().count(summary) <= 24
    tiny = fact_summary(_fact(key="home_city", value=long, evidence=""), max_tokens=2)
    assert tiny == f"Your home city is{CUT}"
