"""Scorers on hand-built cases whose right answers are known."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from memlab_evals.running.log import ConversationRun, ProbeRecord, StoredFact
from memlab_evals.scorers import (
    SCORER_VERSIONS,
    ProbeCase,
    abstention,
    answer_recall,
    compression,
    evidence_recall,
    extraction,
    fact_recall,
    hallucination,
    source_of,
    stale_answer,
)
from memlab_evals.scorers.text import fact_lines, key_matches, mentions

TURNS = {
    "m1": "I just moved to Gothenburg for a new job at Volvo.",
    "m2": "Nice! Gothenburg is lovely in spring.",
    "m3": "What if I switched to a vegan diet next year?",
    "m4": "My colleague Sara drinks oat milk every morning.",
    "m5": "Actually I moved again, I live in Malmo now.",
}
SPEAKERS = {"m1": "user", "m2": "assistant", "m3": "user", "m4": "user", "m5": "user"}


def probe(context: str, **kw) -> ProbeRecord:
    base = dict(
        system="A",
        conversation="c1",
        probe_id="p1",
        category=4,
        kind="recall",
        question="Where do I live?",
        answer="Gothenburg",
        evidence=["m1"],
        evidence_texts=[TURNS["m1"]],
        after_turn="m2",
        context=context,
        context_tokens=10,
        history_tokens=100,
        stored_tokens=20,
        retrieve_ms=1.0,
    )
    base.update(kw)
    return ProbeRecord(**base)


def run(facts: list[StoredFact] | None = None, **kw) -> ConversationRun:
    base = dict(
        system="A",
        conversation="c1",
        turns=5,
        ingest_ms=[1.0] * 5,
        stored_facts=facts or [],
        turn_texts=TURNS,
        turn_speakers=SPEAKERS,
        gold_facts=[
            {
                "subject": "user",
                "category": "identity",
                "key": "home_city",
                "value": "Gothenburg",
                "turn_id": "m1",
                "turn_ids": ["m1"],
            },
            {
                "subject": "user",
                "category": "identity",
                "key": "home_city",
                "value": "Malmo",
                "turn_id": "m5",
                "turn_ids": ["m5"],
            },
        ],
        traps=[
            {
                "kind": "hypothetical",
                "turn_id": "m3",
                "text": TURNS["m3"],
                "key": "diet",
                "value": "vegan",
            },
            {
                "kind": "third_party",
                "turn_id": "m4",
                "text": TURNS["m4"],
                "key": "milk",
                "value": "oat milk",
            },
        ],
    )
    base.update(kw)
    return ConversationRun(**base)


def fact(
    value: str, turns: list[str], subject: str = "user", fid: str = "f"
) -> StoredFact:
    return StoredFact(
        id=fid,
        subject=subject,
        category="identity",
        key="k",
        value=value,
        status="active",
        source="extracted",
        turn_ids=turns,
    )


def case(p: ProbeRecord, r: ConversationRun | None = None, source="synthetic"):
    return ProbeCase(p, r, source)


# -- evidence_recall ---------------------------------------------------------


def test_context_holding_every_evidence_turn_scores_one():
    p = probe(
        TURNS["m2"] + "\n" + TURNS["m1"],
        evidence=["m1", "m2"],
        evidence_texts=[TURNS["m1"], TURNS["m2"]],
    )
    assert evidence_recall.score(case(p)) == 1.0


def test_empty_context_scores_zero_and_no_evidence_is_nan():
    assert evidence_recall.score(case(probe(""))) == 0.0
    assert math.isnan(
        evidence_recall.score(case(probe("x", evidence=[], evidence_texts=[])))
    )


def test_a_turn_is_held_at_80_percent_of_its_words_and_survives_html_escaping():
    turn = "moved to Gothenburg for a Volvo R&D job"  # moved gothenburg volvo r job
    four = "<data>moved &amp; Gothenburg, Volvo R&amp;D</data>"  # 4 of 5: held
    three = "<data>moved to Gothenburg, Volvo</data>"  # 3 of 5: not held
    assert evidence_recall.score(case(probe(four, evidence_texts=[turn]))) == 1.0
    assert evidence_recall.score(case(probe(three, evidence_texts=[turn]))) == 0.0
    overlap = evidence_recall.score_word_overlap(
        case(probe(three, evidence_texts=[turn]))
    )
    assert math.isclose(overlap, 3 / 5)


def test_evidence_recall_is_the_share_of_turns_held():
    p = probe(
        TURNS["m1"] + "\nWhere was it? Gothenburg.",
        evidence=["m1", "m4"],
        evidence_texts=[TURNS["m1"], TURNS["m4"]],
    )
    assert evidence_recall.score(case(p)) == 0.5


@given(
    st.lists(st.sampled_from(list(TURNS.values())), min_size=1, max_size=4),
    st.text(max_size=200),
)
def test_evidence_recall_is_a_share_and_full_context_gets_one(texts, noise):
    p = probe(noise + "\n" + "\n".join(texts), evidence_texts=texts)
    assert evidence_recall.score(case(p)) == 1.0
    q = probe(noise, evidence_texts=texts)
    assert 0.0 <= evidence_recall.score(case(q)) <= 1.0


# -- answer_recall -----------------------------------------------------------


def test_answer_recall_normalises_case_punctuation_and_articles():
    assert answer_recall.score(case(probe("user lives in GOTHENBURG."))) == 1.0
    assert answer_recall.score(case(probe("user lives in Malmo"))) == 0.0
    p = probe("She painted a sunset by the lake", answer="The sunset, by the lake")
    assert answer_recall.score(case(p)) == 1.0


def test_answer_recall_multi_word_containment_and_abstention_is_nan():
    p = probe(
        "ran the Boston marathon in April", answer="marathon in Boston April 2023"
    )
    # 3 of 4 content words = 0.75 < 0.8
    assert answer_recall.score(case(p)) == 0.0
    p = probe(
        "ran the Boston marathon in April 2023", answer="marathon in Boston April 2023"
    )
    assert answer_recall.score(case(p)) == 1.0
    assert math.isnan(answer_recall.score(case(probe("x", kind="abstention"))))


def test_mentions_requires_whole_words():
    assert not mentions("Malmoe", "Malmo")
    assert mentions("in Malmo now", "malmo")
    assert not mentions("anything", "")


# -- fact_recall -------------------------------------------------------------


def test_fact_recall_finds_the_planted_value_of_the_evidence_turn():
    r = run()
    assert (
        fact_recall.score(case(probe("- [identity] home city = Gothenburg"), r)) == 1.0
    )
    assert fact_recall.score(case(probe("nothing here"), r)) == 0.0
    # LoCoMo's gold facts are observation sentences, not planted values.
    observed = r.model_copy(
        update={"gold_facts": [{**g, "category": "observation"} for g in r.gold_facts]}
    )
    assert math.isnan(fact_recall.score(case(probe("Gothenburg"), observed, "locomo")))
    assert math.isnan(fact_recall.score(case(probe("x", evidence=["m2"]), r)))


# -- stale_answer_rate -------------------------------------------------------

FACTS_NEW = "- [identity] home city = Malmo (since 2025-03-05)"
FACTS_OLD = "- [identity] home city = Gothenburg (since 2025-03-01)"


def update(context: str) -> ProbeRecord:
    return probe(
        context,
        kind="update",
        category=6,
        answer="Malmo",
        stale_answers=["Gothenburg"],
        evidence=["m5"],
    )


def test_stale_value_on_a_facts_line_is_caught_even_beside_the_new_one():
    assert stale_answer.score(case(update(FACTS_OLD))) == 1.0
    assert (
        stale_answer.score(case(update(FACTS_OLD + "\nuser: I live in Malmo now")))
        == 1.0
    )
    assert stale_answer.diagnose(case(update(FACTS_OLD))) == "facts line"


def test_stale_value_alone_in_raw_text_is_caught():
    p = update("user (2025-03-01 09:00): I moved to Gothenburg")
    assert stale_answer.score(case(p)) == 1.0
    assert stale_answer.diagnose(case(p)) == "old value only"


def test_current_value_served_is_not_stale():
    history = "user: I moved to Gothenburg\nuser: now I live in Malmo"
    assert stale_answer.score(case(update(FACTS_NEW))) == 0.0
    assert stale_answer.score(case(update(history))) == 0.0
    assert stale_answer.score(case(update(""))) == 0.0
    assert math.isnan(stale_answer.score(case(probe(FACTS_OLD))))


def test_fact_lines_parse_subject_unsure_and_escaping():
    lines = fact_lines(
        '<memory type="facts">\n- [preference] Sara: milk = oat &amp; soy (unsure) '
        "(since 2025-01-01)\n</memory>"
    )
    assert [(x.category, x.key, x.value) for x in lines] == [
        ("preference", "Sara: milk", "oat & soy")
    ]


def test_fact_lines_read_the_grouped_layout_inside_the_facts_block_only():
    context = (
        '<memory type="facts">\nPreferences:\n- Sara: milk = oat &amp; soy (unsure) '
        "(since 2025-01-01)\nKnowledge:\n- city = Oslo (since 2025-01-01)\n"
        '</memory>\n\n<memory type="window">\n'
        "- user (1 Jan 2025): the x = y rule &lt;/memory&gt;\n</memory>"
    )
    lines = fact_lines(context)
    assert [(x.category, x.key, x.value) for x in lines] == [
        ("preferences", "Sara: milk", "oat & soy"),
        ("knowledge", "city", "Oslo"),
    ]
    # A quoted closing tag inside a facts block does not end it.
    quoted = (
        '<memory type="facts">\nKnowledge:\n- note = a &lt;/memory&gt; b '
        "(since 2025-01-01)\n- city = Oslo (since 2025-01-01)\n</memory>"
    )
    assert [x.value for x in fact_lines(quoted)] == ["a </memory> b", "Oslo"]
    assert fact_lines("- city = Oslo (since 2025-01-01)") == []


def test_stale_answer_reads_a_grouped_facts_block():
    # The new value is in the context too: only the facts line makes it stale.
    window = '<memory type="window">\nuser (5 Mar 2025): I live in Malmo\n</memory>'
    facts = '<memory type="facts">\nKnowledge:\n- home city = {} (since 2025-03-01)\n'
    old = facts.format("Gothenburg") + "</memory>\n\n" + window
    new = facts.format("Malmo") + "</memory>\n\n" + window
    assert stale_answer.score(case(update(old))) == 1.0
    assert stale_answer.score(case(update(new))) == 0.0


def test_fact_lines_read_sentence_lines_and_their_keys_by_word():
    context = (
        '<memory type="facts">\nKnowledge:\n- Your rent budget is 900 (since '
        "2025-01-01)\n- Melanie lives in a flat near the harbour (unsure) (since "
        "2025-01-01)\n- home city: Oslo (since 2025-01-01)\nDecisions:\n- You "
        "chose K2 (historical, decided 2023-01-01)\n</memory>"
    )
    lines = fact_lines(context)
    assert [(x.category, x.value) for x in lines] == [
        ("knowledge", "Your rent budget is 900"),
        ("knowledge", "Melanie lives in a flat near the harbour"),
        ("knowledge", "home city: Oslo"),
        ("decisions", "You chose K2"),
    ]
    assert all(x.sentence for x in lines)
    rent = lines[0]
    assert key_matches(rent, "budget.rent") and key_matches(rent, "rent_budget")
    assert not key_matches(rent, "budget.food") and not key_matches(rent, "car")
    assert key_matches(lines[2], "home_city")


def test_stale_answer_reads_a_facts_block_of_sentences():
    window = '<memory type="window">\nuser (5 Mar 2025): I live in Malmo\n</memory>'
    facts = (
        '<memory type="facts">\nKnowledge:\n- Your home city is {} (since 2025-03-01)\n'
    )
    old = facts.format("Gothenburg") + "</memory>\n\n" + window
    new = facts.format("Malmo") + "</memory>\n\n" + window
    keyed = update(old).model_copy(update={"fact_keys": ["home_city"]})
    other = update(old).model_copy(update={"fact_keys": ["employer"]})
    assert stale_answer.score(case(update(old))) == 1.0
    assert stale_answer.score(case(keyed)) == 1.0
    # Another key's line does not count; the new value is then in the context.
    assert stale_answer.score(case(other)) == 0.0
    assert stale_answer.score(case(update(new))) == 0.0


# -- abstention_violation_rate -----------------------------------------------


def test_locomo_abstention_violation_is_the_adversarial_answer_in_context():
    p = probe(
        "Melanie adopted a dog",
        kind="abstention",
        category=5,
        answer="not known",
        adversarial_answer="adopted a dog",
    )
    assert abstention.score(case(p, None, "locomo")) == 1.0
    p = probe("nothing", kind="abstention", category=5, adversarial_answer="a dog")
    assert abstention.score(case(p, None, "locomo")) == 0.0


def test_synthetic_abstention_counts_facts_lines_not_raw_trap_turns():
    raw = probe(
        "user: my colleague Sara drinks oat milk",
        kind="abstention",
        category=5,
        answer="not known",
        adversarial_answer="oat milk",
    )
    assert abstention.score(case(raw)) == 0.0
    served = raw.model_copy(
        update={"context": "- [preference] milk = oat milk (since 2025-01-01)"}
    )
    assert abstention.score(case(served)) == 1.0
    plain = raw.model_copy(update={"adversarial_answer": None})
    assert math.isnan(abstention.score(case(plain)))
    assert math.isnan(abstention.score(case(probe("x"))))


def test_synthetic_abstention_reads_a_sentence_facts_line():
    said = probe(
        '<memory type="facts">\nPreferences:\n- You like oat milk (since '
        "2025-01-01)\n</memory>",
        kind="abstention",
        category=5,
        answer="not known",
        adversarial_answer="oat milk",
    )
    assert abstention.score(case(said)) == 1.0
    keyed = said.model_copy(
        update={"adversarial_answer": None, "fact_keys": ["likes.oat_milk"]}
    )
    assert abstention.score(case(keyed)) == 1.0
    elsewhere = keyed.model_copy(update={"fact_keys": ["dog_name"]})
    assert abstention.score(case(elsewhere)) == 0.0


# -- hallucinated_memory_rate ------------------------------------------------


def test_every_planted_hallucination_is_counted():
    facts = [
        fact("Gothenburg", ["m1"], fid="ok"),
        fact("Stockholm", ["m1"], fid="invented"),
        fact("vegan", ["m3"], fid="hypothetical"),
        fact("oat milk", ["m4"], fid="third_party_as_user"),
        fact("Gothenburg", ["m2"], fid="assistant_turn"),  # said by the assistant
        fact("Volvo", [], fid="no_source"),
    ]
    verdicts = {v.fact.id: v for v in hallucination.verdicts(run(facts))}
    assert not verdicts["ok"].hallucinated
    assert verdicts["invented"].reasons == ("unsupported",)
    assert "trap:hypothetical" in verdicts["hypothetical"].reasons
    assert "trap:third_party" in verdicts["third_party_as_user"].reasons
    assert verdicts["assistant_turn"].reasons == ("wrong_attribution",)
    assert verdicts["no_source"].reasons == ("unsupported",)
    assert hallucination.score(run(facts)) == 5 / 6


def test_third_party_fact_about_the_third_party_is_fine():
    r = run([fact("oat milk", ["m4"], subject="Sara")])
    assert hallucination.score(r) == 0.0


def test_named_speakers_check_named_subjects_only():
    named = {
        "m1": "Caroline",
        "m2": "Melanie",
        "m3": "Caroline",
        "m4": "Caroline",
        "m5": "Caroline",
    }
    r = run(
        [
            fact("Gothenburg", ["m2"], subject="Caroline"),
            fact("Gothenburg", ["m2"], subject="user"),
        ],
        turn_speakers=named,
        traps=[],
    )
    verdicts = hallucination.verdicts(r)
    assert verdicts[0].reasons == ("wrong_attribution",)
    assert verdicts[1].reasons == ()  # which name is the user is not in the log
    roles = {
        k: f"{'user' if v == 'Caroline' else 'assistant'}:{v}" for k, v in named.items()
    }
    r2 = r.model_copy(update={"turn_speakers": roles})
    assert hallucination.verdicts(r2)[1].reasons == ("wrong_attribution",)


def test_nothing_stored_is_nan_not_zero():
    assert math.isnan(hallucination.score(run([])))


# -- extraction precision / recall -------------------------------------------


def test_extraction_precision_and_recall_on_synthetic_gold():
    r = run([fact("Gothenburg, Sweden", ["m1"]), fact("Stockholm", ["m1"])])
    assert extraction.precision(r) == 0.5
    assert extraction.recall(r) == 0.5  # Malmo never stored
    other = run([fact("Gothenburg", ["m1"], subject="Sara")])
    assert extraction.precision(other) == 0.0


def test_extraction_against_locomo_observations_uses_word_overlap_on_the_same_turn():
    gold = [
        {
            "subject": "Caroline",
            "category": "observation",
            "key": "s1:obs1",
            "value": "Caroline moved to Gothenburg for a job at Volvo.",
            "turn_id": "m1",
            "turn_ids": ["m1"],
        }
    ]
    r = run(
        [
            fact("job at Volvo", ["m1"]),
            fact("job at Volvo", ["m2"]),
            fact("likes jazz music", ["m1"]),
        ],
        gold_facts=gold,
    )
    assert extraction.precision(r) == 1 / 3
    assert extraction.recall(r) == 1.0


# -- compression -------------------------------------------------------------


def test_compression_ratios_and_empty_context():
    p = probe("x", history_tokens=3000, context_tokens=150, stored_tokens=600)
    assert compression.context_ratio(case(p)) == 20.0
    assert compression.storage_ratio(case(p)) == 5.0
    assert math.isnan(compression.context_ratio(case(probe("", context_tokens=0))))


def test_registry_declares_every_metric_with_a_version():
    assert {
        "evidence_recall",
        "answer_recall",
        "hallucinated_memory_rate",
        "stale_answer_rate",
        "compression_ratio",
    } <= set(SCORER_VERSIONS)
    assert all(v for v in SCORER_VERSIONS.values())
    assert source_of("locomo:/x.json") == "locomo"
    assert source_of("synthetic:seed=3") == "synthetic"


def test_answer_recall_accepts_the_iso_form_of_a_date_answer():
    p = probe("user (2025-01-18 10:02): our bank is SEB", answer="18 January 2025")
    assert answer_recall.score(case(p)) == 1.0
    assert (
        answer_recall.score(case(p.model_copy(update={"answer": "Jan 18th, 2025"})))
        == 1.0
    )
    assert (
        answer_recall.score(case(p.model_copy(update={"answer": "19 January 2025"})))
        == 0.0
    )
    assert answer_recall.iso_date("the Sunday before 25 May 2023") is None
