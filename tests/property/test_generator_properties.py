"""Generator invariants over its knobs: shape, truth and determinism always hold."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memlab_datasets import GeneratorConfig, conversation_problems, generate
from memlab_datasets.domains import SMALL_TALK
from memlab_datasets.generator import EPOCH
from memlab_datasets.types import conversation_line

from memory_lab.config import FACT_CATEGORIES


@st.composite
def configs(draw):
    fact_density = draw(st.floats(0.0, 1.0))
    return GeneratorConfig(
        seed=draw(st.integers(0, 10_000)),
        conversations=draw(st.integers(1, 2)),
        sessions=draw(st.integers(1, 5)),
        turns_per_session=draw(st.integers(2, 40)),
        fact_density=fact_density,
        update_rate=draw(st.floats(0.0, 1.0)),
        distractor_ratio=draw(st.floats(0.0, 0.9)),
        trap_rate=draw(st.floats(0.0, 1.0 - fact_density)),
        long_message_rate=draw(st.sampled_from([0.0, 0.05, 0.5])),
        span_days=draw(st.integers(1, 120)),
        domain=draw(
            st.sampled_from(["mixed", "bookkeeping", "finance", "coding", "companion"])
        ),
        probes_per_kind=draw(st.integers(0, 6)),
    )


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(configs())
def test_shape_follows_the_knobs(config):
    data = generate(config)
    assert len(data.conversations) == config.conversations
    for conv in data.conversations:
        assert len(conv.sessions) == config.sessions
        assert len(conv.turns) == config.sessions * config.turns_per_session
        assert all(len(s.turn_ids) == config.turns_per_session for s in conv.sessions)
        kinds = Counter(p.kind for p in conv.probes)
        assert all(n <= config.probes_per_kind for n in kinds.values())
        assert len({p.id for p in conv.probes}) == len(conv.probes)


@SETTINGS
@given(configs())
def test_ground_truth_is_always_consistent(config):
    for conv in generate(config).conversations:
        assert conversation_problems(conv) == []


@SETTINGS
@given(configs())
def test_sessions_stay_within_the_span_in_order(config):
    for conv in generate(config).conversations:
        starts = [s.started_at for s in conv.sessions]
        assert starts == sorted(starts)
        assert EPOCH <= starts[0] < EPOCH + timedelta(days=config.span_days)
        for session in conv.sessions:
            stamps = [conv.turn(t).timestamp for t in session.turn_ids]
            assert stamps[0] > session.started_at
            assert all(s.tzinfo is not None for s in stamps)


@settings(max_examples=25, deadline=None)
@given(configs())
def test_same_knobs_same_bytes(config):
    a = [conversation_line(c) for c in generate(config).conversations]
    b = [conversation_line(c) for c in generate(config).conversations]
    assert a == b


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    domain=st.sampled_from(["bookkeeping", "finance", "coding", "companion"]),
    update_rate=st.floats(0.0, 1.0),
)
def test_enough_fact_moves_cover_every_category(seed, domain, update_rate):
    config = GeneratorConfig(
        seed=seed,
        conversations=1,
        sessions=2,
        turns_per_session=16,
        fact_density=1.0,
        trap_rate=0.0,
        distractor_ratio=0.0,
        update_rate=update_rate,
        domain=domain,
    )
    (conv,) = generate(config).conversations
    assert {f.category for f in conv.gold_facts} == set(FACT_CATEGORIES)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), ratio=st.floats(0.0, 0.9))
def test_distractor_ratio_sets_the_share_of_small_talk(seed, ratio):
    config = GeneratorConfig(
        seed=seed,
        conversations=1,
        sessions=1,
        turns_per_session=40,
        distractor_ratio=ratio,
        long_message_rate=0.0,
    )
    (conv,) = generate(config).conversations
    user = [t.content for t in conv.turns if t.role == "user"]
    small = sum(text in SMALL_TALK for text in user)
    assert small == round(20 * ratio)
