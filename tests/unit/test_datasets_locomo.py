"""LoCoMo loader: the dev split's counts, repairs of its faults, clear errors."""

from __future__ import annotations

import json
import os
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from memlab_datasets import dataset_problems, load_locomo
from memlab_datasets.locomo import parse_evidence, parse_session_date

from memory_lab.errors import DatasetError

LOCOMO_DIR = Path(
    os.environ.get(
        "MEMLAB_LOCOMO_DIR",
        Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo",
    )
)
DEV = LOCOMO_DIR / "locomo10_dev.json"
AUDIT = LOCOMO_DIR / "locomo10_dev_audit.json"
needs_dev = pytest.mark.skipif(
    not DEV.exists(), reason=f"LoCoMo dev split is not vendored; not found at {DEV}"
)


def _mini(**overrides):
    """A two-session LoCoMo record with every known fault of the real file."""
    record = {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                {
                    "speaker": "Bo",
                    "dia_id": "D1:2",
                    "text": "Look!",
                    "blip_caption": "a photo of a cat",
                },
            ],
            "session_2_date_time": "10:37 am on 27 June, 2023",
            "session_2": [
                {"speaker": "Ann", "dia_id": "D2:1", "text": "Her name is Tig."},
            ],
            "session_3_date_time": "9:00 am on 1 July, 2023",
        },
        "qa": [
            {
                "question": "What pet?",
                "answer": "a cat",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "Which year?",
                "answer": 2023,
                "evidence": ["D1:1; D2:1"],
                "category": 2,
            },
            {
                "question": "Odd ids?",
                "answer": "x",
                "evidence": ["D", "D:2:1", "D9:9"],
                "category": 1,
            },
            {
                "question": "Bo's cat?",
                "evidence": ["D1:2"],
                "category": 5,
                "adversarial_answer": "Tig",
            },
        ],
        "observation": {
            "session_1_observation": {"Ann": [["Ann adopted a cat.", "D1:1"]]},
            "session_2_observation": {
                "Ann": [["The cat is Tig.", ["D2:1", "D1:1"]], ["Lost.", "D7:7"]]
            },
        },
        "session_summary": {"session_1_summary": "Ann got a cat."},
    }
    record.update(overrides)
    return [record]


def _write(tmp_path, data, name="mini.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_session_dates_are_aware():
    assert parse_session_date("1:56 pm on 8 May, 2023") == datetime(
        2023, 5, 8, 13, 56, tzinfo=UTC
    )
    assert parse_session_date("12:09 am on 13 September, 2023").hour == 0
    with pytest.raises(ValueError, match="unrecognised"):
        parse_session_date("yesterday")


@pytest.mark.parametrize(
    ("raw", "ids", "clean"),
    [
        ("D1:3", ["D1:3"], True),
        ("D8:6; D9:17", ["D8:6", "D9:17"], False),
        ("D:11:26", ["D11:26"], False),
        ("D", [], False),
    ],
)
def test_evidence_ids_are_repaired_where_possible(raw, ids, clean):
    assert parse_evidence(raw) == (ids, clean)


def test_mini_file_maps_speakers_turns_and_probes(tmp_path):
    data = load_locomo(_write(tmp_path, _mini()))
    (conv,) = data.conversations
    assert conv.tenant == "conv-x"
    assert conv.speakers == {"user": "Ann", "assistant": "Bo"}
    assert [s.id for s in conv.sessions] == ["session_1", "session_2"]
    assert conv.sessions[0].summary == "Ann got a cat."
    assert [t.role for t in conv.turns] == ["user", "assistant", "user"]
    assert conv.turns[1].content == "Look! [shares a photo: a photo of a cat]"
    assert conv.turns[1].timestamp == datetime(2023, 5, 8, 13, 57, tzinfo=UTC)
    recall, year, odd, adversarial = conv.probes
    assert recall.kind == "recall" and recall.after_turn == "D2:1"
    assert year.answer == "2023" and year.evidence == ["D1:1", "D2:1"]
    assert odd.kind == "multi_hop" and odd.evidence == ["D2:1"]
    assert adversarial.kind == "abstention"
    assert adversarial.answer == "not known"
    assert adversarial.adversarial_answer == "Tig"
    assert dataset_problems(data) == []


def test_mini_file_counts_what_it_could_not_use(tmp_path):
    counts = load_locomo(_write(tmp_path, _mini())).metadata["counts"]
    assert counts["evidence_ids"] == 6
    assert counts["evidence_malformed"] == 3
    assert counts["evidence_recovered"] == 3
    assert counts["evidence_unparseable"] == 1
    assert counts["evidence_dangling"] == 1
    assert counts["observation_dangling"] == 1


def test_observations_become_gold_facts(tmp_path):
    (conv,) = load_locomo(_write(tmp_path, _mini())).conversations
    assert [(f.subject, f.value, f.turn_ids) for f in conv.gold_facts] == [
        ("Ann", "Ann adopted a cat.", ["D1:1"]),
        ("Ann", "The cat is Tig.", ["D2:1", "D1:1"]),
    ]


def test_audit_corrections_applied_or_only_attached(tmp_path):
    path = _write(tmp_path, _mini())
    audit = _write(
        tmp_path,
        [
            {
                "question_id": "locomo_0_qa0",
                "question": "What pet?",
                "error_type": "HALLUCINATION",
                "correct_answer": "a cat named Tig",
                "correct_evidence": ["D1:1", "D2:1"],
                "reasoning": "both turns",
            },
            {
                "question_id": "locomo_0_qa3",
                "question": "Not in this file?",
                "correct_answer": "z",
                "correct_evidence": [],
            },
        ],
        "audit.json",
    )
    applied = load_locomo(path, audit=audit).conversations[0].probes[0]
    assert applied.corrected and applied.answer == "a cat named Tig"
    assert applied.evidence == ["D1:1", "D2:1"]
    assert applied.audit.original_answer == "a cat"
    kept = load_locomo(path, audit=audit, apply_corrections=False)
    probe = kept.conversations[0].probes[0]
    assert not probe.corrected and probe.answer == "a cat"
    assert probe.audit.correct_answer == "a cat named Tig"
    assert kept.metadata["counts"]["audit_unmatched"] == 1
    assert kept.metadata["corrections"] == "attached, not applied"


def test_missing_field_names_file_and_record(tmp_path):
    good = _mini()[0]
    bad = {k: v for k, v in good.items() if k != "qa"} | {"sample_id": "conv-bad"}
    path = _write(tmp_path, [good, bad])
    with pytest.raises(DatasetError, match=r"mini\.json: record 1 \(conv-bad\).*'qa'"):
        load_locomo(path)


def test_unknown_speaker_names_the_turn(tmp_path):
    record = _mini()[0]
    record["conversation"]["session_2"][0]["speaker"] = "Eve"
    with pytest.raises(DatasetError, match="session_2 turn 0: speaker 'Eve'"):
        load_locomo(_write(tmp_path, [record]))


def test_invalid_json_names_file_and_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('[\n{"sample_id": \n', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"broken\.json: not valid JSON at line 3"):
        load_locomo(path)


def test_missing_file_is_a_dataset_error(tmp_path):
    with pytest.raises(DatasetError, match="cannot read"):
        load_locomo(tmp_path / "nope.json")


@needs_dev
def test_dev_split_reproduces_its_counts():
    data = load_locomo(DEV)
    assert len(data.conversations) == 5
    assert sum(len(c.turns) for c in data.conversations) == 2760
    probes = [p for c in data.conversations for p in c.probes]
    assert len(probes) == 999
    assert Counter(p.category for p in probes) == {
        1: 142,
        2: 156,
        3: 46,
        4: 418,
        5: 237,
    }
    assert [c.tenant for c in data.conversations] == [
        "conv-26",
        "conv-30",
        "conv-41",
        "conv-42",
        "conv-43",
    ]


@needs_dev
def test_dev_split_is_consistent_and_its_faults_counted():
    data = load_locomo(DEV)
    assert dataset_problems(data) == []
    counts = data.metadata["counts"]
    assert counts["evidence_malformed"] == 3
    assert counts["evidence_dangling"] == 1
    abstentions = [p for c in data.conversations for p in c.probes if p.category == 5]
    assert all(p.answer == "not known" and p.adversarial_answer for p in abstentions)


@needs_dev
def test_dev_split_with_audit():
    data = load_locomo(DEV, audit=AUDIT)
    counts = data.metadata["counts"]
    assert counts["audit_matched"] == 85 and counts["audit_unmatched"] == 0
    fixed = data.conversations[0].probes[1]
    assert fixed.question == "When did Melanie paint a sunrise?"
    assert fixed.corrected and fixed.evidence == ["D1:14"]
    assert fixed.audit.original_evidence == ["D1:12"]
    assert data.content_hash != load_locomo(DEV).content_hash


@needs_dev
def test_a_slice_gets_exactly_its_own_conversations_corrections(tmp_path):
    records = json.loads(DEV.read_text(encoding="utf-8"))
    audit = json.loads(AUDIT.read_text(encoding="utf-8"))
    wanted = {
        e["question"]
        for e in audit
        if e["question_id"].startswith(("locomo_3_", "locomo_4_"))
    }
    # Conversations 3 and 4 alone, in the other order: positions mean nothing now.
    path = _write(tmp_path, [records[4], records[3]], "slice.json")
    data = load_locomo(path, audit=AUDIT)
    fixed = {p.question for c in data.conversations for p in c.probes if p.audit}
    assert fixed == wanted
    counts = data.metadata["counts"]
    assert counts["audit_matched"] == len(wanted)
    assert counts["audit_unmatched"] == len(audit) - len(wanted)


def test_an_audit_entry_for_another_conversation_is_never_applied(tmp_path):
    path = _write(tmp_path, _mini())
    audit = _write(
        tmp_path,
        [
            {
                "question_id": "locomo_0_qa0",
                "sample_id": "conv-elsewhere",
                "question": "What pet?",
                "correct_answer": "a dog",
                "correct_evidence": [],
            }
        ],
        "audit.json",
    )
    data = load_locomo(path, audit=audit)
    assert not data.conversations[0].probes[0].corrected
    assert data.metadata["counts"]["audit_unmatched"] == 1
