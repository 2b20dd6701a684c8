"""A fact the question reached through an older value stays, whatever its words."""

from __future__ import annotations

from datetime import timedelta

from memory_lab.config import FactConfig
from memory_lab.context.fact_choice import asked_facts, rank_facts
from memory_lab.facts.reconciliation import reconcile
from tests.helpers import T0, cand

CFG = FactConfig()
NOW = T0 + timedelta(hours=1)


def fact(key: str, value: str):
    return reconcile("t", cand(key, value, turn=key), None, T0, CFG).fact


def test_a_kept_fact_ranks_with_the_best_match_and_survives_the_word_filter():
    best = fact("swim_pool", "opens at seven")  # two words of the question
    weaker = fact("swim_club", "Otters")  # one
    coach = fact("coach", "Mirja")  # none
    question = "When does the swim pool open?"
    everything = [coach, weaker, best]
    assert coach not in rank_facts(everything, question, NOW, CFG)
    kept = rank_facts(everything, question, NOW, CFG, kept={coach.id})
    assert kept.index(coach) < kept.index(weaker)
    assert coach in asked_facts(kept, question, CFG, kept={coach.id})
    assert coach not in asked_facts(kept, question, CFG)
