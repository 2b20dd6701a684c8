"""Several threads and two processes ingesting into one data folder.

Nothing may be lost or stored twice: every message once in the transcript, every
message in exactly one of window and episodes, episode turn ranges disjoint, every
fact written exactly once.
"""

import multiprocessing as mp
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.recipes import recipe
from memory_lab.stores import SqlFactStore
from memory_lab.types import FactCandidate, Message
from memory_lab.window.view import one_instant

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
# A small trigger so a few dozen turns compress several times.
CONFIG = MemoryConfig(
    recipe=recipe("A(a_max_messages=6,a_keep_last=2)")
)


def _msg(tenant: str, i: int, thread_tag: str = "") -> Message:
    return Message(
        id=f"{tenant}{thread_tag}:{i}",
        tenant=tenant,
        session="s1",
        role="user" if i % 2 == 0 else "assistant",
        content=f"{tenant} says item {i}: I like topic {i % 5} and my code is {i * 7}",
        timestamp=T0 + timedelta(minutes=i),
    )


def check_tenant(engine: MemoryEngine, tenant: str, expected: list[str]) -> None:
    stored = [m.id for m in engine.transcript.messages(tenant)]
    assert sorted(stored) == sorted(expected), "lost or duplicated transcript messages"
    assert len(stored) == len(set(stored))
    with one_instant(engine.deps):  # one committed state, as the engine reads it
        window = [m.id for m in engine.window(tenant)]
        episodes = sorted(engine.episodes.get(tenant), key=lambda e: e.first_seq)
    in_episodes = [t for ep in episodes for t in ep.turn_ids]
    ranges = [(ep.first_seq, ep.last_seq) for ep in episodes]
    assert len(in_episodes) == len(set(in_episodes)), (
        f"a turn is in two episodes: {ranges}"
    )
    assert not set(window) & set(in_episodes), (
        "a turn is both in the window and an episode"
    )
    assert sorted(window + in_episodes) == sorted(expected), (
        "a turn is neither in window nor episodes"
    )
    for before, after in zip(episodes, episodes[1:], strict=False):
        assert before.last_seq < after.first_seq, (
            f"episode turn ranges overlap: {ranges}"
        )


@pytest.mark.slow
def test_threads_ingest_and_write_facts_into_one_folder(tmp_path):
    engine = MemoryEngine(tmp_path, config=CONFIG, clock=ManualClock(T0))
    tenants = [f"t{k}" for k in range(4)]
    errors: list[BaseException] = []

    def ingest(tenant: str) -> None:
        try:
            for i in range(12):
                engine.ingest(tenant, [_msg(tenant, i)])
        except BaseException as err:  # surfaced by the assertion below
            errors.append(err)

    def write_facts(tag: str) -> None:
        try:
            for i in range(15):
                engine.facts.write(
                    "shared",
                    FactCandidate(
                        # A subject each: near-identical values under one subject
                        # are merged as restatements ("one fact per meaning").
                        subject=f"{tag}_{i}",
                        category="knowledge",
                        key=f"{tag}_{i}",
                        value=f"value {tag} {i}",
                        source="explicit",
                        turn_ids=[f"{tag}:{i}"],
                    ),
                )
        except BaseException as err:
            errors.append(err)

    workers = [threading.Thread(target=ingest, args=(t,)) for t in tenants]
    workers += [threading.Thread(target=write_facts, args=(f"w{k}",)) for k in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    assert not errors, errors
    engine.flush()
    for tenant in tenants:
        check_tenant(engine, tenant, [f"{tenant}:{i}" for i in range(12)])
        assert engine.episodes.count(tenant) > 0
    rows = engine.facts.rows("shared")
    keys = sorted(r.key for r in rows)
    assert keys == sorted(f"w{k}_{i}" for k in range(3) for i in range(15))
    assert all(r.status == "active" for r in rows)
    engine.close()


def _child(data_dir: str, tenant: str, count: int) -> None:
    engine = MemoryEngine(Path(data_dir), config=CONFIG, clock=ManualClock(T0))
    facts = SqlFactStore(Path(data_dir) / "memory.sqlite3")
    for i in range(count):
        engine.ingest(tenant, [_msg(tenant, i)])
        # Both processes write facts for one shared tenant through the SQLite store.
        engine.facts.write(
            "shared",
            FactCandidate(
                subject=f"{tenant}_{i}",
                category="knowledge",
                key=f"{tenant}_{i}",
                value=f"fact {i} of {tenant}",
                source="explicit",
                turn_ids=[f"{tenant}:{i}"],
            ),
        )
    facts.close()
    engine.close()


@pytest.mark.slow
def test_two_processes_ingest_into_one_folder(tmp_path):
    # Each process owns its engine thread (its own tenant); they share the SQLite
    # transcript, facts and events and the Chroma path, and the shared tenant's facts.
    ctx = mp.get_context("spawn")
    count = 10
    procs = [
        ctx.Process(target=_child, args=(str(tmp_path), t, count)) for t in ("pa", "pb")
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=600)
    assert [p.exitcode for p in procs] == [0, 0]
    # A fresh engine reopens Chroma, so it sees what both processes added.
    engine = MemoryEngine(tmp_path, config=CONFIG, clock=ManualClock(T0))
    for tenant in ("pa", "pb"):
        check_tenant(engine, tenant, [f"{tenant}:{i}" for i in range(count)])
    seqs = [m.seq for m in engine.transcript.messages("pa")]
    assert seqs == list(range(count))
    keys = sorted(r.key for r in engine.facts.rows("shared"))
    assert keys == sorted(f"{t}_{i}" for t in ("pa", "pb") for i in range(count))
    engine.close()


def _open_stores(folders: list[str], barrier) -> None:
    from types import SimpleNamespace

    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

    # Opening needs only the embedder's name and size, not its model.
    embedder = SimpleNamespace(name="probe", dim=4)
    for folder in folders:
        # A sibling that failed breaks the barrier rather than leaving us waiting.
        barrier.wait(timeout=120)
        ChromaEpisodeStore(folder, embedder).close()


@pytest.mark.slow
def test_processes_opening_one_fresh_chroma_folder_together_all_succeed(tmp_path):
    # Unserialised, about one child in twenty failed Chroma's schema migration
    # ("table collections already exists") when several opened a new folder.
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(3)
    folders = [str(tmp_path / f"chroma{k}") for k in range(12)]
    procs = [
        ctx.Process(target=_open_stores, args=(folders, barrier)) for _ in range(3)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
    assert [p.exitcode for p in procs] == [0, 0, 0]
