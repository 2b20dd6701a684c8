"""Planted conversations: a recent-turns window scores what it really holds.

Each turn mixes words of one small topical vocabulary (the same people and plans
come up again and again, as in real chats) with rarer words of its own, so a turn
the window does not hold still shares many words with the turns it does. Counting
turns, not words, must bring the window's evidence recall to the share of
questions whose evidence is in it; the old word average must stay far above that
(the flattery the count removes).
"""

from __future__ import annotations

import random

import pytest
from memlab_evals.scorers import ProbeCase, evidence_recall

from tests.helpers import probe_record

VOCABULARY = (
    "caroline melanie trip paris museum painting kids school summer camping lake "
    "pottery class friend support group adoption agency counselor career mentor "
    "beach sunset book novel festival music concert guitar violin garden roses "
    "dinner recipe weekend morning run marathon charity hike mountain photos"
).split()
TURNS = 300
WINDOW = 12
QUESTIONS = 400


def planted(seed: int) -> tuple[list[str], list[tuple[int, ...]]]:
    rng = random.Random(seed)
    rare = [f"{a}{b}" for a in ("mar", "tel", "vos", "kin") for b in range(500)]
    turns = [
        " ".join(rng.sample(VOCABULARY, 4) + rng.sample(rare, 3)) for _ in range(TURNS)
    ]
    questions = [
        tuple(rng.sample(range(TURNS), rng.choice((1, 1, 2)))) for _ in range(QUESTIONS)
    ]
    return turns, questions


def _case(turns: list[str], evidence: tuple[int, ...], context: str) -> ProbeCase:
    record = probe_record(
        system="window",
        evidence=[f"t{i}" for i in evidence],
        evidence_texts=[turns[i] for i in evidence],
        context=context,
    )
    return ProbeCase(record, None, "locomo")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_recent_turns_window_scores_the_share_of_evidence_it_holds(seed):
    turns, questions = planted(seed)
    window = set(range(TURNS - WINDOW, TURNS))
    context = "\n".join(turns[i] for i in sorted(window))
    cases = [_case(turns, ev, context) for ev in questions]

    truth = sum(len(window & set(ev)) / len(ev) for ev in questions) / QUESTIONS
    held = sum(evidence_recall.score(c) for c in cases) / QUESTIONS
    overlap = sum(evidence_recall.score_word_overlap(c) for c in cases) / QUESTIONS

    assert truth < 0.1  # the window holds little of the evidence ...
    assert abs(held - truth) <= 0.05  # ... and the count says so
    assert overlap > truth + 0.3  # while the word average flatters it


def test_the_whole_history_holds_every_evidence_turn():
    turns, questions = planted(4)
    context = "\n".join(turns)
    assert all(
        evidence_recall.score(_case(turns, ev, context)) == 1.0 for ev in questions
    )
