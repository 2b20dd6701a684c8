"""JSONL round-trip and the one `load_dataset(spec)` entry point."""

from __future__ import annotations

import json

import pytest
from memlab_datasets import (
    GeneratorConfig,
    generate,
    load_dataset,
    load_jsonl,
    parse_synthetic_spec,
    save_jsonl,
)

from memory_lab.errors import DatasetError


@pytest.fixture(scope="module")
def small():
    return generate(GeneratorConfig(seed=2, conversations=2, sessions=2))


def test_round_trip_keeps_every_record_and_the_hash(small, tmp_path):
    path = save_jsonl(small, tmp_path / "set.jsonl")
    again = load_jsonl(path)
    assert again.conversations == small.conversations
    assert again.content_hash == small.content_hash
    assert again.name == "set"
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2


def test_saving_twice_gives_identical_bytes(small, tmp_path):
    a = save_jsonl(small, tmp_path / "a.jsonl").read_bytes()
    b = save_jsonl(
        generate(GeneratorConfig(seed=2, conversations=2, sessions=2)),
        tmp_path / "b.jsonl",
    ).read_bytes()
    assert a == b


def test_bad_line_names_file_and_line(small, tmp_path):
    path = save_jsonl(small, tmp_path / "set.jsonl")
    lines = path.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[1])
    del broken["tenant"]
    path.write_text(lines[0] + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"set\.jsonl: line 2: tenant"):
        load_jsonl(path)


def test_not_json_names_the_line(tmp_path):
    path = tmp_path / "junk.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"junk\.jsonl: line 1"):
        load_jsonl(path)


def test_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="no conversations"):
        load_jsonl(path)


def test_synthetic_spec_sets_knobs():
    config = parse_synthetic_spec("synthetic:seed=7,turns-per-session=20,domain=coding")
    assert (config.seed, config.turns_per_session, config.domain) == (7, 20, "coding")
    assert parse_synthetic_spec("synthetic") == GeneratorConfig()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("synthetic:colour=red", "colour"),
        ("synthetic:seed", "knob=value"),
        ("synthetic:fact_density=2", "fact_density"),
    ],
)
def test_bad_synthetic_spec_names_the_knob(spec, message):
    with pytest.raises(DatasetError, match=message):
        parse_synthetic_spec(spec)


def test_load_dataset_generates_from_spec():
    data = load_dataset("synthetic:seed=2,conversations=2,sessions=2")
    assert (
        data.content_hash
        == generate(GeneratorConfig(seed=2, conversations=2, sessions=2)).content_hash
    )


def test_load_dataset_reads_jsonl_and_detects_locomo(small, tmp_path):
    path = save_jsonl(small, tmp_path / "set.jsonl")
    assert load_dataset(str(path)).content_hash == small.content_hash
    locomo = tmp_path / "tiny.json"
    locomo.write_text(
        json.dumps(
            [
                {
                    "sample_id": "c1",
                    "conversation": {
                        "speaker_a": "A",
                        "speaker_b": "B",
                        "session_1_date_time": "1:00 pm on 1 May, 2023",
                        "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
                    },
                    "qa": [],
                }
            ]
        ),
        encoding="utf-8",
    )
    by_path = load_dataset(str(locomo))
    by_prefix = load_dataset(f"locomo:{locomo}")
    assert by_path.conversations[0].source == "locomo"
    assert by_path.content_hash == by_prefix.content_hash


def test_load_dataset_rejects_unknown_inputs(tmp_path):
    with pytest.raises(DatasetError, match="no such file"):
        load_dataset(str(tmp_path / "missing.jsonl"))
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(DatasetError, match="not in LoCoMo's format"):
        load_dataset(str(other))
    text = tmp_path / "notes.txt"
    text.write_text("x", encoding="utf-8")
    with pytest.raises(DatasetError, match="unknown dataset file type"):
        load_dataset(str(text))
