"""One fact, one row: paraphrases merge, distinct facts stay apart."""

import pytest

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.embeddings import default_embedder
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from tests.helpers import T0, cand


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def _memory(embedder) -> FactMemory:
    return FactMemory(
        InMemoryFactStore(),
        InMemoryEventLog(),
        ManualClock(T0),
        FactConfig(),
        embedder=embedder,
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            ("choice.quarterly_vat_reporting", "quarterly VAT reporting", "decision"),
            ("decided.go_quarterly_vat", "go with quarterly VAT reporting", "decision"),
        ),
        (("home_city", "Uppsala", "identity"), ("lives_in", "Uppsala", "identity")),
        (
            ("diet", "vegetarian", "constraint"),
            ("is.vegetarian", "vegetarian", "constraint"),
        ),
        (("employer", "Acme", "identity"), ("works_at", "Acme Corp", "identity")),
    ],
)
def test_a_paraphrase_updates_or_confirms_instead_of_adding(embedder, first, second):
    memory = _memory(embedder)
    memory.write("t", cand(first[0], first[1], category=first[2]))
    event = memory.write("t", cand(second[0], second[1], category=second[2], turn="m2"))
    assert event.kind in ("fact_confirmed", "fact_superseded")
    (row,) = memory.active("t")
    assert row.key == first[0] and row.value in (first[1], second[1])


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            ("reply_language", "English", "instruction"),
            ("answer_length", "short", "instruction"),
        ),
        (
            ("likes.jazz", "jazz", "preference"),
            ("likes.hiking", "hiking", "preference"),
        ),
        (
            ("allergy.peanuts", "peanuts", "constraint"),
            ("allergy.shellfish", "shellfish", "constraint"),
        ),
        (
            ("brother.home_city", "Oslo", "knowledge"),
            ("sister.home_city", "Bergen", "knowledge"),
        ),
        (
            ("employee_count", "4 employees", "knowledge"),
            ("fiscal_year", "January to December", "knowledge"),
        ),
        (
            ("pet.dog", "a dog named Rex", "knowledge"),
            ("pet.cat", "a cat named Mia", "knowledge"),
        ),
        # One value under unrelated slots: the texts are alike (0.77), the slots not.
        (("city", "tea zqalpha", "knowledge"), ("drink", "tea zqalpha", "knowledge")),
        (("city", "oslo", "knowledge"), ("job", "oslo", "knowledge")),
        (("favourite_food", "pizza", "preference"), ("drink", "pizza", "preference")),
    ],
)
def test_distinct_facts_stay_apart(embedder, first, second):
    memory = _memory(embedder)
    memory.write("t", cand(first[0], first[1], category=first[2]))
    memory.write("t", cand(second[0], second[1], category=second[2], turn="m2"))
    assert sorted(f.key for f in memory.active("t")) == sorted([first[0], second[0]])


def test_meaning_never_merges_across_subjects_or_categories(embedder):
    memory = _memory(embedder)
    memory.write("t", cand("home_city", "Uppsala", category="identity"))
    memory.write("t", cand("lives_in", "Uppsala", category="identity", subject="anna"))
    memory.write("t", cand("lives_in", "Uppsala", category="knowledge", turn="m3"))
    assert len(memory.active("t")) == 3


def test_an_extracted_value_replacing_another_is_flagged_until_confirmed(embedder):
    memory = _memory(embedder)
    memory.write("t", cand("home_city", "Oslo", category="identity"))
    event = memory.write(
        "t", cand("home_city", "Uppsala", category="identity", turn="m2")
    )
    assert "flagged for review" in event.detail
    (flagged,) = memory.flagged("t")
    assert flagged.value == "Uppsala" and flagged.conflicts_with is not None
    memory.confirm("t", flagged.id)
    assert memory.flagged("t") == []


def test_two_readings_of_one_sentence_keep_the_first_and_flag_nothing(embedder):
    memory = _memory(embedder)
    memory.write(
        "t",
        cand(
            "choice.quarterly_vat_reporting",
            "quarterly VAT reporting",
            category="decision",
        ),
    )
    memory.write(
        "t",
        cand(
            "decided.go_quarterly_vat",
            "go with quarterly VAT reporting",
            category="decision",
        ),
    )
    (row,) = memory.active("t")
    assert row.value == "quarterly VAT reporting"
    assert len(memory.rows("t")) == 1 and memory.flagged("t") == []


def test_facts_naming_other_numbers_are_never_merged(embedder):
    memory = _memory(embedder)
    for i in range(4):
        memory.write("t", cand(f"w0_{i}", f"value w0 {i}", turn=f"m{i}"))
    memory.write("t", cand("meeting_room", "room 101", turn="m8"))
    memory.write("t", cand("meeting_place", "room 102", turn="m9"))
    assert len(memory.active("t")) == 6
