"""Retention on an advanced clock: each tier loses exactly what its age says.

The maintenance graph applies the policy once per period; what it removes is
gone from every read at once, and from the folder's files after the next open.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from memory_lab import ManualClock, MemoryEngine
from memory_lab.config import MemoryConfig, RetentionConfig
from memory_lab.owner.disk import files_holding
from memory_lab.owner.tombstones import PurgeLog
from memory_lab.stores.sqlite_db import SqliteDatabase
from memory_lab.types import Message
from tests.helpers import spaced_turns

SECRET = "Marrowbone-6612"
T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
TENANT = "ana"


def _conversation() -> list[Message]:
    said = {
        ("d0", 2): f"My locker code is {SECRET}, please remember it.",
        ("d2", 4): "My favourite colour is teal.",
    }
    # Ten days apart, so each age cuts between days.
    return spaced_turns(
        TENANT, said, ("d0", "d1", "d2"), start=T0, apart=timedelta(days=10)
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A folder holding three days ten days apart, compressed, engine closed."""
    data = tmp_path_factory.mktemp("retention") / "data"
    with MemoryEngine(data, clock=ManualClock(T0)) as engine:
        for turn in _conversation():
            engine.clock.set(turn.timestamp)
            engine.ingest(TENANT, [turn])
        engine.close_session(TENANT)
        engine.flush()
    return data


@pytest.fixture
def data(built, tmp_path) -> Path:
    return Path(shutil.copytree(built, tmp_path / "data"))


def _policy(**ages) -> MemoryConfig:
    return MemoryConfig(retention=RetentionConfig(**ages))


def _retained(engine: MemoryEngine) -> list[str]:
    return [
        e.detail for e in engine.events.events(TENANT) if e.kind == "retention_applied"
    ]


@pytest.mark.slow
def test_raw_turns_past_their_age_go_and_their_summaries_stay(data: Path) -> None:
    now = T0 + timedelta(days=25)
    config = _policy(raw_turns_days=12)
    with MemoryEngine(data, clock=ManualClock(now), config=config) as engine:
        held = engine.transcript.messages(TENANT)
        compressed = engine.jobs.marks(TENANT, "main").compressed_upto
        newest = max(m.seq for m in held)
        expected = {
            m.id
            for m in held
            if m.timestamp < now - timedelta(days=12)
            and m.seq <= compressed
            and m.seq != newest
        }
        assert expected, "the fixture has turns past the age"
        episodes = {e.id for e in engine.episodes.get(TENANT)}
        facts = {f.id for f in engine.facts.store.rows(TENANT)}

        engine.tick(TENANT)
        engine.flush()

        left = {m.id for m in engine.transcript.messages(TENANT)}
        assert left == {m.id for m in held} - expected
        assert {e.id for e in engine.episodes.get(TENANT)} == episodes
        assert {f.id for f in engine.facts.store.rows(TENANT)} == facts
        [said] = _retained(engine)
        assert said.startswith(f"Retention removed {len(expected)} turns")

        # The same period asks for no second job; the next one does.
        engine.tick(TENANT)
        engine.flush()
        assert len(_retained(engine)) == 1
        engine.clock.advance(timedelta(days=1))
        engine.tick(TENANT)
        engine.flush()
        assert len(_retained(engine)) == 2


@pytest.mark.slow
def test_old_episodes_and_facts_go_and_the_files_forget_them(data: Path) -> None:
    with MemoryEngine(data, clock=ManualClock(T0)) as engine:
        [secret] = [f for f in engine.facts.active(TENANT) if SECRET in f.value]
        teal = [f.id for f in engine.facts.active(TENANT) if "teal" in f.value]
    # Past the first day's episodes, its day summary and its week (a Monday's).
    now = T0 + timedelta(days=29)
    config = _policy(episodes_days=20, facts_days={secret.category: 20})
    assert files_holding(data, SECRET)
    with MemoryEngine(data, clock=ManualClock(now), config=config) as engine:
        cutoff = now - timedelta(days=20)
        old = {e.id for e in engine.episodes.get(TENANT) if e.end < cutoff}
        kept = {e.id for e in engine.episodes.get(TENANT)} - old
        assert old and kept
        engine.tick(TENANT)
        engine.flush()
        assert {e.id for e in engine.episodes.get(TENANT)} == kept
        assert secret.id not in {f.id for f in engine.facts.store.rows(TENANT)}
        assert teal == [f.id for f in engine.facts.active(TENANT) if "teal" in f.value]
        context = engine.assemble(TENANT, "what is my locker code?")
        assert SECRET not in "\n".join(b.text for b in context.blocks)
        assert SECRET not in engine.jobs.marks(TENANT, "main").summary
    # The next process to open the folder rewrites the files.
    reopen = "import sys, memory_lab as m; m.MemoryEngine(sys.argv[1]).close()"
    subprocess.run([sys.executable, "-c", reopen, str(data)], check=True)
    assert files_holding(data, SECRET) == []
    db = SqliteDatabase(data / "memory.sqlite3")
    try:
        [stone] = PurgeLog(db).tombstones()
    finally:
        db.close()
    assert stone.status == "done" and stone.requested_by == "retention policy"
    assert SECRET not in repr(stone)


def test_old_events_go(data: Path) -> None:
    now = T0 + timedelta(days=25)
    with MemoryEngine(
        data, clock=ManualClock(now), config=_policy(events_days=12)
    ) as engine:
        cutoff = now - timedelta(days=12)
        before = engine.events.events(TENANT)
        young = {e.id for e in before if e.at >= cutoff}
        assert len(young) < len(before)
        engine.tick(TENANT)
        engine.flush()
        after = {e.id for e in engine.events.events(TENANT)}
        [said] = _retained(engine)
        assert after == young | {
            e.id for e in engine.events.events(TENANT) if e.detail == said
        }


def test_memory_held_in_the_process_says_retention_is_not_applied() -> None:
    engine = MemoryEngine(clock=ManualClock(T0), config=_policy(raw_turns_days=1))
    engine.ingest(TENANT, _conversation()[:3])
    engine.flush()
    assert _retained(engine) == [
        "Retention not applied: this memory is held in this process only"
    ]
    engine.close()


def test_bad_policies_are_refused_by_name() -> None:
    with pytest.raises(ValidationError, match="unknown fact categories: helth"):
        _policy(facts_days={"helth": 30})
    with pytest.raises(ValidationError, match="facts_days must be > 0 for: knowledge"):
        _policy(facts_days={"knowledge": 0})
    with pytest.raises(ValidationError, match="raw_turns_days"):
        _policy(raw_turns_days=-1)


def test_old_cached_model_responses_go(tmp_path: Path) -> None:
    from memory_lab.config import LLMSettings
    from memory_lab.engine import make_brain
    from memory_lab.llm_client.response_cache import ResponseCache
    from memory_lab.tokens import default_counter

    cache = tmp_path / "llm-cache.sqlite"
    ResponseCache(cache).put("k-old", {"text": "an old reply"})
    # The cache stamps entries by the wall clock; the engine's is ten days on.
    clock = ManualClock(datetime.now(UTC) + timedelta(days=10))
    llm = LLMSettings(
        base_url="http://127.0.0.1:9/v1", model="m", cache_path=str(cache)
    )
    config = MemoryConfig(retention=RetentionConfig(cache_days=5), llm=llm)
    offline = make_brain(MemoryConfig(), default_counter(), clock)
    with MemoryEngine(
        tmp_path / "d", clock=clock, config=config, brain=offline
    ) as engine:
        engine.ingest(TENANT, _conversation()[:2])
        engine.flush()
        assert _retained(engine) == ["Retention removed 1 cached response"]
    assert len(ResponseCache(cache)) == 0


def test_the_retention_job_empties_the_trash_past_its_window(data: Path) -> None:
    keep = timedelta(days=30)
    config = _policy(events_days=365)  # a policy, so the job runs; it removes no event
    start = T0 + timedelta(days=21)
    with MemoryEngine(
        data, clock=ManualClock(start), config=config, trash_keep=keep
    ) as engine:
        [secret] = [f for f in engine.facts.active(TENANT) if SECRET in f.value]
        episode = next(e for e in engine.episodes.get(TENANT) if "d0:2" in e.turn_ids)
        engine.trash.trash_fact(TENANT, secret.id)
        engine.trash.trash_episode(TENANT, episode.id)
        chat = engine.chats.create(TENANT, start, title="Scratch")
        engine.chats.trash(TENANT, chat.thread, start)

        engine.clock.advance(keep - timedelta(hours=1))
        engine.tick(TENANT)
        engine.flush()
        assert len(engine.trash.items(TENANT)) == 2  # still restorable

        engine.clock.advance(timedelta(days=1))
        engine.tick(TENANT)
        engine.flush()
        assert engine.trash.items(TENANT) == []
        assert engine.chats.chats(TENANT, trashed=True) == []
        assert engine.facts.store.get(TENANT, secret.id) is None
        assert episode.id not in {e.id for e in engine.episodes.index.get(TENANT)}
        assert _retained(engine)[-1].startswith("Retention removed")
        assert "3 items from the trash" in _retained(engine)[-1]
