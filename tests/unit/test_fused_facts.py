"""Facts compete with turns in one ranking, and a named person's facts are gathered."""

from datetime import timedelta

from memory_lab.config import BudgetConfig, FactConfig
from memory_lab.context.assembly import AssemblyInput, assemble
from memory_lab.facts.active_view import ActiveView
from memory_lab.facts.reconciliation import reconcile
from memory_lab.tokens import default_counter
from tests.helpers import T0, cand, msg
from tests.unit.test_turn_index import _setup

COUNTER = default_counter()
CFG = FactConfig()


def _fact(key, value, subject="user", category="knowledge", turn="m3"):
    c = cand(key, value, category=category, subject=subject, confidence=0.9)
    c = c.model_copy(update={"turn_ids": [turn]})
    return reconcile("t1", c, None, T0, CFG).fact


def test_a_fact_is_ranked_among_the_turns_by_the_same_rankers():
    transcript, episodes, turns, index = _setup()
    on_topic = _fact("flight.booked", "flight to Oslo", turn="m4")
    off_topic = _fact("budget.rent", "budget of 900", turn="m3")
    ranked, scores = index.rank_with_facts(
        transcript,
        episodes,
        "t1",
        "the flight",
        [],
        extra=turns,
        facts=[on_topic, off_topic],
    )
    turn_scores = [score for _, score in ranked]
    # The fact about the flight stands with the best turns, the other below them.
    assert scores[on_topic.id] >= turn_scores[1]
    assert scores[off_topic.id] < scores[on_topic.id]
    assert scores[off_topic.id] < turn_scores[0]
    # Turns come back as before: every one, best first.
    assert [m.id for m, _ in ranked] == [
        m.id
        for m, _ in index.rank(
            transcript, episodes, "t1", "the flight", [], extra=turns
        )
    ]


def test_a_fact_is_embedded_once_across_questions():
    transcript, episodes, turns, index = _setup()
    fact = _fact("flight.booked", "flight to Oslo")
    index.rank_with_facts(
        transcript, episodes, "t1", "coffee", [], extra=turns, facts=[fact]
    )
    before = len(index.embedder.seen)
    index.rank_with_facts(
        transcript, episodes, "t1", "train", [], extra=turns, facts=[fact]
    )
    assert len(index.embedder.seen) == before + 1  # only the question


def test_the_entity_index_gathers_a_named_persons_facts_whatever_their_words():
    facts = [
        _fact("go_to", "beach", subject="melanie"),
        _fact("paint", "sunsets", subject="melanie"),
        _fact("adopt", "a dog", subject="caroline"),
        _fact("editor", "Neovim"),
    ]
    view = ActiveView(facts, CFG)
    found = view.about("What activities does Melanie do?", T0, limit=10)
    assert sorted(f.value for f in found) == ["beach", "sunsets"]
    assert view.about("What do I use?", T0, limit=10) == []


def _context(facts, scores, excerpts, total=300):
    data = AssemblyInput(
        query="What activities does Melanie do?",
        now=T0 + timedelta(hours=1),
        facts=facts,
        fact_scores=scores,
        episodes=[],
        summary="",
        window=[],
        excerpts=excerpts,
        question_led=True,
    )
    return assemble(data, BudgetConfig().scaled(total), CFG, COUNTER)


def test_a_fact_shows_where_it_ranks_and_gives_way_to_better_turns():
    # Longer than the room the turns leave, so only its rank can place it.
    pottery = _fact(
        "do",
        "pottery classes at the community centre on Tuesday evenings with her kids",
        subject="melanie",
    )
    long_turns = [
        (msg(i, f"Melanie went running by the lake on day {i} " + "and " * 30), 0.03)
        for i in range(8)
    ]
    # Ranked above the turns, the fact is shown though it shares no word.
    high = _context([pottery], {pottery.id: 0.05}, long_turns)
    assert pottery.id in high.block("facts").items
    # Ranked below turns that fill the budget, it gives its place to them.
    low = _context([pottery], {pottery.id: 0.01}, long_turns)
    assert pottery.id not in low.block("facts").items
    assert low.block("episodes").items
    assert low.total_tokens <= 300 and high.total_tokens <= 300


def test_a_fact_whose_source_turn_is_shown_gives_its_place_away():
    # The fact ranks just below the turn it was read from, as a reading of it
    # would; once the turn is in the context, the fact's line repeats it.
    pottery = _fact("do", "pottery classes", subject="melanie", turn="m0")
    said = msg(0, "Melanie: I started pottery classes at the community centre.")
    other = msg(1, "Melanie went running by the lake this morning.")
    shown = _context([pottery], {pottery.id: 0.04}, [(said, 0.05), (other, 0.03)])
    assert said.id in shown.block("episodes").items
    assert pottery.id not in shown.block("facts").items
    assert other.id in shown.block("episodes").items
    # When the turn is not offered, the fact stands for it.
    alone = _context([pottery], {pottery.id: 0.04}, [(other, 0.03)])
    assert pottery.id in alone.block("facts").items


def test_a_fact_a_shown_gathered_line_lists_is_not_shown_again():
    from memory_lab.facts.gathering import GATHERED_PREFIX

    pottery = _fact("do", "pottery classes", subject="melanie", turn="m0")
    camping = _fact("go", "camping", subject="melanie", turn="m1")
    line = camping.model_copy(
        update={
            "id": GATHERED_PREFIX + "melanie",
            "key": "over_time",
            "value": "pottery classes (1 Jul 2023); camping (5 Aug 2023)",
            "turn_ids": ["m0", "m1"],
        }
    )
    scores = {line.id: 0.06, pottery.id: 0.05, camping.id: 0.04}
    shown = _context([line, pottery, camping], scores, [])
    assert shown.block("facts").items == [line.id]
