"""One synthetic conversation: sessions of exchanges, then its gold and probes.

Sessions fall on seeded days; inside one, small talk sits on seeded exchanges
and every other exchange is a fact move, a trap or on-topic chatter, drawn by
the config's shares.
"""

from __future__ import annotations

import random
from datetime import timedelta

from memlab_datasets.domains import Domain
from memlab_datasets.generator.config import (
    EPOCH,
    GENERATOR_VERSION,
    USER_SPEAKER,
    GeneratorConfig,
)
from memlab_datasets.generator.fact_moves import follow_up, make_fact_move
from memlab_datasets.generator.gold import gold_facts
from memlab_datasets.generator.noise import chatter, sign_off, small_talk
from memlab_datasets.generator.probes import ProbePlanner
from memlab_datasets.generator.timeline import Timeline
from memlab_datasets.generator.traps import reject_suggestion, set_trap
from memlab_datasets.types import Conversation, Session


def build_conversation(
    config: GeneratorConfig, index: int, domain: Domain, rng: random.Random
) -> Conversation:
    """Write the timeline, then place probes on it."""
    timeline = Timeline(config, index, domain, rng)
    for number, day in enumerate(_session_days(timeline), start=1):
        _session(timeline, number, day)
    gold = gold_facts(timeline)
    probes = ProbePlanner(timeline).plan()
    return Conversation(
        id=timeline.tenant,
        tenant=timeline.tenant,
        source="synthetic",
        speakers={"user": USER_SPEAKER, "assistant": domain.persona},
        sessions=timeline.sessions,
        turns=timeline.turns,
        probes=probes,
        gold_facts=gold,
        traps=[t.trap for t in timeline.traps],
        metadata={
            "domain": domain.name,
            "seed": config.seed,
            "generator_version": GENERATOR_VERSION,
            # Knobs without the count: a conversation is the same whether
            # two or twenty were generated.
            "knobs": config.model_dump(exclude={"conversations"}),
        },
    )


def _session_days(timeline: Timeline) -> list[int]:
    span, count = timeline.config.span_days, timeline.config.sessions
    if count <= span:
        return sorted(timeline.rng.sample(range(span), count))
    return sorted(timeline.rng.randrange(span) for _ in range(count))


def _session(timeline: Timeline, number: int, day: int) -> None:
    t = timeline
    planned = EPOCH + timedelta(days=day, minutes=t.rng.randrange(600))
    # A session never starts before the previous one has ended.
    start = max(planned, t.now + timedelta(minutes=30))
    t.now = start
    t.session_no, t.turn_no = number, 0
    t.session_turn_ids = []
    exchanges = t.config.turns_per_session // 2
    small = round(exchanges * t.config.distractor_ratio)
    distractors = set(t.rng.sample(range(exchanges), small))
    content_left = exchanges - small
    for e in range(exchanges):
        if e in distractors:
            small_talk(t)
            continue
        content_left -= 1
        _content(t, room=content_left)
    if t.config.turns_per_session % 2:
        sign_off(t)
    t.sessions.append(
        Session(id=f"session_{number}", started_at=start, turn_ids=t.session_turn_ids)
    )


def _content(timeline: Timeline, room: int) -> None:
    """One non-small-talk exchange; `room` is how many more fit this session."""
    t = timeline
    if t.pending is not None:
        follow_up(t)
        return
    if t.pending_rejection:
        reject_suggestion(t)
        return
    roll = t.rng.random()
    if roll < t.config.fact_density:
        make_fact_move(t, room)
    elif roll < t.config.fact_density + t.config.trap_rate:
        set_trap(t, room)
    else:
        chatter(t)
