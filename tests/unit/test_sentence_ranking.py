"""A turn is found through its closest sentence, as well as through its whole text."""

import numpy as np
import pytest

from memory_lab.embeddings import default_embedder
from memory_lab.episodes.sentences import SentenceRows, sentence_units
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.stores.memory import InMemoryEpisodeStore, InMemoryTranscriptStore
from tests.helpers import msg


def _turn(i, text, speaker="Ines"):
    return msg(i, text).model_copy(update={"speaker": speaker})


def test_a_long_turn_is_cut_into_its_sentences_each_with_its_speaker():
    turn = _turn(
        0,
        "Work has been brutal lately. I unwind most nights with my cello - "
        "an hour of scales and I feel human again! Ha.",
    )
    assert sentence_units(turn) == [
        "Ines: Work has been brutal lately.",
        "Ines: I unwind most nights with my cello",
        "Ines: an hour of scales and I feel human again!",
    ]


def test_a_one_sentence_turn_has_no_rows_of_its_own():
    assert sentence_units(_turn(0, "Off to the allotment before the rain comes.")) == []
    # Pieces too short to say anything leave one sentence: no rows either.
    assert sentence_units(_turn(1, "Ha! Yes. Off to the allotment now.")) == []


def test_a_turns_closest_sentence_scores_it_and_a_turn_without_rows_keeps_its_own():
    rows = SentenceRows()
    query = np.array([1.0, 0.0])
    rows.extend(np.array([[0.0, 1.0], [1.0, 0.0]]), [0, 0])
    whole = np.array([0.2, 0.5])
    assert rows.closest(whole, query).tolist() == [1.0, 0.5]


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def _ranked_place(index, transcript, turns, question, turn_id):
    episodes = InMemoryEpisodeStore(index.embedder)
    ranked = index.rank(transcript, episodes, "t1", question, [], extra=turns)
    return [m.id for m, _ in ranked].index(turn_id)


def test_the_clause_that_answers_lifts_a_turn_that_is_mostly_about_something_else(
    embedder,
):
    # Music is talked of all round; only the long turn says what is played.
    said = [
        "We went to a jazz concert on Saturday and the band was brilliant.",
        "My son wants to join the school choir next term.",
        "The radio in the car only plays old pop songs.",
        "Tickets for the orchestra sold out in an hour.",
        "My manager moved every deadline up a week, so the whole team is "
        "stressed. To cope I go for long walks, read crime novels, or practise "
        "my cello for an hour. The quarterly review is on Friday anyway.",
        "Our neighbours are redoing their kitchen and the drilling never stops.",
        "I've been trying to get to bed before eleven this month.",
        "The garden needs weeding but it keeps raining at the weekend.",
    ]
    with_rows = TurnIndex(embedder)
    without = TurnIndex(embedder)
    transcript = InMemoryTranscriptStore()
    turns = transcript.append(
        "t1", "main", [_turn(i, text, speaker="") for i, text in enumerate(said)]
    )
    question = "Which musical instrument do I play?"
    # An index whose turns are their own closest sentences ranks by whole turns.
    without._window_closest = lambda turns, whole, query: whole
    place_with = _ranked_place(with_rows, transcript, turns, question, turns[4].id)
    place_without = _ranked_place(without, transcript, turns, question, turns[4].id)
    # Recency and the whole-turn ranking still weigh: it comes first or second.
    assert place_with <= 1
    assert place_with < place_without


def test_grouped_closest_equals_each_turns_best_row_taken_one_by_one():
    rng = np.random.default_rng(7)
    rows = SentenceRows()
    owners = sorted(rng.choice(40, size=90).tolist())
    vectors = rng.normal(size=(90, 8)).astype(np.float32)
    rows.extend(vectors[:50], owners[:50])
    rows.extend(vectors[50:], owners[50:])
    whole = rng.normal(size=30)
    query = rng.normal(size=8).astype(np.float32)
    expected = whole.copy()
    for vector, owner in zip(vectors, owners, strict=True):
        if owner < len(whole):
            expected[owner] = max(expected[owner], float(vector @ query))
    assert np.allclose(rows.closest(whole, query), expected, atol=1e-5)


def test_rows_added_out_of_turn_order_are_refused():
    rows = SentenceRows()
    rows.extend(np.ones((2, 3)), [4, 5])
    with pytest.raises(ValueError, match="turn order"):
        rows.extend(np.ones((1, 3)), [2])
