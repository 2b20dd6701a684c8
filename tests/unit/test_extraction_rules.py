from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_lab.brains.offline.rules import (
    CONFIDENCE_CORRECTION,
    extract_candidates,
    slug,
)
from memory_lab.text import split_sentences, strip_injected_memory
from memory_lab.types import FactCandidate, Message

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def msg(
    text: str,
    *,
    role: str = "user",
    speaker: str = "",
    mid: str = "S1:1",
    session: str = "S1",
) -> Message:
    return Message(
        id=mid,
        tenant="t",
        session=session,
        role=role,
        content=text,
        timestamp=T0,
        speaker=speaker,
    )


def extract(*texts: str, **kw: str) -> list[FactCandidate]:
    messages = [msg(t, mid=f"S1:{i}", **kw) for i, t in enumerate(texts, 1)]
    return extract_candidates(messages)


def slots(cands: list[FactCandidate]) -> set[tuple[str, str, str]]:
    return {(c.category, c.key, c.value) for c in cands}


# --- pattern families


@pytest.mark.parametrize(
    ("text", "category", "key", "value"),
    [
        # identity
        ("My name is Alex and I prefer Python.", "identity", "name", "Alex"),
        ("Hi, I'm Maria, a nurse from Spain.", "identity", "name", "Maria"),
        ("Call me Al.", "identity", "name", "Al"),
        (
            "I live in Stockholm with my wife Anna.",
            "identity",
            "home_city",
            "Stockholm",
        ),
        ("I live in Stockholm with my wife Anna.", "identity", "wife.name", "Anna"),
        ("I work at Spotify as a data engineer.", "identity", "employer", "Spotify"),
        (
            "I work at Spotify as a data engineer.",
            "identity",
            "job_title",
            "data engineer",
        ),
        (
            "I work as a software engineer.",
            "identity",
            "job_title",
            "software engineer",
        ),
        ("I'm 34 years old.", "identity", "age", "34"),
        ("My birthday is on March 3rd.", "identity", "birthday", "March 3rd"),
        ("I was born in 1990.", "identity", "birth_year", "1990"),
        ("I'm from Gothenburg originally.", "identity", "hometown", "Gothenburg"),
        ("My sister Emma is a doctor.", "identity", "sister.emma", "Emma"),
        # preference
        (
            "My name is Alex and I prefer Python.",
            "preference",
            "programming_language",
            "Python",
        ),
        ("I prefer tea over coffee.", "preference", "prefers.coffee_or_tea", "tea"),
        ("I love hiking and skiing.", "preference", "likes.hiking", "hiking"),
        ("I love hiking and skiing.", "preference", "likes.skiing", "skiing"),
        ("I hate cilantro.", "preference", "dislikes.cilantro", "cilantro"),
        ("I don't like jazz.", "preference", "dislikes.jazz", "jazz"),
        ("My favourite colour is blue.", "preference", "favorite_color", "blue"),
        # constraint
        (
            "I'm allergic to peanuts and shellfish.",
            "constraint",
            "allergy.peanuts",
            "peanuts",
        ),
        (
            "I'm allergic to peanuts and shellfish.",
            "constraint",
            "allergy.shellfish",
            "shellfish",
        ),
        ("I can't drive.", "constraint", "cannot.drive", "drive"),
        ("I don't eat pork.", "constraint", "diet.no.pork", "pork"),
        ("I'm vegetarian.", "constraint", "diet", "vegetarian"),
        ("I'm lactose intolerant.", "constraint", "intolerance.lactose", "lactose"),
        (
            "Our budget is at most 5000 kr per month.",
            "constraint",
            "budget",
            "at most 5000 kr per month",
        ),
        # instruction
        (
            "Always use metric units.",
            "instruction",
            "always.use_metric_units",
            "Always use metric units",
        ),
        ("Never use emojis.", "instruction", "never.use_emojis", "Never use emojis"),
        (
            "Please remember to check the VAT deadline.",
            "instruction",
            "remember.check_vat_deadline",
            "check the VAT deadline",
        ),
        ("Reply in Swedish please.", "instruction", "reply_language", "Swedish"),
        (
            "Can you reply in Swedish from now on?",
            "instruction",
            "reply_language",
            "Swedish",
        ),
        ("Keep answers short.", "instruction", "answer_length", "short"),
        ("Don't use jargon.", "instruction", "never.use_jargon", "Don't use jargon"),
        # decision
        (
            "We decided to postpone closing October until invoices are paid.",
            "decision",
            "decided.postpone_closing_october",
            "postpone closing October",
        ),
        (
            "I chose K2 over K3 for the annual report.",
            "decision",
            "accounting_standard",
            "K2",
        ),
        ("We'll go with Fortnox.", "decision", "accounting_software", "Fortnox"),
        (
            "I'm going to hire a third employee next spring.",
            "decision",
            "plan.hire_third_employee",
            "hire a third employee next spring",
        ),
        # knowledge
        ("We have 2 employees.", "knowledge", "employee_count", "2 employees"),
        (
            "Our fiscal year runs January to December.",
            "knowledge",
            "fiscal_year",
            "January to December",
        ),
        ("I use Visma for payroll.", "knowledge", "accounting_software", "Visma"),
        ("We're using Slack for chat.", "knowledge", "uses.slack", "Slack"),
        ("My brother lives in Oslo.", "knowledge", "brother.home_city", "Oslo"),
        # unresolved
        (
            "I still need to review the October transactions.",
            "unresolved",
            "todo.review_october_transactions",
            "review the October transactions",
        ),
        (
            "I haven't decided whether to sell the company.",
            "unresolved",
            "undecided.sell_company",
            "to sell the company",
        ),
        (
            "Remind me to pay the invoice on Friday.",
            "unresolved",
            "reminder.pay_invoice_friday",
            "pay the invoice on Friday",
        ),
        (
            "TODO: send the K10 form",
            "unresolved",
            "todo.send_k10_form",
            "send the K10 form",
        ),
        (
            "I'm not sure whether we should switch banks.",
            "unresolved",
            "undecided.we_should_switch",
            "we should switch banks",
        ),
    ],
)
def test_pattern_family_extracts_slot(text, category, key, value):
    assert (category, key, value) in slots(extract(text))


# --- what must not be stored


@pytest.mark.parametrize(
    "text",
    [
        "If I were to move to Oslo, what would the taxes be?",
        "Suppose I moved to Bergen.",
        "Imagine I live in Paris.",
        "Would I like living in Oslo?",
        "Should I switch to K3?",
        "Do you think I prefer tea?",
        "I live on Mars lol jk",
        "I'm allergic to Mondays, just kidding.",
        "Haha no, I hate everything.",
        "I don't think I like sushi.",
        "I'm not allergic to anything.",
        "I used to live in Malmö.",
        "No, I don't want that.",
        "Let's go with that.",
        "I'm not sure I like Oslo.",
        "It's not that I live in Oslo.",
        "I can't wait to see you!",
        "I'm Swedish, by the way.",
        "Don't worry about it.",
    ],
)
def test_traps_store_nothing(text):
    assert extract(text) == []


def test_third_party_fact_is_not_the_users():
    cands = extract("My brother lives in Oslo and my sister works at IKEA.")
    keys = {c.key for c in cands}
    assert "home_city" not in keys
    assert "employer" not in keys
    assert {"brother.home_city", "sister.employer"} <= keys
    assert all(c.category == "knowledge" for c in cands)


def test_assistant_suggestion_is_never_the_users_fact():
    messages = [
        msg("You could use Fortnox, and you live in Oslo, right?", role="assistant"),
        msg("No, I don't want that.", mid="S1:2"),
    ]
    assert extract_candidates(messages) == []


def test_system_turns_are_never_read():
    assert extract_candidates([msg("My name is Root.", role="system")]) == []


def test_named_speakers_in_assistant_role_are_people():
    cands = extract_candidates(
        [
            msg(
                "I love painting and I live in Boston.",
                role="assistant",
                speaker="Melanie",
            )
        ]
    )
    assert {c.subject for c in cands} == {"melanie"}
    assert {"likes.painting", "home_city"} <= {c.key for c in cands}


def test_encouragement_between_people_is_not_an_instruction():
    cands = extract("Don't give up on your dreams. Always be yourself.", speaker="Tim")
    assert [c for c in cands if c.category == "instruction"] == []
    assert any(c.category == "instruction" for c in extract("Don't use jargon."))


def test_a_speaker_labelled_user_still_instructs_the_assistant():
    # data sets label the assistant's user "User"; that is not a second person
    cands = extract("Always use metric units.", speaker="User")
    assert [(c.subject, c.category) for c in cands] == [("user", "instruction")]


def test_subject_defaults_to_user_without_speaker():
    assert {c.subject for c in extract("My name is Alex.")} == {"user"}


# --- corrections


def test_switch_correction_shares_slot_with_original_and_is_more_confident():
    first, second = extract(
        "I use K2 for the annual report.", "Actually I switched to K3."
    )
    assert (first.category, first.key, first.value) == (
        "knowledge",
        "accounting_standard",
        "K2",
    )
    assert (second.category, second.key, second.value) == (
        "knowledge",
        "accounting_standard",
        "K3",
    )
    assert second.confidence == CONFIDENCE_CORRECTION > first.confidence


def test_not_anymore_correction_follows_the_earlier_category():
    cands = extract(
        "I chose K2 over K3 for the annual report.", "Not K2 anymore, it's K3."
    )
    assert [(c.category, c.key, c.value) for c in cands] == [
        ("decision", "accounting_standard", "K2"),
        ("decision", "accounting_standard", "K3"),
    ]


def test_a_retracted_choice_lands_on_the_slot_it_retracts():
    cands = extract(
        "We decided to go with K2.",
        "Scratch that, the accountant convinced us to use K1.",
    )
    assert [(c.category, c.key, c.value) for c in cands] == [
        ("decision", "accounting_standard", "K2"),
        ("decision", "accounting_standard", "K1"),
    ]
    assert cands[1].confidence > cands[0].confidence


def test_a_settled_choice_is_stored_and_an_agreement_is_not():
    (choice,) = extract("Decision made: K3 it is.")
    assert (choice.category, choice.key, choice.value) == (
        "decision",
        "accounting_standard",
        "K3",
    )
    assert extract("Yes it is!") == []


def test_one_reply_language_slot_however_it_is_worded():
    cands = extract("Always answer in French.", "Answer in German from now on.")
    assert [(c.key, c.value) for c in cands] == [
        ("reply_language", "French"),
        ("reply_language", "German"),
    ]
    (never,) = extract("Never answer in French.")
    assert never.key == "never.answer_french"


def test_its_now_correction_lands_on_the_previous_slot():
    cands = extract("My favourite colour is blue.", "No, it's green now.")
    assert [(c.key, c.value) for c in cands] == [
        ("favorite_color", "blue"),
        ("favorite_color", "green"),
    ]
    assert cands[1].confidence > cands[0].confidence


def test_its_now_without_an_earlier_fact_stores_nothing():
    assert extract("No, it's green now.") == []
    assert extract("My favourite colour is blue.", "No, it's fine now.")[1:] == []


def test_restated_slot_with_correction_marker_is_more_confident():
    first, second = extract("I live in Oslo.", "Actually, I live in Bergen now.")
    assert first.key == second.key == "home_city"
    assert second.value == "Bergen"
    assert second.confidence == CONFIDENCE_CORRECTION


def test_correction_of_a_fact_from_an_older_batch_uses_prior():
    prior = [
        FactCandidate(
            category="preference", key="prefers.tea", value="green tea", subject="user"
        )
    ]
    (cand,) = extract_candidates([msg("Not green tea anymore, rooibos.")], prior=prior)
    assert (cand.category, cand.key, cand.value) == (
        "preference",
        "prefers.tea",
        "rooibos",
    )


def test_correction_ignores_other_subjects_facts():
    messages = [
        msg("My favourite colour is blue.", speaker="Anna", mid="a1"),
        msg("No, it's green now.", speaker="Bob", mid="b1"),
    ]
    assert [c.subject for c in extract_candidates(messages)] == ["anna"]


# --- confidence, provenance


def test_explicit_and_hedged_confidence_bands():
    (explicit,) = extract("I live in Uppsala.")
    (hedged,) = extract("I think I live in Uppsala.")
    assert 0.85 <= explicit.confidence <= 0.9
    assert 0.5 <= hedged.confidence <= 0.6


def test_importance_follows_category():
    by_cat = {
        c.category: c.importance
        for c in extract("Never use emojis. We have 2 employees.")
    }
    assert by_cat["instruction"] > by_cat["knowledge"]


def test_provenance_cites_session_turn_and_sentence():
    message = msg("Hello there. I'm allergic to cats. Bye!", mid="D3:7", session="D3")
    (cand,) = extract_candidates([message])
    assert cand.session == "D3"
    assert cand.turn_ids == ["D3:7"]
    assert cand.evidence == "I'm allergic to cats."
    assert cand.source == "extracted"


def test_one_slot_per_turn():
    cands = extract("Not K2 anymore, we use K3.")
    assert [(c.key, c.value) for c in cands] == [("accounting_standard", "K3")]


# --- injected memory


def test_injected_memory_is_not_reextracted():
    text = (
        '<memory kind="facts">My name is Bob. I live in Paris.</memory>\n'
        "[MEMORY] I'm allergic to nuts\n"
        "[COMPANY MEMORY]\n- I use K2\n[END COMPANY MEMORY]\n"
        "I live in Bergen."
    )
    assert slots(extract(text)) == {("identity", "home_city", "Bergen")}


def test_unterminated_memory_tag_is_dropped():
    assert "Paris" not in strip_injected_memory(
        "I live in Oslo. <memory>I live in Paris"
    )


# --- helpers


def test_slug_is_short_and_normalised():
    assert slug("the Hiking Trips in Norway") == "hiking_trips_norway"
    assert slug("favourite colour") == "favorite_color"


def test_split_sentences_keeps_abbreviations_together():
    assert split_sentences("I like e.g. tea. Dr. Smith agrees!\nNew line") == [
        "I like e.g. tea.",
        "Dr. Smith agrees!",
        "New line",
    ]


# --- properties

NAMES = st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True)
OBJECTS = st.sampled_from(
    [
        "hiking",
        "jazz music",
        "green tea",
        "board games",
        "peanuts",
        "K3",
        "Python",
        "the mountains",
        "Fortnox",
        "cats and dogs",
        "early mornings",
    ]
)
TEMPLATES = st.sampled_from(
    [
        "My name is {name}.",
        "Hi, I'm {name}, nice to meet you.",
        "I live in {name} with my partner {name2}.",
        "I work at {name} as a {obj} teacher.",
        "I really love {obj}.",
        "I prefer {obj} over {obj2}.",
        "I'm allergic to {obj}, {obj2} and dust.",
        "My favourite food is {obj}.",
        "We decided to use {obj}.",
        "I chose {obj} over {obj2}.",
        "I use {obj} every day.",
        "Actually I switched to {obj}.",
        "Not {obj} anymore, it's {obj2}.",
        "I still need to buy {obj}.",
        "Remind me to book {obj}.",
        "My sister {name} lives in {name2}.",
        "I think I like {obj}.",
        "Always mention {obj} first.",
        "I'm not sure whether to try {obj}.",
    ]
)
FRAMES = st.sampled_from(
    ["{s}", "Well, {s}", "Hey! {s} Thanks.", "{s} lol", "OK.\n{s}"]
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    template=TEMPLATES,
    frame=FRAMES,
    name=NAMES,
    name2=NAMES,
    obj=OBJECTS,
    obj2=OBJECTS,
    upper=st.booleans(),
)
def test_values_and_evidence_are_verbatim_spans(
    template, frame, name, name2, obj, obj2, upper
):
    sentence = template.format(name=name, name2=name2, obj=obj, obj2=obj2)
    text = frame.format(s=sentence)
    text = text.upper() if upper else text
    message = msg(text, mid="X:1")
    cands = extract_candidates([message])
    if not upper:
        assert cands, "every template states a fact"
    for cand in cands:
        assert cand.value.strip() and cand.value.casefold() in text.casefold()
        assert cand.evidence in text
        assert cand.value.casefold() in cand.evidence.casefold()
        assert cand.turn_ids == ["X:1"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_breaks_the_span_guarantee(text):
    for cand in extract_candidates([msg(text)]):
        assert cand.value.casefold() in text.casefold()
        assert cand.evidence in text


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(TEMPLATES, OBJECTS, NAMES), min_size=1, max_size=6))
def test_extraction_is_deterministic(parts):
    messages = [
        msg(t.format(name=n, name2=n, obj=o, obj2=o), mid=f"S:{i}")
        for i, (t, o, n) in enumerate(parts)
    ]
    assert extract_candidates(messages) == extract_candidates(messages)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_sentences_are_substrings(text):
    for sentence in split_sentences(text):
        assert sentence and sentence in text
