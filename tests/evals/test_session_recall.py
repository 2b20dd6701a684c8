"""session_recall on hand-built contexts, and scorers that read the run's source."""

from __future__ import annotations

import math

import pytest
from memlab_evals.running.log import ConversationRun, RunConfig
from memlab_evals.scorers import (
    SCORER_VERSIONS,
    ProbeCase,
    abstention,
    fact_recall,
    session_recall,
    source_of,
)

from tests.helpers import probe_record

PORTO = [
    "My work trip to Porto last week went well, the client signed the contract.",
    "Congratulations on closing the deal in Porto!",
]
GHENT = [
    "Back from another work trip, this time three days in Ghent for the trade fair.",
    "Ok, thanks!",
]
SESSIONS = {"porto": PORTO, "ghent": GHENT}


def case(context: str, sessions=SESSIONS, source: str = "longmemeval") -> ProbeCase:
    record = probe_record(context=context, evidence_sessions=sessions)
    return ProbeCase(record, None, source)


def test_every_answer_session_reached_scores_one():
    assert session_recall.score(case(" ".join(PORTO + GHENT))) == 1.0


def test_a_missing_session_halves_the_score():
    assert session_recall.score(case(PORTO[0])) == 0.5


def test_any_long_enough_turn_of_the_session_reaches_it():
    # The assistant's reply, not the evidence turn, is in the context.
    assert session_recall.score(case(PORTO[1] + " " + GHENT[0])) == 1.0


def test_a_short_turn_found_by_chance_reaches_nothing():
    # "Ok, thanks!" is in the context, but too short to say its session was found.
    assert session_recall.score(case("Ok, thanks! " + PORTO[0])) == 0.5


def test_a_paraphrase_below_the_held_share_does_not_count():
    paraphrase = "The Porto client signed."
    assert session_recall.score(case(paraphrase)) == 0.0


def test_probes_that_name_no_sessions_are_unscored():
    assert math.isnan(session_recall.score(case(" ".join(PORTO), sessions={})))
    only_short = {"s": ["Ok, thanks!", "Sure."]}
    assert math.isnan(session_recall.score(case("Ok, thanks!", sessions=only_short)))


def test_session_recall_is_a_registered_scorer():
    assert SCORER_VERSIONS[session_recall.NAME] == session_recall.VERSION


def test_source_is_read_from_the_log_before_the_spec():
    config = RunConfig(
        dataset="../data/locomo10.json",
        dataset_hash="h",
        systems=["A"],
        budget=600,
        workers=1,
        git_commit="x",
        started_at="t",
        memory_lab_version="v",
        source="locomo",
    )
    assert source_of(config) == "locomo"
    older = config.model_copy(update={"source": ""})
    assert source_of(older) == "synthetic"  # as logs without a source were scored
    assert source_of("longmemeval:/data/longmemeval_s.json:limit=5") == "longmemeval"
    assert source_of("locomo:/x.json") == "locomo"


@pytest.mark.parametrize("source", ["longmemeval", "toy", "synthetic"])
def test_abstention_without_a_tempting_value_is_unscored_on_any_source(source):
    record = probe_record(kind="abstention", context="- [pet] breed = beagle")
    assert math.isnan(abstention.score(ProbeCase(record, None, source)))
    tempting = probe_record(
        kind="abstention", adversarial_answer="beagle", context="- [pet] breed = beagle"
    )
    assert abstention.score(ProbeCase(tempting, None, source)) == 1.0


def test_fact_recall_reads_planted_facts_whatever_the_source():
    gold = {"subject": "user", "category": "identity", "key": "home_city"}
    planted = ConversationRun(
        system="A",
        conversation="c",
        turns=1,
        ingest_ms=[1.0],
        gold_facts=[{**gold, "value": "Malmo", "turn_id": "m1"}],
    )
    held = probe_record(evidence=["m1"], context="- [identity] home city = Malmo")
    lost = probe_record(evidence=["m1"], context="nothing here")
    assert fact_recall.score(ProbeCase(held, planted, "toy")) == 1.0
    assert fact_recall.score(ProbeCase(lost, planted, "toy")) == 0.0
    # Observation sentences (LoCoMo's gold) are not planted values.
    observed = planted.model_copy(
        update={"gold_facts": [{**planted.gold_facts[0], "category": "observation"}]}
    )
    assert math.isnan(fact_recall.score(ProbeCase(held, observed, "locomo")))


def test_a_longmemeval_abs_question_is_scored_on_the_reply_that_declines():
    from memlab_evals.running.llm_records import ModelAnswer
    from memlab_evals.scorers import answer_overlap

    # Category 7 (single-session-user) with the abstention kind, as the loader
    # makes an id ending in _abs: not LoCoMo's category 5.
    def asked(reply: str) -> ProbeCase:
        record = probe_record(
            kind="abstention",
            category=7,
            answer="not known",
            model_answer=ModelAnswer(status="ok", text=reply),
        )
        return ProbeCase(record, None, "longmemeval")

    assert answer_overlap.score_abstention(asked("You never mentioned a cat.")) == 1.0
    assert answer_overlap.score_abstention(asked("Your cat is a Siamese.")) == 0.0
    assert math.isnan(answer_overlap.score_f1(asked("not known")))
