"""A question's expected answer type, and the turns that name one ranked higher."""

import pytest

from memory_lab.embeddings import default_embedder
from memory_lab.episodes.answer_types import (
    PERSON,
    PLACE,
    WORK,
    EntityLabels,
    expected_types,
)
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.stores.memory import InMemoryEpisodeStore, InMemoryTranscriptStore
from tests.helpers import msg


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("Which towns did Ola stay in on the road trip?", PLACE),
        ("What Scandinavian countries has Ola lived in?", PLACE),
        ("Where does my brother work these days?", PLACE),
        ("Who did Priya go to the gig with?", PERSON),
        ("What are the names of her two cats?", PERSON),
        ("What films has Omar watched lately?", WORK),
        ("Which novels did the book club pick?", WORK),
        ("What did Omar cook on Sunday?", frozenset()),
        ("What kind of music does she like?", frozenset()),
        ("How are you?", frozenset()),
        ("", frozenset()),
    ],
)
def test_the_wh_phrase_names_the_kind_of_answer(question, wanted):
    assert expected_types(question) == wanted


def test_labels_are_read_once_per_turn():
    labels = EntityLabels()
    turns = [msg(0, "We flew from Oslo to Rome."), msg(1, "It rained all week.")]
    first = labels.of(turns)
    assert first is not None
    assert "GPE" in first[0]
    assert not first[1] & PLACE
    # A kept label is read back, not parsed again: the same object comes back.
    assert labels.of(turns[:1])[0] is first[0]


SAID = [
    "Honestly the best part of travelling is the food markets.",
    "I always pack too many shoes when I go away.",
    "The train journey took forever but the views were worth it.",
    "Airports stress me out, I get there three hours early.",
    "My cousin's wedding in Porto was lovely, though the speeches went on for ages.",
    "My suitcase wheel broke on the way home, typical.",
    "I want to see more of Europe next summer.",
    "Hotel breakfasts are the secret highlight of any holiday.",
]


def test_a_turn_naming_a_place_rises_for_a_question_about_places():
    embedder = default_embedder()
    transcript = InMemoryTranscriptStore()
    turns = transcript.append("t1", "main", [msg(i, t) for i, t in enumerate(SAID)])
    question = "Which cities has Ola been to?"

    def place(index):
        episodes = InMemoryEpisodeStore(embedder)
        ranked = index.rank(transcript, episodes, "t1", question, [], extra=turns)
        return [m.id for m, _ in ranked].index(turns[4].id)

    typed = TurnIndex(embedder)
    untyped = TurnIndex(embedder)
    untyped._labels.of = lambda turns: None  # as with no parser installed
    # Travel talk outranks it by meaning; the city it names lifts it.
    assert place(typed) < place(untyped)
    assert place(typed) <= 1
