"""The always-injected core: standing facts reach every chat, within the budget."""

from datetime import timedelta

from memory_lab.config import BudgetConfig, FactConfig
from memory_lab.context.assembly import AssemblyInput, assemble, rank_facts
from memory_lab.facts.reconciliation import reconcile
from memory_lab.tokens import default_counter
from tests.helpers import T0, cand

COUNTER = default_counter()
CFG = FactConfig()


def _fact(key, value, category, subject="user", at=T0):
    c = cand(key, value, category=category, subject=subject, confidence=0.9)
    return reconcile("t", c, None, at, CFG).fact


def _bundle(facts, query, budget=None, now=T0 + timedelta(hours=1)):
    budget = budget or BudgetConfig()
    data = AssemblyInput(
        query=query, now=now, facts=facts, episodes=[], summary="", window=[]
    )
    return assemble(data, budget, CFG, COUNTER)


def test_a_standing_preference_survives_an_unrelated_question():
    facts = [
        _fact("prefers.simple_explanations", "simple explanations", "preference"),
        _fact("accounting_standard", "K3", "decision"),
        _fact("brother.home_city", "Oslo", "knowledge"),
    ]
    text = _bundle(facts, "Which accounting standard do we use?").block("facts").text
    assert "simple explanations" in text and "K3" in text
    assert "Oslo" not in text  # outside the core, relevance still decides


def test_only_instructions_outrank_the_fact_a_question_asks_for():
    facts = [
        _fact("job_title", "software tester", "identity"),
        _fact("spend_limit.extras", "$250 a month", "constraint"),
        _fact("bank", "Monzo", "knowledge"),
        _fact("reply_language", "Dutch", "instruction"),
        _fact("prefers.tables", "tables", "preference"),
    ]
    ranked = [f.key for f in rank_facts(facts, "Which bank do I use?", T0, CFG)]
    assert ranked[:2] == ["reply_language", "bank"]
    assert ranked.index("spend_limit.extras") < ranked.index("prefers.tables")
    assert ranked.index("job_title") < ranked.index("prefers.tables")


def test_standing_core_then_the_asked_fact_then_preferences():
    facts = [
        _fact("accounting_standard", "K3", "decision"),
        _fact("reply_language", "English", "instruction"),
        _fact("prefers.simple_explanations", "simple explanations", "preference"),
    ]
    ranked = rank_facts(facts, "Which accounting standard?", T0, CFG)
    assert [f.key for f in ranked] == [
        "reply_language",
        "accounting_standard",
        "prefers.simple_explanations",
    ]


PREFERENCES = (
    "short_paragraphs",
    "numbered_lists",
    "bullet_points",
    "tables",
    "plain_language",
    "worked_examples",
    "metric_units",
    "formal_tone",
)


def test_style_preferences_do_not_crowd_out_the_asked_fact_at_a_tight_budget():
    facts = [
        _fact("accounting_standard", "K2", "decision"),
        _fact("reply_language", "Swedish", "instruction"),
        *(
            _fact(f"prefers.{k}", k.replace("_", " "), "preference")
            for k in PREFERENCES
        ),
    ]
    block = _bundle(
        facts,
        "Which accounting framework did we decide on?",
        BudgetConfig().scaled(600),
    ).block("facts")
    assert "K2" in block.text and "Swedish" in block.text
    shown = [k for k in PREFERENCES if k.replace("_", " ") in block.text]
    assert 0 < len(shown) < len(PREFERENCES)  # the budget ran out on preferences


def test_other_peoples_likes_compete_on_relevance():
    likes = _fact("likes.jazz", "jazz", "preference", subject="melanie")
    other = _fact("employer", "Acme", "identity")
    ranked = rank_facts([likes, other], "Where does the user work at Acme?", T0, CFG)
    assert [f.key for f in ranked] == ["employer"]


def test_what_speakers_say_of_themselves_is_shown_when_asked_about():
    facts = [
        _fact("daughter", "Sara", "identity", subject="john"),
        _fact("cannot.eat_nuts", "nuts", "constraint", subject="john"),
        _fact("reply_language", "English", "instruction"),
    ]

    def shown(question):
        data = AssemblyInput(
            query=question,
            now=T0,
            facts=facts,
            episodes=[],
            summary="",
            window=[],
            question_led=True,
        )
        block = assemble(data, BudgetConfig(), CFG, COUNTER).block("facts")
        return [f.key for f in facts if f.id in block.items]

    assert shown("What did John paint last week?") == ["reply_language"]
    assert shown("What is the name of John's daughter?") == [
        "daughter",
        "reply_language",
    ]


def test_the_core_respects_the_facts_budget():
    facts = [
        _fact(f"prefers.p{i}", f"preference number {i} with words", "preference")
        for i in range(60)
    ]
    bundle = _bundle(facts, "hello", BudgetConfig(total=400, facts=60))
    block = bundle.block("facts")
    assert block.tokens <= 60 and 0 < len(block.items) < 60


def test_decisions_older_than_a_year_read_as_historical():
    old = _fact("accounting_standard", "K2", "decision", at=T0 - timedelta(days=400))
    new = _fact("software", "Fortnox", "decision", at=T0 - timedelta(days=30))
    text = _bundle([old, new], "accounting standard software").block("facts").text
    assert "K2 (historical, decided" in text
    assert "Fortnox (since" in text
