"""ragas's LLM metrics on the judge's endpoint, against the scripted loopback server.

The scripted judge answers ragas's own prompts the way a careful grader would
(an answer is one statement; a statement is supported when its words are in the
context; it is a true positive when the gold's words are in it), so the expected
scores are known: an answer that states the gold scores 1, one that does not
scores 0. A judge that babbles leaves every probe unscored, and the failures are
counted, never scored 0.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from memlab_evals.judging.endpoints import CallOptions, Endpoint
from memlab_evals.judging.ragas_llm import LLM_METRICS, applies, with_ragas_llm
from memlab_evals.reports.aggregate import summarize
from memlab_evals.running.log import ModelAnswer

from tests.evals.test_aggregate import make_log
from tests.integration.openai_server import Behaviour, FakeOpenAIServer, ok, text

INPUT = re.compile(r"input:\s*(\{.*\})\s*Output:\s*$", re.DOTALL)
TITLE = re.compile(r'"title":\s*"(\w+)"')


def _words(value: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", value.lower()) if len(w) > 2}


def _held(statement: str, text_value: str) -> bool:
    return _words(statement) <= _words(text_value)


def careful(body) -> Behaviour:
    """Answer ragas's statement, NLI and classification prompts by word overlap."""
    system = body["messages"][0]["content"]
    schema = TITLE.findall(system)[-1]
    given = json.loads(INPUT.search(body["messages"][-1]["content"]).group(1))
    if schema == "StatementGeneratorOutput":
        return ok({"statements": [given["answer"]]})
    if schema == "NLIStatementOutput":
        return ok(
            {
                "statements": [
                    {
                        "statement": s,
                        "reason": "words in the context",
                        "verdict": int(_held(s, given["context"])),
                    }
                    for s in given["statements"]
                ]
            }
        )
    if schema == "ClassificationWithReason":
        gold = " ".join(given["ground_truth"])
        said = " ".join(given["answer"])
        return ok(
            {
                "TP": [
                    {"statement": s, "reason": "r"}
                    for s in given["answer"]
                    if _held(gold, s)
                ],
                "FP": [
                    {"statement": s, "reason": "r"}
                    for s in given["answer"]
                    if not _held(gold, s)
                ],
                "FN": [
                    {"statement": g, "reason": "r"}
                    for g in given["ground_truth"]
                    if not _held(g, said)
                ],
            }
        )
    raise AssertionError(f"unexpected ragas prompt {schema}")


def _answered(log, right: bool):
    """Every probe answered with its gold (right) or with a wrong thing."""
    probes = []
    for p in log.probes:
        reply = p.answer if right else "the blue bicycle"
        probes.append(
            p.model_copy(update={"model_answer": ModelAnswer(text=reply, status="ok")})
        )
    return log.model_copy(update={"probes": probes})


def _score(server: FakeOpenAIServer, log):
    judge = Endpoint(server.base_url, "scripted")
    options = CallOptions(
        use_cache=False, max_attempts=1, timeout_s=10, max_connections=2
    )
    return with_ragas_llm(log, judge, options)


@pytest.mark.slow
def test_answers_that_state_the_gold_score_one_and_others_zero():
    with FakeOpenAIServer(responder=careful) as server:
        right = _score(server, _answered(make_log(), right=True))
        wrong = _score(server, _answered(make_log(), right=False))
        assert server.requests, "ragas sent nothing to the judge's endpoint"
    scored = [p for p in right.probes if applies(p)]
    assert scored and all(not p.ragas_failed for p in scored)
    assert all(p.ragas["answer_correctness"] == 1.0 for p in scored)
    assert all(p.ragas["answer_correctness"] == 0.0 for p in wrong.probes if applies(p))
    # faithfulness: 1 where the context holds the gold's words, 0 where it is empty
    supported = [p for p in scored if _held(p.answer, p.context)]
    empty = [p for p in scored if not p.context.strip()]
    assert supported and empty
    assert all(p.ragas["faithfulness"] == 1.0 for p in supported)
    assert all(p.ragas["faithfulness"] == 0.0 for p in empty)
    rows = summarize(right)
    alls = rows[rows["category"] == "all"].set_index("system")
    assert alls.loc["full", "ragas_answer_correctness"] == 1.0
    assert alls.loc["full", "ragas_faithfulness"] >= alls.loc["A", "ragas_faithfulness"]
    assert (alls["ragas_llm_failures"] == 0).all()


@pytest.mark.slow
def test_a_judge_that_babbles_leaves_probes_unscored_and_counted():
    with FakeOpenAIServer(
        responder=lambda body: text("purple monkey dishwasher")
    ) as server:
        log = _score(server, _answered(make_log(), right=True))
    tried = [p for p in log.probes if applies(p)]
    assert tried and all(set(p.ragas_failed) == set(LLM_METRICS) for p in tried)
    assert all("faithfulness" not in p.ragas for p in tried)
    rows = summarize(log)
    alls = rows[rows["category"] == "all"].set_index("system")
    assert alls["ragas_faithfulness"].isna().all()
    for system, row in alls.iterrows():
        expected = 2 * sum(p.system == system for p in tried)
        assert row["ragas_llm_failures"] == expected


def test_probes_without_an_answer_are_not_sent():
    log = make_log()
    assert not any(applies(p) for p in log.probes)
    with FakeOpenAIServer(responder=careful) as server:
        same = _score(server, log)
        assert not server.requests
    assert same == log
    assert all(math.isnan(v) for v in summarize(same)["ragas_faithfulness"])
