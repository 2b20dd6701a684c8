"""Compression: spans of turns cut into episodes, summarised, ids stable."""

from __future__ import annotations

from datetime import timedelta

from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.config import WindowConfig
from memory_lab.episodes.compression import (
    build_episodes,
    episode_id,
    split_span,
    summary_budget,
)
from memory_lab.recipes import recipe
from memory_lab.tokens import default_counter
from memory_lab.window.summary import update_running_summary
from tests.helpers import T0, msg

COUNTER = default_counter()


def seqd(messages):
    return [m.model_copy(update={"seq": i}) for i, m in enumerate(messages)]


def test_split_cuts_at_sessions_and_at_the_episode_size():
    rec = recipe("A").with_params(episode_max_messages=3)
    span = [msg(i, session="s1") for i in range(5)] + [msg(5, session="s2")]
    chunks = split_span(span, rec)
    assert [[m.id for m in c] for c in chunks] == [
        ["m0", "m1", "m2"],
        ["m3", "m4"],
        ["m5"],
    ]


def test_split_cuts_at_day_boundaries_only_under_trigger_c():
    span = [msg(0, at=T0), msg(1, at=T0 + timedelta(hours=1))]
    span.append(msg(2, at=T0 + timedelta(days=1)))
    assert len(split_span(span, recipe("A"))) == 1
    assert [len(c) for c in split_span(span, recipe("C"))] == [2, 1]


def test_summary_budget_is_a_share_of_the_source_within_bounds():
    config = WindowConfig()
    assert summary_budget(10, config) == config.episode_summary_min_tokens
    assert summary_budget(100_000, config) == config.episode_summary_max_tokens
    assert summary_budget(300, config) == int(300 * config.episode_summary_ratio)


def test_episode_ids_are_deterministic_and_distinct_per_span():
    assert episode_id("t", "main", 0, 5) == episode_id("t", "main", 0, 5)
    assert episode_id("t", "main", 0, 5) != episode_id("t", "main", 0, 6)
    assert episode_id("t", "main", 0, 5) != episode_id("u", "main", 0, 5)


def test_build_episodes_records_the_span_and_never_grows_it():
    span = seqd(
        [
            msg(i, f"We planned the release of version {i} and chose Postgres.")
            for i in range(4)
        ]
    )
    brain = RuleBasedBrain(counter=COUNTER)
    episodes = build_episodes(
        "t1",
        "main",
        span,
        recipe=recipe("A"),
        brain=brain,
        counter=COUNTER,
        now=T0,
        config=WindowConfig(),
        trigger="A",
    ).value
    assert len(episodes) == 1
    ep = episodes[0]
    assert (ep.first_seq, ep.last_seq) == (0, 3)
    assert ep.turn_ids == ["m0", "m1", "m2", "m3"]
    assert ep.original_tokens == sum(COUNTER.count(m.content) for m in span)
    assert ep.summary_tokens == COUNTER.count(ep.summary)
    assert ep.summary_tokens <= ep.original_tokens
    assert 0.0 <= ep.share_removed < 1.0
    assert ep.trigger == "A" and ep.brain == brain.name
    assert ep.id == episode_id("t1", "main", 0, 3)


def test_running_summary_appends_and_condenses_past_its_budget():
    brain = RuleBasedBrain(counter=COUNTER)
    span = seqd([msg(i, f"The budget for project {i} is {i} euros.") for i in range(3)])
    episodes = build_episodes(
        "t1",
        "main",
        span,
        recipe=recipe("A"),
        brain=brain,
        counter=COUNTER,
        now=T0,
        config=WindowConfig(),
        trigger="A",
    ).value
    config = WindowConfig(summary_budget_tokens=20)
    small = update_running_summary(
        "", episodes, brain=brain, counter=COUNTER, config=WindowConfig()
    ).value
    assert small.startswith(f"[{T0.date().isoformat()}]")
    long = update_running_summary(
        "word " * 200, episodes, brain=brain, counter=COUNTER, config=config
    ).value
    assert COUNTER.count(long) <= config.summary_budget_tokens
