"""Facts about other people reach a question only when it names them."""

from datetime import timedelta

from memory_lab.config import BudgetConfig, FactConfig
from memory_lab.context.assembly import AssemblyInput, assemble, rank_facts
from memory_lab.facts.reconciliation import reconcile
from memory_lab.tokens import default_counter
from tests.helpers import T0, cand

COUNTER = default_counter()
CFG = FactConfig()


def _fact(key, value, subject="user", category="knowledge", at=T0):
    c = cand(key, value, category=category, subject=subject, confidence=0.9)
    return reconcile("t", c, None, at, CFG).fact


def _facts_text(facts, query):
    data = AssemblyInput(
        query=query,
        now=T0 + timedelta(hours=1),
        facts=facts,
        episodes=[],
        summary="",
        window=[],
        question_led=True,
    )
    return assemble(data, BudgetConfig(), CFG, COUNTER).block("facts").text


def test_a_third_partys_fact_does_not_answer_a_question_about_the_user():
    facts = [_fact("drive.tesla", "Tesla", subject="user's sister")]
    assert "Tesla" not in _facts_text(facts, "What car do I drive?")
    assert "Tesla" in _facts_text(facts, "What does my sister drive?")


def test_a_named_speaker_gets_their_own_facts_not_the_others():
    facts = [
        _fact("visit.beach", "the beach at Brighton", subject="caroline"),
        _fact("go_to", "the beach near Santa Cruz", subject="melanie"),
    ]
    ranked = rank_facts(facts, "When did Melanie go to the beach?", T0, CFG)
    assert [f.subject for f in ranked] == ["melanie"]
