"""Systems under test on hand-built conversations with known right answers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memlab_evals.systems import (
    BASELINES,
    Context,
    MemorySystem,
    System,
    make_system,
    split_systems,
    system_params,
)

from memory_lab.recipes import recipe
from memory_lab.text import turn_line
from memory_lab.tokens import default_counter
from tests.helpers import T0, msg

FILLER = [
    "We talked about the weather and the weekend plans again.",
    "The meeting moved to Thursday afternoon after lunch.",
    "I need to buy groceries and maybe some coffee beans.",
    "The train was late, so I read a book on the platform.",
    "My sister called about the birthday dinner next month.",
    "I tried a new pasta recipe with tomatoes and basil.",
]


def conversation(n: int = 24, rare_at: int | None = None) -> list:
    """n turns alternating user/assistant, one of them naming a rare word."""
    turns = []
    for i in range(n):
        text = FILLER[i % len(FILLER)] + f" Note {i}."
        if i == rare_at:
            text = "My grandmother's parrot is called Zanzibarino and it sings."
        turns.append(
            msg(
                i,
                text,
                role="user" if i % 2 == 0 else "assistant",
                speaker="Ana" if i % 2 == 0 else "Bot",
            )
        )
    return turns


def feed(name: str, turns: list, budget: int, **kw) -> System:
    system = make_system(
        name, budget=budget, tenant="t1", start=turns[0].timestamp, **kw
    )
    for turn in turns:
        system.ingest(turn)
    return system


def test_full_holds_every_turn_in_order():
    turns = conversation(30)
    system = feed("full", turns, budget=50)
    ctx = system.context("anything")
    assert ctx.items == [t.id for t in turns]
    assert ctx.text == "\n".join(turn_line(t) for t in turns)
    assert ctx.tokens == default_counter().count(ctx.text)
    assert ctx.tokens > 50  # no budget applies to full


def test_window_holds_the_newest_turns_that_fit():
    turns = conversation(30)
    budget = 120
    system = feed("window", turns, budget=budget)
    ctx = system.context("anything")
    ids = [t.id for t in turns]
    assert ctx.items, "a 120-token window holds at least one short turn"
    assert ctx.items == ids[-len(ctx.items) :]  # a suffix: the newest turns
    assert ctx.tokens <= budget
    one_more = "\n".join(turn_line(t) for t in turns[-len(ctx.items) - 1 :])
    assert default_counter().count(one_more) > budget  # the next older does not fit
    assert system.stored_tokens() <= budget + len(ctx.items)


def test_window_cuts_a_newest_turn_too_long_alone():
    turns = conversation(3) + [msg(3, "word " * 400, speaker="Ana")]
    ctx = feed("window", turns, budget=60).context("q")
    assert ctx.items == ["m3"]
    assert 0 < ctx.tokens <= 60


def test_bm25_finds_the_turn_with_the_rare_word():
    turns = conversation(40, rare_at=13)
    ctx = feed("rag-bm25", turns, budget=60).context("What is the parrot called?")
    assert "m13" in ctx.items
    assert "Zanzibarino" in ctx.text
    assert ctx.tokens <= 60


def test_bm25_shows_chosen_turns_in_chronological_order():
    turns = conversation(40, rare_at=30)
    ctx = feed("rag-bm25", turns, budget=400).context("parrot weather coffee")
    positions = [int(i.removeprefix("m")) for i in ctx.items]
    assert positions == sorted(positions)
    assert len(positions) > 1


def test_bm25_returns_nothing_when_no_word_matches():
    ctx = feed("rag-bm25", conversation(10), budget=200).context("xylophone quasar")
    assert ctx == Context("", 0, [])


def test_embedding_retrieval_prefers_the_related_turn():
    turns = conversation(20, rare_at=7)
    ctx = feed("rag-embed", turns, budget=40).context("what is the name of my bird")
    assert "m7" in ctx.items
    assert ctx.tokens <= 40


def test_none_is_empty_and_stores_nothing():
    system = feed("none", conversation(10), budget=500)
    assert system.context("anything") == Context("", 0, [])
    assert system.stored_tokens() == 0


def test_hybrid_finds_both_the_rare_word_and_the_paraphrase():
    # BM25 alone misses the paraphrase (no shared word), embeddings alone rank the
    # rare name low; the fused ranking holds both turns within a small budget.
    turns = conversation(40, rare_at=7)
    turns[25] = msg(25, "Our flight to Reykjavik leaves on the ninth.", speaker="Ana")
    question = "Zanzibarino plane trip Iceland"
    ctx = feed("rag-hybrid", turns, budget=80).context(question)
    assert {"m7", "m25"} <= set(ctx.items)
    assert ctx.tokens <= 80
    bm25 = feed("rag-bm25", turns, budget=80).context(question)
    assert "m25" not in bm25.items


def test_hybrid_is_deterministic_and_chronological():
    turns = conversation(30, rare_at=12)
    system = feed("rag-hybrid", turns, budget=200)
    first, second = system.context("parrot coffee"), system.context("parrot coffee")
    assert first == second
    positions = [int(i.removeprefix("m")) for i in first.items]
    assert positions == sorted(positions)


@pytest.mark.parametrize(
    "name", ["full", "window", "rag-bm25", "rag-embed", "rag-hybrid", "none"]
)
def test_baselines_store_no_facts_or_episodes(name):
    system = feed(name, conversation(6), budget=100)
    assert system.stored_facts() == []
    assert system.episode_stats() == []
    assert system.cost().calls == 0


texts = st.text(
    alphabet=st.sampled_from("abcdefghij klmnop qrstuvwxyz.,!?\n"),
    min_size=1,
    max_size=300,
)


@settings(max_examples=30, deadline=None)
@given(
    contents=st.lists(texts, min_size=1, max_size=25),
    budget=st.integers(min_value=1, max_value=300),
    question=texts,
    name=st.sampled_from(["window", "rag-bm25", "none"]),
)
def test_budgeted_baselines_never_exceed_the_budget(contents, budget, question, name):
    turns = [
        msg(i, c, at=T0 + timedelta(minutes=i), speaker="Ana")
        for i, c in enumerate(contents)
    ]
    ctx = feed(name, turns, budget=budget).context(question)
    assert ctx.tokens <= budget
    assert ctx.tokens == default_counter().count(ctx.text)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["A", "B(b_high_water=200,b_low_water=100)", "C"])
def test_memory_recipes_respect_the_budget_on_a_real_data_folder(name, tmp_path):
    turns = conversation(40, rare_at=5)
    system = feed(name, turns, budget=150, data_dir=tmp_path / "data")
    try:
        assert isinstance(system, MemorySystem)
        ctx = system.context("What is the parrot called?")
        assert 0 < ctx.tokens <= 150
        assert ctx.items  # the engine's blocks name what they hold
        assert system.stored_tokens() > 0
        assert system.cost().brain  # which brain built the memory is recorded
    finally:
        system.close()
    assert (tmp_path / "data" / "memory.sqlite3").exists()


def test_memory_recipe_compresses_and_reports_episodes():
    turns = conversation(30)
    system = feed("A(a_max_messages=8,a_keep_last=2)", turns, budget=400)
    try:
        episodes = system.episode_stats()
        assert system.cost().compressions >= 2
        assert episodes and all(e.original_tokens > 0 for e in episodes)
    finally:
        system.close()


def test_systems_list_keeps_commas_inside_parameters():
    names = split_systems("A, B(b_high_water=800,b_low_water=400) ,full,rag-bm25")
    assert names == ["A", "B(b_high_water=800,b_low_water=400)", "full", "rag-bm25"]


def test_recipe_parameters_are_applied_and_logged():
    rec = recipe("A+B(a_max_messages=30, b_high_water=900)")
    assert rec.params_of("A").max_messages == 30
    assert rec.params_of("B").high_water == 900
    logged = system_params("A(a_max_messages=30)")["triggers"][0]
    assert logged == {"name": "A", "params": {"max_messages": 30, "keep_last": 10}}
    assert system_params("window") == {}


@pytest.mark.parametrize(
    "spec", ["A,bm25", "A,Z", "A(a_bogus=1)", "A(a_max_messages=30", "A,A", ""]
)
def test_bad_systems_are_refused_with_a_reason(spec):
    with pytest.raises(ValueError) as err:
        split_systems(spec)
    assert str(err.value)


def test_unknown_system_error_lists_the_known_names():
    with pytest.raises(ValueError) as err:
        split_systems("A,rag-bm52")
    message = str(err.value)
    assert "rag-bm52" in message
    for baseline in BASELINES:
        assert baseline in message
