from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_lab.brains.offline.summarizer import condense_text, summarize_extractive
from memory_lab.tokens import default_counter
from memory_lab.types import Message

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
COUNTER = default_counter()
# Words the summariser may add on its own: the small-talk phrase only.
LABELS = {"small", "talk", "between", "and", "from"}


class WordCounter:
    """Counts whitespace words, to show the budget follows the injected counter."""

    def count(self, text: str) -> int:
        return len(text.split())


def turns(
    *pairs: tuple[str, str], speakers: dict[str, str] | None = None
) -> list[Message]:
    speakers = speakers or {}
    return [
        Message(
            id=f"S1:{i}",
            tenant="t",
            session="S1",
            role=role,
            content=text,
            timestamp=T0 + timedelta(minutes=i),
            speaker=speakers.get(role, ""),
        )
        for i, (role, text) in enumerate(pairs)
    ]


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[\w'’+#-]+", text)}


def source_words(messages: list[Message]) -> set[str]:
    out = set(LABELS)
    for m in messages:
        out |= words(m.content) | words(m.who)
    return out


BUSINESS = turns(
    ("user", "Hi there! Good morning."),
    ("assistant", "Good morning! How can I help you today?"),
    (
        "user",
        "Can you explain the difference between K2 and K3 for my annual report? "
        "We have 2 employees and revenue of 3.2 MSEK.",
    ),
    (
        "assistant",
        "K2 is a simplified framework for smaller companies, while K3 is the main "
        "framework with more judgement.",
    ),
    ("user", "Thanks! We decided to go with K2. I still need to review October."),
    ("assistant", "Great, I can help you review October when you're ready."),
    ("user", "Should we take a dividend this year?"),
)


def test_business_span_keeps_decisions_facts_and_drops_greetings():
    draft = summarize_extractive(BUSINESS, max_tokens=120, counter=COUNTER)
    assert "K2" in draft.summary and "2 employees" in draft.summary
    assert "Good morning" not in draft.summary
    assert "Thanks" not in draft.summary
    assert draft.intent.startswith("Can you explain the difference between K2 and K3")
    assert draft.decisions == ["user: We decided to go with K2."]
    assert "user: I still need to review October." in draft.open_questions
    assert "user: Should we take a dividend this year?" in draft.open_questions
    assert any("2 employees" in fact for fact in draft.key_facts)
    assert len(draft.key_facts) <= 5


def test_answered_question_is_not_open():
    draft = summarize_extractive(BUSINESS, max_tokens=120, counter=COUNTER)
    assert not any("difference between K2" in q for q in draft.open_questions)


def test_lines_are_prefixed_with_the_speaker_and_keep_source_order():
    messages = turns(
        ("user", "I moved to Uppsala in March 2021."),
        ("assistant", "Uppsala has a great university and 230,000 residents."),
        speakers={"user": "Caroline", "assistant": "Melanie"},
    )
    draft = summarize_extractive(messages, max_tokens=200, counter=COUNTER)
    assert draft.summary.splitlines() == [
        "Caroline: I moved to Uppsala in March 2021.",
        "Melanie: Uppsala has a great university and 230,000 residents.",
    ]


def test_tight_budget_prefers_information_dense_sentences():
    messages = turns(
        (
            "user",
            "That sounds really nice, I think it is good and I hope it goes well.",
        ),
        ("user", "Anna Svensson starts on 2025-11-01 in Malmö."),
    )
    draft = summarize_extractive(messages, max_tokens=20, counter=COUNTER)
    assert "Anna Svensson" in draft.summary
    assert "sounds really nice" not in draft.summary


def test_small_talk_span_gets_an_honest_short_summary():
    messages = turns(
        ("user", "Hi Bob! How are you?"),
        ("assistant", "Hey Anna, good thanks! You?"),
        ("user", "Great, thanks! Talk soon."),
        ("assistant", "Bye!"),
        speakers={"user": "Anna", "assistant": "Bob"},
    )
    draft = summarize_extractive(messages, max_tokens=50, counter=COUNTER)
    assert draft.summary == "Small talk between Anna and Bob."
    assert (draft.intent, draft.key_facts, draft.decisions) == ("", [], [])


def test_empty_span_gives_empty_summary():
    assert summarize_extractive([], max_tokens=50, counter=COUNTER).summary == ""


def test_injected_memory_and_system_turns_are_not_summarised():
    messages = [
        *turns(("user", "<memory>user lives in Paris</memory> I bought a Volvo XC60.")),
        Message(
            id="sys",
            tenant="t",
            session="S1",
            role="system",
            content="Secret system prompt about Zanzibar.",
            timestamp=T0,
        ),
    ]
    summary = summarize_extractive(messages, max_tokens=100, counter=COUNTER).summary
    assert "Volvo" in summary
    assert "Paris" not in summary and "Zanzibar" not in summary


def test_budget_uses_the_injected_counter():
    draft = summarize_extractive(BUSINESS, max_tokens=12, counter=WordCounter())
    assert 0 < len(draft.summary.split()) <= 12


def test_a_single_long_sentence_is_cut_to_fit():
    long = "Our consulting firm " + " ".join(f"Project{i}" for i in range(200)) + "."
    draft = summarize_extractive(turns(("user", long)), max_tokens=15, counter=COUNTER)
    assert draft.summary.startswith("user: Our consulting firm")
    assert COUNTER.count(draft.summary) <= 15


# --- condense


RUNNING = "\n".join(
    [
        "user: Hi there, hope you are well.",
        "user: We chose K2 over K3 for the 2024 annual report.",
        "assistant: K2 suits companies with 2 employees like Acme AB.",
        "user: Thanks, that is great to hear.",
        "user: I still need to file the October VAT return by 12 December.",
    ]
)


def test_condense_returns_text_unchanged_when_it_fits():
    assert condense_text(RUNNING, max_tokens=500, counter=COUNTER) == RUNNING


def test_condense_keeps_dense_lines_with_prefixes():
    out = condense_text(RUNNING, max_tokens=40, counter=COUNTER)
    assert COUNTER.count(out) <= 40
    assert "K2" in out
    assert "hope you are well" not in out
    assert all(re.match(r"^(user|assistant): ", line) for line in out.splitlines())


def test_condense_is_idempotent():
    once = condense_text(RUNNING, max_tokens=40, counter=COUNTER)
    assert condense_text(once, max_tokens=40, counter=COUNTER) == once


# --- properties

SENTENCES = st.sampled_from(
    [
        "Hi!",
        "Thanks so much, talk soon.",
        "How are you doing today?",
        "We decided to postpone closing October until invoices are paid.",
        "I live in Stockholm and work at Spotify.",
        "Anna Svensson starts on 2025-11-01.",
        "The dividend was 150,000 kr in December 2025.",
        "Can you explain the K10 rules for 3:12?",
        "I still need to review 3 transactions.",
        "That's really cool, wow.",
        "My favourite colour is blue!",
        "Painting is a great way to relax after a long day at the lake.",
        "Should I switch to K3 next year?",
        "We'll go with Fortnox for bookkeeping; the fee is 299 SEK per month.",
    ]
)
TURN = st.tuples(
    st.sampled_from(["user", "assistant"]),
    st.lists(SENTENCES, min_size=1, max_size=4).map(" ".join),
)


def conversation(pairs: list[tuple[str, str]], named: bool) -> list[Message]:
    speakers = {"user": "Caroline", "assistant": "Melanie"} if named else None
    return turns(*pairs, speakers=speakers)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(
    pairs=st.lists(TURN, min_size=1, max_size=12),
    max_tokens=st.integers(min_value=0, max_value=250),
    named=st.booleans(),
)
def test_summary_always_fits_and_only_uses_source_words(pairs, max_tokens, named):
    messages = conversation(pairs, named)
    draft = summarize_extractive(messages, max_tokens=max_tokens, counter=COUNTER)
    assert COUNTER.count(draft.summary) <= max_tokens
    allowed = source_words(messages)
    assert words(draft.summary) <= allowed
    for item in [
        draft.intent,
        *draft.key_facts,
        *draft.decisions,
        *draft.open_questions,
    ]:
        assert words(item) <= allowed
    assert len(draft.key_facts) <= 5
    assert len(draft.decisions) <= 5
    assert len(draft.open_questions) <= 5


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(TURN, min_size=1, max_size=8), named=st.booleans())
def test_summary_is_deterministic(pairs, named):
    messages = conversation(pairs, named)
    first = summarize_extractive(messages, max_tokens=80, counter=COUNTER)
    again = summarize_extractive(list(messages), max_tokens=80, counter=COUNTER)
    assert first.model_dump_json() == again.model_dump_json()


@settings(max_examples=80, deadline=None)
@given(
    lines=st.lists(
        st.tuples(st.sampled_from(["user", "assistant", "Anna"]), SENTENCES),
        min_size=1,
        max_size=20,
    ),
    max_tokens=st.integers(min_value=0, max_value=120),
)
def test_condense_always_fits_and_only_uses_source_words(lines, max_tokens):
    text = "\n".join(f"{who}: {sentence}" for who, sentence in lines)
    out = condense_text(text, max_tokens=max_tokens, counter=COUNTER)
    assert COUNTER.count(out) <= max_tokens
    assert words(out) <= words(text)


@pytest.mark.parametrize("max_tokens", [0, 1, 3])
def test_tiny_budgets_never_overflow(max_tokens):
    draft = summarize_extractive(BUSINESS, max_tokens=max_tokens, counter=COUNTER)
    assert COUNTER.count(draft.summary) <= max_tokens


def test_budget_too_small_for_any_content_gives_empty_summary():
    draft = summarize_extractive(BUSINESS, max_tokens=2, counter=COUNTER)
    assert draft.summary == ""
