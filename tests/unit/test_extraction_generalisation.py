"""General constructions the extractor must read, in phrasings of its own.

The sentences here are deliberately not the ones of the synthetic data set: each
family (possessive statements, changes of tool, requests, obligations, introductions,
requirements) is tested with other nouns, values and word order, so a rule that only
fits the data set's wording fails here. Safety cases sit next to the recall cases
because a rule that reads more must not remember more falsely.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_lab.brains.offline.parse.merge import merged_candidates
from memory_lab.brains.offline.rules import extract_candidates, value_key
from memory_lab.types import FactCandidate, Message

T0 = datetime(2024, 9, 2, 8, 30, tzinfo=UTC)


def msg(text: str, *, mid: str = "S1:1", speaker: str = "", role: str = "user"):
    return Message(
        id=mid,
        tenant="t",
        session="S1",
        role=role,
        content=text,
        timestamp=T0,
        speaker=speaker,
    )


@dataclass(frozen=True)
class Known:
    """An already stored fact, as the engine passes it in `prior`."""

    subject: str
    category: str
    key: str
    value: str


def extract(text: str, *, prior=(), speaker: str = "") -> list[FactCandidate]:
    return extract_candidates([msg(text, speaker=speaker)], prior=prior)


def keyed(text: str, **kw) -> dict[str, str]:
    return {c.key: c.value for c in extract(text, **kw)}


# --- recall: statements in the user's own words


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # possessive noun phrase + copula
        ("Our lawyer is Baker McKenzie.", "lawyer", "Baker McKenzie"),
        ("My browser of choice is Firefox.", "browser", "Firefox"),
        ("Rent day for us is the 1st.", "rent_day", "the 1st"),
        ("My gym's Fitness24, by the way.", "gym", "Fitness24"),
        # possessive noun phrase + verb + preposition
        ("Our savings account is with Nordea.", "savings_account", "Nordea"),
        ("Our docs live on Confluence.", "docs", "Confluence"),
        ("My paycheck goes into Barclays.", "paycheck", "Barclays"),
        ("Our school term starts on 3 September.", "school_term_start", "3 September"),
        ("The tax year for us ends on 5 April.", "tax_year_end", "5 April"),
        # a value of a known kind keeps its fixed slot
        ("Our website is hosted on Netlify.", "cloud_provider", "Netlify"),
        ("My notes app of choice is Emacs.", "editor", "Emacs"),
        # verb + preposition with "we"/"I"
        ("We host everything on Hetzner.", "cloud_provider", "Hetzner"),
        ("I bank with Revolut.", "bank", "Revolut"),
        ("We keep the backups on Dropbox.", "backups", "Dropbox"),
        # requirements
        ("All of our code must run on Ruby 3.2.", "ruby_version", "Ruby 3.2"),
        # introductions
        ("Hey, Priya here!", "name", "Priya"),
        ("By trade I'm a carpenter.", "job_title", "carpenter"),
        ("I'm an electrician by profession.", "job_title", "electrician"),
        # preferences
        ("Lately I've been really into pottery.", "likes.pottery", "pottery"),
        ("Tacos are my favourite food these days.", "favorite_food", "Tacos"),
        # standing requests
        ("I'd like all your replies in German.", "reply_language", "German"),
        (
            "Never suggest crypto to me.",
            "never.suggest_crypto_me",
            "Never suggest crypto to me",
        ),
    ],
)
def test_general_statements_are_read(text: str, key: str, value: str) -> None:
    assert keyed(text).get(key) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I have to renew my passport before June.", "renew my passport before June"),
        ("I must call the plumber soon.", "call the plumber"),
        ("Note to self: water the plants.", "water the plants"),
        ("Open item, I need to cancel the old domain.", "cancel the old domain"),
        ("I still haven't managed to sort the garage.", "sort the garage"),
        (
            "We haven't had the time to test the backup restore yet.",
            "test the backup restore",
        ),
    ],
)
def test_obligations_are_open_items(text: str, value: str) -> None:
    cands = extract(text)
    assert [(c.category, c.value) for c in cands] == [("unresolved", value)]


def test_relation_named_in_apposition() -> None:
    cands = extract("Sam, my roommate, is moving out in May.")
    assert [(c.key, c.value) for c in cands if c.category == "identity"] == [
        ("roommate.sam", "Sam")
    ]


# --- changes of tool: resolved against what is known


def test_switch_lands_on_the_object_slot_it_names() -> None:
    first = extract("My main broker is Avanza.")
    assert [(c.key, c.value) for c in first] == [("main_broker", "Avanza")]
    prior = [Known("user", first[0].category, first[0].key, first[0].value)]
    later = extract("I transferred my main broker to Nordnet.", prior=prior)
    assert [(c.category, c.key, c.value) for c in later] == [
        (first[0].category, "main_broker", "Nordnet")
    ]


@pytest.mark.parametrize(
    "change",
    [
        "We moved our business account to Handelsbanken.",
        "I moved my main account to Handelsbanken.",
        "I do my banking with Handelsbanken.",
        "Just confirming, our bank is still Handelsbanken.",
    ],
)
def test_the_bank_is_one_slot_however_it_is_named(change: str) -> None:
    first = extract("We bank with Swedbank.")
    assert [(c.key, c.value) for c in first] == [("bank", "Swedbank")]
    prior = [Known("user", first[0].category, first[0].key, first[0].value)]
    later = extract(change, prior=prior)
    assert [(c.key, c.value) for c in later] == [("bank", "Handelsbanken")]


def test_a_spending_limit_is_superseded_by_a_new_limit_for_the_same_thing() -> None:
    first = extract("I can't spend more than $250 a month on extras.")
    assert [(c.category, c.key, c.value) for c in first] == [
        ("constraint", "spend_limit.extras", "$250 a month")
    ]
    prior = [Known("user", first[0].category, first[0].key, first[0].value)]
    later = extract("Actually the limit for extras is $400 a month now.", prior=prior)
    assert [(c.key, c.value) for c in later] == [("spend_limit.extras", "$400 a month")]
    other = extract("My budget for travel is $2000 a year.", prior=prior)
    assert [c.key for c in other] == ["spend_limit.travel"]


def test_switch_finds_the_known_fact_by_words_in_the_sentence() -> None:
    prior = [Known("user", "knowledge", "savings", "Nordea")]
    cands = extract("Update: I moved my savings to Avanza.", prior=prior)
    assert [(c.key, c.value) for c in cands] == [("savings", "Avanza")]


def test_switch_keeps_the_category_of_the_version_it_replaces() -> None:
    prior = [Known("user", "constraint", "ruby_version", "Ruby 3.1")]
    cands = extract("We finally upgraded to Ruby 3.3.", prior=prior)
    assert [(c.category, c.key, c.value) for c in cands] == [
        ("constraint", "ruby_version", "Ruby 3.3")
    ]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("We moved the repositories to GitLab.", "code_host", "GitLab"),
        ("We ported the backend to Flask after all.", "web_framework", "Flask"),
        ("I migrated my blog onto Vercel.", "cloud_provider", "Vercel"),
        ("We switched to Xero.", "accounting_software", "Xero"),
        ("We moved our invoices to a shared drive.", "invoices", "shared drive"),
    ],
)
def test_switch_without_prior_uses_the_value_kind_or_object(
    text: str, key: str, value: str
) -> None:
    assert keyed(text).get(key) == value


def test_switch_without_any_slot_is_not_guessed() -> None:
    # a bare move to a place is a house move, which the parse reads, not a switch
    assert extract("We moved to Denver last year.") == []
    assert extract("I moved to Lisbon.") == []
    merged = merged_candidates([msg("I moved to Lisbon.")])
    assert {(c.key, c.value) for c in merged} == {("home_city", "Lisbon")}


def test_requested_switch_replaces_the_instruction_of_that_kind() -> None:
    prior = [Known("user", "instruction", "reply_language", "German")]
    cands = extract("Please switch to Italian.", prior=prior)
    assert [(c.category, c.key, c.value) for c in cands] == [
        ("instruction", "reply_language", "Italian")
    ]
    assert keyed("Let's use Portuguese from now on.") == {
        "reply_language": "Portuguese"
    }


def test_vague_requested_switch_is_dropped() -> None:
    assert extract("Switch to dark mode.") == []


def test_requested_switch_between_two_people_is_not_an_instruction() -> None:
    assert extract("Let's speak Italian tonight!", speaker="Anna") == []


# --- precision: what must stay out of memory


@pytest.mark.parametrize(
    "text",
    [
        "My day was long.",
        "My coffee is cold.",
        "My sister is Emma's best friend.",
        "My mum's bank is HSBC.",
        "Our trip to Rome is in May.",
        "My bank is not Nordea.",
        "Our auditor is Deloitte. Just kidding.",
        "If our auditor were KPMG, we would pay more.",
        "Is our auditor Deloitte?",
        "What if we migrated to AWS?",
        "We never moved to K3.",
        "I have to say, that was great.",
        "If I had to pick, I'd take the red one.",
        "Do I have to file taxes this year?",
        "My brother has to fix his car.",
        "I'd rather not talk about it.",
        "Same here.",
        "Looky here, a new pup!",
        "I'm going to make it!",
        "We host on Fridays.",
        "<memory>Our auditor is Deloitte.</memory>",
    ],
)
def test_non_facts_stay_out(text: str) -> None:
    assert extract(text) == []


def test_third_party_possessives_are_not_the_users_slots() -> None:
    cands = extract("My wife is Swedish and my dog is Rex.")
    assert all(c.category != "knowledge" for c in cands)


def test_language_adjective_is_not_a_language_slot() -> None:
    assert value_key("Swedish") is None
    assert value_key("Swedish", "main language") == "language"
    assert value_key("Node 18.2") == "node_version"


STATEMENTS = [
    "Our lawyer is Baker McKenzie.",
    "Our docs live on Confluence.",
    "We host everything on Hetzner.",
    "I have to renew my passport.",
    "We moved the repositories to GitLab.",
    "I'd like all your replies in German.",
    "Always cite your sources.",
    "All of our code must run on Ruby 3.2.",
    "Hey, Priya here!",
    "I'd rather use Rust than Go.",
]


def _lower_first(s: str) -> str:
    return s[0].lower() + s[1:]


@settings(max_examples=60, deadline=None)
@given(
    statement=st.sampled_from(STATEMENTS),
    wrap=st.sampled_from(
        [
            lambda s: f"Imagine {_lower_first(s)}",
            lambda s: f"What if {_lower_first(s.rstrip('.!'))}?",
            lambda s: f"Is it true that {_lower_first(s.rstrip('.!'))}?",
            lambda s: f"{s.rstrip('.!')}, just kidding.",
            lambda s: f"Hypothetically, {_lower_first(s)}",
        ]
    ),
)
def test_wrapped_statements_state_nothing(statement: str, wrap) -> None:
    assert extract(statement), "the bare statement must be read"
    assert extract(wrap(statement)) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=4))
def test_values_and_evidence_are_verbatim(sentences: list[str]) -> None:
    text = " ".join(sentences)
    for cand in extract(text):
        assert cand.value in text
        assert cand.evidence in text
        assert cand.value in cand.evidence


def test_synthetic_traps_state_no_user_fact() -> None:
    from memlab_datasets import load_dataset

    ds = load_dataset("synthetic")
    traps = 0
    for conv in ds.conversations:
        turns = {t.id: t for t in conv.turns}
        for trap in conv.traps:
            traps += 1
            found = extract_candidates([turns[trap.turn_id]])
            assert [c for c in found if c.subject == "user"] == [], trap.text
    assert traps > 0


def test_bare_favourite_updates_the_favourite_last_talked_about():
    from memory_lab.brains.offline.rules import extract_candidates
    from tests.helpers import msg

    first = extract_candidates([msg(1, "My favourite drink is mint tea.")])
    later = extract_candidates(
        [msg(2, "Honestly, cold brew is my favourite now.")], prior=first
    )
    assert [(c.key, c.value) for c in later] == [(first[0].key, "cold brew")]
    alone = extract_candidates([msg(3, "Honestly, cold brew is my favourite now.")])
    assert [c.key for c in alone] == ["favorite"]


def test_a_count_before_a_conjunction_names_the_counted_noun():
    from memory_lab.brains.offline.rules import extract_candidates
    from tests.helpers import msg

    found = extract_candidates(
        [msg(1, "We have 7 volunteers and our season starts in May.")]
    )
    assert ("volunteer_count", "7 volunteers") in [(c.key, c.value) for c in found]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        (
            "Just confirming, my favourite music is still jazz.",
            "favorite_music",
            "jazz",
        ),
        ("Our bank is currently Nordea.", "bank", "Nordea"),
        # a title that starts with the word keeps it
        ("Still Game is my favourite show.", "favorite_show", "Still Game"),
    ],
)
def test_a_confirmation_states_the_value_without_still(
    text: str, key: str, value: str
) -> None:
    assert [(c.key, c.value) for c in extract(text)] == [(key, value)]
