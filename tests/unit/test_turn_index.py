"""The turn index: words, meaning, episode and recency fused; each turn embedded once."""

import numpy as np

from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.stores.memory import InMemoryEpisodeStore, InMemoryTranscriptStore
from tests.helpers import msg

VOCAB = ["parrot", "bird", "coffee", "train", "budget", "flight"]
SAID = ["parrot", "coffee", "train", "budget", "flight"]  # "bird" is never said


class CountingEmbedder:
    """Bag-of-vocabulary vectors ("bird" also lights "parrot"), counting each text."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts):
        self.seen.extend(texts)
        rows = []
        for text in texts:
            words = text.lower()
            v = np.array([float(w in words) for w in VOCAB]) + 1e-3
            if "bird" in words:
                v[0] += 1.0
            rows.append(v / np.linalg.norm(v))
        return np.array(rows, dtype=np.float32)


def _setup(n=8):
    transcript = InMemoryTranscriptStore()
    turns = transcript.append(
        "t1",
        "main",
        [msg(i, f"We spoke about the {SAID[i % len(SAID)]} today.") for i in range(n)],
    )
    embedder = CountingEmbedder()
    return transcript, InMemoryEpisodeStore(embedder), turns, TurnIndex(embedder)


def test_window_turns_are_ranked_and_found_by_meaning():
    transcript, episodes, turns, index = _setup()
    index.add("t1", turns[:4])  # not loaded yet: a no-op; the window holds them all
    ranked = index.rank(transcript, episodes, "t1", "the bird", [], extra=turns)
    # The "parrot" turns, found through "bird" alone, beat every other old turn;
    # the newest turns may rank beside them (recency is a signal).
    order = [m.id for m, _ in ranked]
    assert order[0] == "m5"
    assert all(order.index("m0") < order.index(f"m{i}") for i in (1, 2, 3))
    assert {m.id for m, _ in ranked} == {t.id for t in turns}


def test_each_turn_is_embedded_once_across_questions():
    transcript, episodes, turns, index = _setup()
    embedder = index.embedder
    index.rank(transcript, episodes, "t1", "coffee", [], extra=turns)
    before = len(embedder.seen)
    index.rank(transcript, episodes, "t1", "train", [], extra=turns)
    assert len(embedder.seen) == before + 1  # only the question


def test_a_persons_own_turns_are_found_by_their_name():
    transcript = InMemoryTranscriptStore()
    said = [
        ("Caroline", "Hey Melanie, how was your weekend?"),
        ("Melanie", "Great, I painted the lake at dawn."),
        ("Caroline", "Lovely. I went to a support group."),
    ]
    turns = transcript.append(
        "t1", "main", [msg(i, text, speaker=who) for i, (who, text) in enumerate(said)]
    )
    embedder = CountingEmbedder()
    index = TurnIndex(embedder)
    episodes = InMemoryEpisodeStore(embedder)
    ranked = index.rank(
        transcript, episodes, "t1", "What did Melanie do?", [], extra=turns
    )
    # Her own turn never says "Melanie"; the greeting that does is not about her.
    assert ranked[0][0].id == "m1"


def test_a_word_in_most_turns_does_not_rank_a_turn_by_itself():
    # "Dana" is in every Dana turn (the speaker is indexed with the words), so a
    # turn matching only her name would rank by shortness, ahead of the turn
    # that answers by meaning. The name still counts beside a rarer word.
    transcript = InMemoryTranscriptStore()
    said = [("Dana", text) for text in ("Sure!", "Ok then.", "Ha, yes.", "Right.")]
    said += [("Sam", "I saw a parrot at the park with my kids today.")]
    said += [("Dana", "Nothing to mention really, a quiet week.")]
    turns = transcript.append(
        "t1", "main", [msg(i, text, speaker=who) for i, (who, text) in enumerate(said)]
    )
    embedder = CountingEmbedder()
    index = TurnIndex(embedder)
    episodes = InMemoryEpisodeStore(embedder)
    ranked = index.rank(
        transcript, episodes, "t1", "Did Dana mention the bird?", [], extra=turns
    )
    order = [m.id for m, _ in ranked]
    # The parrot, found by meaning ("bird" lights "parrot"), and "mention" with
    # her name rank above every turn that holds her name alone.
    assert set(order[:2]) == {"m4", "m5"}


def test_a_reply_stands_as_high_as_the_question_it_answers():
    # Asked about Dana's research, the turn that matches is Sam's question; the
    # answer is Dana's reply after it, which shares no word with the question.
    transcript = InMemoryTranscriptStore()
    said = [
        ("Sam", "We had coffee by the train station."),
        ("Dana", "Did I say? The budget for the flight is fine."),
        ("Dana", "Ha, it was."),
        ("Sam", "Did you finish the research for the adoption?"),
        ("Dana", "Yes! I looked at four agencies, all lovely."),
        ("Sam", "Lovely. Parrot pics soon, promise."),
        ("Dana", "Great, see you at the weekend then."),
    ]
    turns = transcript.append(
        "t1", "main", [msg(i, text, speaker=who) for i, (who, text) in enumerate(said)]
    )
    embedder = CountingEmbedder()
    index = TurnIndex(embedder)
    episodes = InMemoryEpisodeStore(embedder)
    ranked = index.rank(
        transcript, episodes, "t1", "What research did Dana do?", [], extra=turns
    )
    scores = {m.id: score for m, score in ranked}
    assert scores["m4"] >= scores["m3"]
    # A turn after the same speaker's own question is no reply.
    assert scores["m2"] < scores["m4"]


def test_an_assistants_answer_to_the_users_question_is_not_lifted():
    # The user's own question matches; the assistant's advice after it is no
    # memory of anyone, and a question that names nobody does not lift it.
    transcript = InMemoryTranscriptStore()
    said = [
        ("user", "", "What if our train budget went up? Just thinking."),
        ("assistant", "", "It would mostly come down to cost and effort."),
        ("user", "", "We had coffee after the parrot show."),
        ("assistant", "", "Lovely, see you at the weekend then."),
    ]
    turns = transcript.append(
        "t1",
        "main",
        [msg(i, text, role=role) for i, (role, _, text) in enumerate(said)],
    )
    embedder = CountingEmbedder()
    index = TurnIndex(embedder)
    episodes = InMemoryEpisodeStore(embedder)
    ranked = index.rank(
        transcript, episodes, "t1", "What is our train budget?", [], extra=turns
    )
    scores = {m.id: score for m, score in ranked}
    assert scores["m1"] < scores["m0"]
