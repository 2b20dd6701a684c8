"""Synthetic generator: determinism and ground truth that agrees with the text."""

from __future__ import annotations

from collections import Counter

import pytest
from memlab_datasets import (
    KIND_CATEGORY,
    GeneratorConfig,
    dataset_problems,
    generate,
)
from memlab_datasets.generator import generate_conversation
from memlab_datasets.types import TRAP_KINDS, conversation_line
from pydantic import ValidationError

from memory_lab.config import FACT_CATEGORIES


@pytest.fixture(scope="module")
def default_set():
    return generate(GeneratorConfig(seed=7))


def test_same_seed_gives_identical_bytes():
    a = generate(GeneratorConfig(seed=3, conversations=3))
    b = generate(GeneratorConfig(seed=3, conversations=3))
    assert [conversation_line(c) for c in a.conversations] == [
        conversation_line(c) for c in b.conversations
    ]
    assert a.content_hash == b.content_hash


def test_other_seed_gives_other_conversations():
    a = generate(GeneratorConfig(seed=3))
    b = generate(GeneratorConfig(seed=4))
    assert a.content_hash != b.content_hash


def test_a_conversation_does_not_depend_on_how_many_are_generated():
    few = generate(GeneratorConfig(seed=5, conversations=2))
    many = generate(GeneratorConfig(seed=5, conversations=6))
    assert few.conversations == many.conversations[:2]
    alone = generate_conversation(GeneratorConfig(seed=5, conversations=6), 1)
    assert alone == many.conversations[1]


def test_default_set_is_consistent(default_set):
    assert dataset_problems(default_set) == []


def test_default_set_shape(default_set):
    assert len(default_set.conversations) == 4
    for conv in default_set.conversations:
        assert len(conv.sessions) == 6
        assert len(conv.turns) == 6 * 16
    domains = {conv.metadata["domain"] for conv in default_set.conversations}
    assert domains == {"bookkeeping", "finance", "coding", "companion"}


def test_every_probe_kind_and_trap_kind_occurs(default_set):
    kinds = Counter(p.kind for c in default_set.conversations for p in c.probes)
    assert set(kinds) == set(KIND_CATEGORY)
    traps = Counter(t.kind for c in default_set.conversations for t in c.traps)
    assert set(traps) == set(TRAP_KINDS)


def test_every_conversation_covers_every_fact_category(default_set):
    for conv in default_set.conversations:
        assert {f.category for f in conv.gold_facts} == set(FACT_CATEGORIES)


def test_evidence_exists_and_precedes_each_probe(default_set):
    for conv in default_set.conversations:
        order = {t.id: i for i, t in enumerate(conv.turns)}
        for probe in conv.probes:
            for turn_id in probe.evidence:
                assert order[turn_id] <= order[probe.after_turn]


def test_gold_values_are_in_their_turns_and_spoken_by_the_user(default_set):
    for conv in default_set.conversations:
        for fact in conv.gold_facts:
            turn = conv.turn(fact.turn_id)
            assert fact.value in turn.content
            assert turn.role == "user"


def test_update_probes_answer_the_newest_value(default_set):
    probes = [
        (c, p)
        for c in default_set.conversations
        for p in c.probes
        if p.kind == "update"
    ]
    assert probes
    for conv, probe in probes:
        asked = conv.positions[probe.after_turn]
        (key,) = probe.fact_keys
        stated = [
            f
            for f in conv.gold_facts
            if f.key == key and conv.positions[f.turn_id] <= asked
        ]
        assert stated[-1].value == probe.answer
        earlier = {f.value for f in stated[:-1]}
        assert probe.stale_answers and set(probe.stale_answers) <= earlier
        assert probe.answer not in probe.stale_answers


def test_abstention_probes_ask_about_things_never_stated(default_set):
    for conv in default_set.conversations:
        stated_keys = {f.key for f in conv.gold_facts}
        for probe in conv.probes:
            if probe.kind == "abstention":
                assert probe.answer == "not known"
                assert not set(probe.fact_keys) & stated_keys


def test_temporal_answers_are_session_dates(default_set):
    for conv in default_set.conversations:
        for probe in conv.probes:
            if probe.kind != "temporal":
                continue
            session = conv.turn(probe.evidence[0]).session
            started = next(s.started_at for s in conv.sessions if s.id == session)
            assert probe.answer == f"{started.day} {started:%B %Y}"


def test_traps_are_not_gold_facts_of_their_turn(default_set):
    for conv in default_set.conversations:
        fact_turns = {f.turn_id for f in conv.gold_facts}
        for trap in conv.traps:
            assert trap.turn_id not in fact_turns
            assert trap.value in conv.turn(trap.turn_id).content


def test_timestamps_are_aware_and_never_go_back(default_set):
    for conv in default_set.conversations:
        stamps = [t.timestamp for t in conv.turns]
        assert all(s.tzinfo is not None for s in stamps)
        assert stamps == sorted(stamps)


def test_single_domain_knob():
    data = generate(GeneratorConfig(conversations=3, domain="coding"))
    assert {c.metadata["domain"] for c in data.conversations} == {"coding"}


def test_ten_thousand_turn_conversation():
    config = GeneratorConfig(conversations=1, sessions=20, turns_per_session=500)
    conv = generate(config).conversations[0]
    assert len(conv.turns) == 10_000
    assert len({t.id for t in conv.turns}) == 10_000
    assert dataset_problems(generate(config)) == []


def test_long_messages_appear_when_asked_for():
    data = generate(GeneratorConfig(long_message_rate=1.0, conversations=1))
    user = [t for t in data.conversations[0].turns if t.role == "user"]
    assert all(len(t.content) > 500 for t in user)


def test_shares_that_do_not_fit_are_rejected():
    with pytest.raises(ValidationError, match="fact_density"):
        GeneratorConfig(fact_density=0.9, trap_rate=0.2)


def test_spec_reproduces_config():
    config = GeneratorConfig(seed=9, sessions=3, domain="finance")
    assert config.spec() == "synthetic:seed=9,sessions=3,domain=finance"
