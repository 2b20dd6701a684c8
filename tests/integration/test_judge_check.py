"""`judge check`: the calibration set, and scripted judges whose answers are known.

The set is checked on a small synthetic set and on LoCoMo's development split.
Judges are the loopback server with a responder per test: one that answers from the
calibration key, one that calls everything CORRECT, one that babbles. Each is asked
through the real client with J's own prompt, and the command's exit status, table
and files are checked.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from memlab_evals.judging import judges
from memlab_evals.judging.endpoints import CallOptions, Endpoint
from memlab_evals.judging.judge_check import (
    EXIT_UNRELIABLE,
    ITEMS_FILE,
    RESULT_FILE,
    JudgeCalibration,
    calibrate,
    check_judge,
    judge_messages,
    read_checked,
    register,
)
from memlab_evals.judging.judge_items import (
    ABSTENTIONS,
    EXPECTED,
    KINDS,
    calibration_set,
    normalise_answer,
    reformat_date,
)

from memory_lab.errors import MemoryLabError
from tests.integration.openai_server import Behaviour, FakeOpenAIServer, ok, text

DATASET = "synthetic:conversations=2,sessions=2,turns_per_session=8"
ROOT = Path(__file__).resolve().parents[2]
LOCOMO = ROOT.parent / "shared" / "datasets" / "locomo" / "locomo10_dev.json"
PER_KIND = 3
NO_CACHE = CallOptions(use_cache=False, backoff_s=0.01, max_attempts=2)


@pytest.fixture(scope="module")
def items():
    return calibration_set(DATASET, seed=0, per_kind=PER_KIND)


def key_judge(items):
    """Answers every item as the key says, found by J's user message."""
    key = {judge_messages(i)[1]["content"]: i.expected for i in items}

    def respond(body) -> Behaviour:
        return ok({"label": key[body["messages"][1]["content"]], "reasoning": "key"})

    return respond


def always_correct(body) -> Behaviour:
    return ok({"label": "CORRECT", "reasoning": "looks fine"})


def babble(body) -> Behaviour:
    return text("purple monkey dishwasher")


def run_cli(server: FakeOpenAIServer, out: Path, *extra: str) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(
        [
            "judge", "check",
            "--dataset", DATASET,
            "--judge-base-url", server.base_url,
            "--judge-model", "scripted",
            "--per-kind", str(PER_KIND),
            "--out", str(out),
            "--no-cache",
            *extra,
        ]
    )  # fmt: skip
    return args.func(args)


def saved(out: Path) -> JudgeCalibration:
    return JudgeCalibration.model_validate_json((out / RESULT_FILE).read_text())


# -- the set -----------------------------------------------------------------------


def check_items(items, per_kind: int) -> None:
    """Every kind present, each with its verdict and a candidate of its kind."""
    counts = Counter(i.kind for i in items)
    assert set(counts) == set(KINDS)
    assert all(n <= per_kind for n in counts.values())
    assert len({i.id for i in items}) == len(items)
    for item in items:
        assert item.expected == EXPECTED[item.kind]
        assert item.category != 5 and item.gold != "not known"
        if item.kind == "gold":
            assert item.candidate == item.gold
        elif item.kind == "normalised":
            assert item.candidate != item.gold
            assert (
                normalise_answer(item.candidate) == normalise_answer(item.gold)
                or reformat_date(item.gold) == item.candidate
            )
        elif item.kind == "year_off":
            shifted = {
                int(b) - int(a)
                for a, b in zip(
                    re.findall(r"\d{4}", item.gold),
                    re.findall(r"\d{4}", item.candidate),
                    strict=True,
                )
            }
            assert shifted in ({1}, {-1})
        elif item.kind == "abstention":
            assert item.candidate in ABSTENTIONS
        else:
            assert normalise_answer(item.candidate) != normalise_answer(item.gold)
    assert {i.expected for i in items} == {"CORRECT", "WRONG"}


def test_the_synthetic_set_has_every_kind_and_is_deterministic(items):
    check_items(items, PER_KIND)
    assert Counter(i.kind for i in items)["gold"] == PER_KIND
    assert calibration_set(DATASET, seed=0, per_kind=PER_KIND) == items
    assert calibration_set(DATASET, seed=1, per_kind=PER_KIND) != items


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo development split absent")
def test_the_locomo_set_has_every_kind_and_is_deterministic():
    first = calibration_set(str(LOCOMO), seed=3, per_kind=10)
    check_items(first, 10)
    assert Counter(i.kind for i in first) == dict.fromkeys(KINDS, 10)
    assert calibration_set(str(LOCOMO), seed=3, per_kind=10) == first
    other = next(i for i in first if i.kind == "other_answer")
    assert other.candidate != other.gold and other.note.startswith("the gold answer")


def test_normalised_answers_keep_their_meaning():
    assert normalise_answer('The "Little Women", 3.5 $1,000!') == (
        "little women 3.5 $1,000"
    )
    assert normalise_answer("Charlotte's Web") == "charlottes web"
    assert reformat_date("The week before 9 June 2023") == (
        "The week before June 9, 2023"
    )
    assert reformat_date("The weekend of 24June, 2022.") == (
        "The weekend of June 24, 2022."
    )
    assert reformat_date("May 7th, 2023") == "7 May 2023"
    assert reformat_date("4 years ago") is None


def test_a_bad_per_kind_is_refused():
    with pytest.raises(ValueError, match="per-kind"):
        calibration_set(DATASET, per_kind=0)


# -- scripted judges ---------------------------------------------------------------


def test_a_judge_that_follows_the_key_is_reliable(items, tmp_path, capsys):
    with FakeOpenAIServer(responder=key_judge(items)) as server:
        calibration, checked = check_judge(
            DATASET, Endpoint(server.base_url, "scripted"), options=NO_CACHE,
            per_kind=PER_KIND,
        )  # fmt: skip
        # J's own prompt, word for word, one request per item
        assert len(server.requests) == len(items)
        sent = {r.body["messages"][1]["content"] for r in server.requests}
        for item in items:
            system, user = judge_messages(item)
            assert system["content"] == judges.ANSWER_SYSTEM
            assert user["content"] == judges.ANSWER_USER.format(
                question=item.question, gold=item.gold, answer=item.candidate
            )
            assert user["content"] in sent
        assert run_cli(server, tmp_path) == 0
    assert [c.id for c in checked] == [i.id for i in items]
    assert calibration.false_accept.rate == 0.0
    assert (calibration.false_accept.low, calibration.false_accept.high) == (0, 0)
    assert calibration.false_reject.rate == 0.0
    assert calibration.reliable and not calibration.too_strict
    assert calibration.verdict_failures == 0
    assert calibration.false_accept.judged == sum(i.expected == "WRONG" for i in items)
    assert set(calibration.kinds) == set(KINDS)
    assert calibration.prompts == judges.prompt_versions(answers=True, contexts=False)
    assert calibration.judge.model == "scripted"
    out = capsys.readouterr().out
    assert out.rstrip().endswith("judge reliable")
    stored = saved(tmp_path)
    assert stored.reliable and stored.items == len(items)
    lines = (tmp_path / ITEMS_FILE).read_text().splitlines()
    assert len(lines) == len(items)
    assert all(json.loads(line)["agrees"] is True for line in lines)


def test_an_always_correct_judge_is_unreliable(tmp_path, capsys):
    with FakeOpenAIServer(responder=always_correct) as server:
        status = run_cli(server, tmp_path)
    assert status == EXIT_UNRELIABLE
    calibration = saved(tmp_path)
    assert calibration.false_accept.rate == 1.0
    assert calibration.false_accept.against == calibration.false_accept.judged > 0
    assert (calibration.false_accept.low, calibration.false_accept.high) == (1, 1)
    assert calibration.false_reject.rate == 0.0
    assert not calibration.reliable
    for kind in ("other_answer", "year_off", "wrong_name", "abstention"):
        assert calibration.kinds[kind].rate == 1.0
    out = capsys.readouterr().out
    assert "judge UNRELIABLE: false accepts 100.0% > 10.0%" in out
    # the stored verdicts re-score to the same result without a request
    again = calibrate(read_checked(tmp_path / ITEMS_FILE), judge=calibration.judge)
    assert again.false_accept == calibration.false_accept


def test_replies_without_a_verdict_are_failures_not_verdicts(items, tmp_path, capsys):
    with FakeOpenAIServer(responder=babble) as server:
        status = run_cli(server, tmp_path)
    assert status == EXIT_UNRELIABLE
    calibration = saved(tmp_path)
    assert calibration.verdict_failures == calibration.items == len(items)
    assert calibration.false_accept.rate is None
    assert calibration.false_accept.judged == 0
    assert calibration.false_accept.failures > 0
    assert not calibration.reliable and not calibration.too_strict
    assert "purple monkey" in calibration.failure_examples[0]
    assert "judge UNRELIABLE: no verdict" in capsys.readouterr().out
    checked = read_checked(tmp_path / ITEMS_FILE)
    assert all(c.verdict.status == "failed" and c.agrees is None for c in checked)


def test_some_failures_leave_the_rates_to_the_rest(items, tmp_path):
    key = key_judge(items)

    def abstentions_babble(body) -> Behaviour:
        user = body["messages"][1]["content"]
        if user.endswith(ABSTENTIONS):
            return babble(body)
        return key(body)

    with FakeOpenAIServer(responder=abstentions_babble) as server:
        assert run_cli(server, tmp_path) == 0
    calibration = saved(tmp_path)
    abstained = sum(i.kind == "abstention" for i in items)
    wrong = sum(i.expected == "WRONG" for i in items)
    assert calibration.verdict_failures == abstained
    assert calibration.kinds["abstention"].failures == abstained
    assert calibration.kinds["abstention"].rate is None
    assert calibration.false_accept.judged == wrong - abstained
    assert calibration.false_accept.rate == 0.0 and calibration.reliable


def test_too_many_false_rejects_are_flagged(items, tmp_path, capsys):
    def strict(body) -> Behaviour:
        return ok({"label": "WRONG", "reasoning": "nothing is ever right"})

    with FakeOpenAIServer(responder=strict) as server:
        assert run_cli(server, tmp_path) == 0  # lenient is what J cannot survive
    calibration = saved(tmp_path)
    assert calibration.false_reject.rate == 1.0 and calibration.too_strict
    assert "judge too strict: false rejects 100.0% > 20.0%" in capsys.readouterr().out


def test_user_errors_raise_for_exit_status_2(tmp_path):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["judge", "check", "--dataset", DATASET])
    with pytest.raises(MemoryLabError, match="needs a judge"):
        args.func(args)
    with FakeOpenAIServer(responder=always_correct) as server:
        with pytest.raises(ValueError, match="false_accept_max"):
            run_cli(server, tmp_path, "--false-accept-max", "1.5")
        with pytest.raises(ValueError, match="per-kind"):
            run_cli(server, tmp_path, "--per-kind", "0")
        assert server.requests == []
