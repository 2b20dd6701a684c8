"""The LongMemEval loader, on a hand-written fixture in the published schema."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from memlab_datasets import load_dataset
from memlab_datasets.categories import ABSTENTION_ANSWER, category_name
from memlab_datasets.longmemeval import (
    LongMemEvalOptions,
    load_longmemeval,
    parse_date,
    split_argument,
)
from memlab_datasets.serialization import load_jsonl, save_jsonl

from memory_lab.errors import DatasetError

FIXTURE = (
    Path(__file__).parents[1] / "data" / "longmemeval" / "longmemeval_fixture.json"
)
RAW = json.loads(FIXTURE.read_text(encoding="utf-8"))


def by_id(dataset, question_id):
    (conv,) = [c for c in dataset.conversations if c.id == question_id]
    return conv


@pytest.fixture(scope="module")
def data():
    return load_longmemeval(FIXTURE)


def write(tmp_path, records) -> Path:
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def test_each_instance_is_one_conversation_with_one_probe(data):
    assert [c.id for c in data.conversations] == [r["question_id"] for r in RAW]
    for conv in data.conversations:
        assert conv.source == "longmemeval"
        assert conv.tenant == conv.id
        assert len(conv.probes) == 1
        assert conv.probes[0].after_turn == conv.turns[-1].id
        assert {t.tenant for t in conv.turns} == {conv.id}
    assert data.metadata["source"] == "longmemeval"
    assert data.name == "longmemeval_fixture"


def test_sessions_keep_dates_roles_and_turn_order(data):
    conv = by_id(data, "fx_multi_01")
    assert [s.id for s in conv.sessions] == ["fx_m_a", "fx_m_ans1", "fx_m_ans2"]
    assert conv.sessions[1].started_at == datetime(2024, 3, 5, 19, 30, tzinfo=UTC)
    second = conv.sessions[1]
    assert second.turn_ids == ["fx_m_ans1:1", "fx_m_ans1:2"]
    first, reply = (conv.turn(t) for t in second.turn_ids)
    assert (first.role, reply.role) == ("user", "assistant")
    assert first.session == "fx_m_ans1"
    assert first.content.startswith("I just booked two wheel-throwing")
    assert (reply.timestamp - first.timestamp).total_seconds() == 60
    stamps = [t.timestamp for t in conv.turns]
    assert stamps == sorted(stamps)
    assert conv.metadata["question_date"] == "2024-03-20T18:00:00+00:00"


def test_sessions_are_put_in_date_order(data):
    # The fixture lists the update's sessions newest first.
    conv = by_id(data, "fx_update_01")
    assert [s.id for s in conv.sessions] == ["fx_u_ans1", "fx_u_b", "fx_u_ans2"]
    assert conv.turns[0].content.startswith("I ride Route 17")


def test_has_answer_turns_are_the_evidence_and_sessions_are_kept(data):
    probe = by_id(data, "fx_temporal_01").probes[0]
    assert probe.evidence == ["fx_t_ans1:1", "fx_t_ans2:2"]
    assert probe.evidence_sessions == ["fx_t_ans1", "fx_t_ans2"]
    multi = by_id(data, "fx_multi_01").probes[0]
    assert multi.evidence == ["fx_m_ans1:1", "fx_m_ans2:1"]
    assert multi.answer == "3"  # a number in the file, text on the probe


def test_question_types_are_categories_and_abs_ids_abstain(data):
    kinds = {c.id: (c.probes[0].category, c.probes[0].kind) for c in data.conversations}
    assert kinds == {
        "fx_multi_01": (10, "multi_hop"),
        "fx_update_01": (11, "update"),
        "fx_temporal_01": (12, "temporal"),
        "fx_user_01": (7, "recall"),
        "fx_pref_01": (9, "recall"),
        "fx_user_02_abs": (7, "abstention"),
        "fx_assistant_01": (8, "recall"),
        "fx_temporal_02_abs": (12, "abstention"),
        "fx_multi_02": (10, "multi_hop"),
    }
    assert category_name(10) == "multi-session"
    abstain = by_id(data, "fx_user_02_abs")
    assert abstain.probes[0].answer == ABSTENTION_ANSWER
    assert abstain.metadata["original_answer"].startswith("You never mentioned")


def test_the_fixture_has_each_kind_the_loader_must_read(data):
    """Multi-session, update, temporal and abstention, each with evidence marked."""
    probes = [c.probes[0] for c in data.conversations]
    kinds = {p.kind for p in probes}
    assert {"multi_hop", "update", "temporal", "abstention"} <= kinds
    for probe in probes:
        assert probe.evidence, probe.id
        assert probe.evidence_sessions, probe.id
        sessions = {t.split(":")[0] for t in probe.evidence}
        assert sessions <= set(probe.evidence_sessions), probe.id
    # An assistant's turn can be the evidence (single-session-assistant).
    helper = by_id(data, "fx_assistant_01")
    assert helper.turn(helper.probes[0].evidence[0]).role == "assistant"


def test_the_question_is_asked_at_its_date(data):
    for raw in RAW:
        conv = by_id(data, raw["question_id"])
        asked = conv.probes[0].asked_at
        assert asked == parse_date(raw["question_date"])
        assert asked > conv.turns[-1].timestamp


def test_a_question_dated_inside_the_last_session_is_asked_after_it(tmp_path):
    records = copy.deepcopy(RAW[:1])
    records[0]["question_date"] = records[0]["haystack_dates"][-1]  # its first minute
    data = load_longmemeval(write(tmp_path, records))
    conv = data.conversations[0]
    assert conv.probes[0].asked_at == conv.turns[-1].timestamp
    assert data.metadata["counts"]["questions_dated_before_last_turn"] == 1


def test_the_selection_is_counted_for_describe():
    counts = load_dataset(f"longmemeval:{FIXTURE}:limit=2").metadata["counts"]
    assert counts["instances_in_file"] == len(RAW)
    assert counts["instances_picked"] == 2
    assert counts["questions_dated_before_last_turn"] == 0


def test_the_loaded_fixture_is_consistent(data):
    from memlab_datasets import dataset_problems

    assert dataset_problems(data) == []
    bad = data.conversations[0]
    early = bad.probes[0].model_copy(update={"asked_at": bad.turns[0].timestamp})
    broken_conv = bad.model_copy(update={"probes": [early]})
    from memlab_datasets import conversation_problems

    assert "asked_at is before its after_turn" in " ".join(
        conversation_problems(broken_conv)
    )


def test_a_bare_longmemeval_path_is_read_as_longmemeval():
    assert load_dataset(str(FIXTURE)).metadata["source"] == "longmemeval"


def test_limit_and_question_type_select_in_file_order(tmp_path):
    spec = f"longmemeval:{FIXTURE}"
    assert [c.id for c in load_dataset(f"{spec}:limit=2").conversations] == [
        "fx_multi_01",
        "fx_update_01",
    ]
    users = load_dataset(f"{spec}:question_type=single-session-user")
    assert [c.id for c in users.conversations] == ["fx_user_01", "fx_user_02_abs"]
    both = load_dataset(
        f"{spec}:question_type=multi-session+temporal-reasoning,limit=1"
    )
    assert [c.id for c in both.conversations] == ["fx_multi_01"]
    assert both.name == (
        "longmemeval_fixture:question_type=multi-session+temporal-reasoning,limit=1"
    )


def test_seeded_sample_is_reproducible_and_seed_matters():
    spec = f"longmemeval:{FIXTURE}:sample=3"
    first = load_dataset(f"{spec},seed=7")
    again = load_dataset(f"{spec}:seed=7")  # ':' between options reads as ','
    assert len(first.conversations) == 3
    assert first.content_hash == again.content_hash
    ids = [c.id for c in first.conversations]
    assert ids == [r["question_id"] for r in RAW if r["question_id"] in ids]
    others = {
        tuple(c.id for c in load_dataset(f"{spec},seed={s}").conversations)
        for s in range(8)
    }
    assert len(others) > 1


def test_option_text_and_path_split():
    assert split_argument("a/b.json") == ("a/b.json", "")
    assert split_argument("a/b.json:limit=5,seed=1") == ("a/b.json", "limit=5,seed=1")
    assert split_argument("a/b.json:limit=5:sample=2") == (
        "a/b.json",
        "limit=5,sample=2",
    )
    assert LongMemEvalOptions().label() == ""


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("limit=0", "limit"),
        ("limit=many", "limit"),
        ("question_type=gossip", "unknown question type 'gossip'"),
        ("colour=blue", "colour"),
        ("seed=3", "seed only applies with sample"),
    ],
)
def test_bad_options_are_named(options, message):
    with pytest.raises(DatasetError, match=message):
        load_dataset(f"longmemeval:{FIXTURE}:{options}")


def test_serialization_round_trip_keeps_session_evidence(data, tmp_path):
    back = load_jsonl(save_jsonl(data, tmp_path / "lme.jsonl"))
    assert back.content_hash == data.content_hash
    assert back.conversations[0].probes[0].evidence_sessions == [
        "fx_m_ans1",
        "fx_m_ans2",
    ]


def test_dates_read_with_or_without_the_weekday():
    assert parse_date("2023/05/30 (Tue) 23:40") == datetime(
        2023, 5, 30, 23, 40, tzinfo=UTC
    )
    assert parse_date("2023/05/30 23:40") == datetime(2023, 5, 30, 23, 40, tzinfo=UTC)
    for bad in ("30 May 2023", "2023/13/01 (Fri) 10:00", None):
        with pytest.raises(ValueError, match="cannot read date"):
            parse_date(bad)


def broken(mutate):
    records = copy.deepcopy(RAW)
    mutate(records)
    return records


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ({"question_id": "x"}, "expected a JSON list of LongMemEval instances"),
        ([], "no instances"),
        (
            broken(lambda r: r[1].pop("question_date")),
            r"instance 1 \(fx_update_01\): missing field 'question_date'",
        ),
        (
            broken(lambda r: r[2].update(question_type="gossip")),
            "instance 2 .*unknown question_type 'gossip'",
        ),
        (
            broken(lambda r: r[0]["haystack_dates"].__setitem__(1, "March 5th")),
            r"haystack_dates\[1\]: cannot read date 'March 5th'",
        ),
        (
            broken(lambda r: r[3].update(question_date="soon")),
            "question_date: cannot read date",
        ),
        (
            broken(lambda r: r[0]["haystack_dates"].pop()),
            "differ in length",
        ),
        (
            broken(lambda r: r[4]["haystack_sessions"][0][0].update(role="system")),
            "role 'system' is not user or assistant",
        ),
        (
            broken(lambda r: r[5].update(question_id="fx_multi_01")),
            "duplicate question_id",
        ),
    ],
)
def test_malformed_files_fail_naming_the_problem(tmp_path, records, message):
    with pytest.raises(DatasetError, match=message):
        load_longmemeval(write(tmp_path, records))


def test_a_missing_file_is_named(tmp_path):
    missing = tmp_path / "longmemeval_s.json"
    with pytest.raises(DatasetError, match="longmemeval_s.json: cannot read"):
        load_dataset(f"longmemeval:{missing}")
    garbled = tmp_path / "garbled.json"
    garbled.write_text("[{", encoding="utf-8")
    with pytest.raises(DatasetError, match="garbled.json: not valid JSON"):
        load_longmemeval(garbled)


def test_sessions_minutes_apart_never_run_backwards(tmp_path):
    records = copy.deepcopy(RAW[:1])
    # Three turns in a session, and the next one starts a minute later.
    records[0]["haystack_sessions"][0].append({"role": "user", "content": "one more"})
    records[0]["haystack_dates"][1] = "2024/03/01 (Fri) 09:16"
    conv = load_longmemeval(write(tmp_path, records)).conversations[0]
    stamps = [t.timestamp for t in conv.turns]
    assert all(a < b for a, b in zip(stamps, stamps[1:], strict=False))
    assert conv.metadata["turns_shifted"] > 0
    assert conv.sessions[1].started_at == datetime(2024, 3, 1, 9, 16, tzinfo=UTC)


def test_describe_lists_the_question_types_with_their_kinds(capsys):
    from memlab_cli.main import main

    assert main(["datasets", "describe", f"longmemeval:{FIXTURE}:limit=3"]) == 0
    out = capsys.readouterr().out
    rows = {
        line.split("│")[2].strip(): line for line in out.splitlines() if "│" in line
    }
    assert "multi_hop" in rows["multi-session"]
    assert "update" in rows["knowledge-update"]
    assert "adversarial" not in rows  # LoCoMo's numbers never occur here
    assert "12 │ temporal-reasoning" in out
