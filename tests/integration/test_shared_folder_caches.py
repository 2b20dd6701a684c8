"""Two writers on one store: cached reads see each other's writes.

The app opens one engine per tenant on the same folder, and any engine's worker
may do a job another recorded; two processes may share a folder too. A reader
that cached a tenant's facts or excerpt index must not go on answering from
that cache after another connection changed them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab_cli.conversation_io import Replayable, builtin
from memory_lab import MemoryConfig, recipe
from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.engine import MemoryEngine
from memory_lab.facts.memory import FactMemory
from memory_lab.stores import SqlEventLog, SqlFactStore
from memory_lab.stores.sqlite_db import SqliteDatabase
from tests.helpers import T0, cand


def _memory(path: Path, clock: ManualClock) -> FactMemory:
    db = SqliteDatabase(path)
    return FactMemory(SqlFactStore(db), SqlEventLog(db), clock, FactConfig())


@pytest.mark.slow
def test_a_cached_read_sees_a_write_made_through_another_connection(
    tmp_path: Path,
) -> None:
    clock = ManualClock(T0)
    reader = _memory(tmp_path / "memory.sqlite3", clock)
    writer = _memory(tmp_path / "memory.sqlite3", clock)
    assert reader.active("alice") == []
    assert reader.candidates("alice", "what drink do I like?", limit=5) == []

    writer.write("alice", cand("favourite.drink", "tea"))

    assert [f.value for f in reader.active("alice")] == ["tea"]
    found = reader.candidates("alice", "what drink do I like?", limit=5)
    assert [f.value for f in found] == ["tea"]
    # A correction through the other connection replaces the cached value too.
    writer.write("alice", cand("favourite.drink", "coffee", source="explicit"))
    assert [f.value for f in reader.active("alice")] == ["coffee"]
    # The other tenant's reads are untouched by it.
    assert reader.active("bob") == []


def test_an_engine_reads_facts_another_engine_on_its_folder_stored(
    tmp_path: Path,
) -> None:
    clock = ManualClock(T0)
    first = MemoryEngine(tmp_path, clock=clock)
    second = MemoryEngine(tmp_path, clock=clock)
    try:
        before = first.assemble("alice", "what is my favourite drink?")
        assert "tea" not in before.text
        second.chat("alice", "Remember that my favourite drink is tea.")
        assert second.flush(timeout=120) and first.flush(timeout=120)
        assert any(f.value == "tea" for f in first.facts.active("alice"))
        after = first.assemble("alice", "what is my favourite drink?")
        facts = next(b for b in after.blocks if b.kind == "facts")
        assert "tea" in facts.text
    finally:
        first.close()
        second.close()


def _first_half_in_one_of_two_engines(
    folder: Path,
) -> tuple[Replayable, int, MemoryEngine, MemoryEngine]:
    """Two A engines on one folder; the first has ingested half the built-in chat."""
    conv = builtin()
    half = len(conv.messages) // 2
    clock = ManualClock(conv.messages[0].timestamp)
    config = MemoryConfig(recipe=recipe("A"))
    first = MemoryEngine(folder, config=config, clock=clock)
    second = MemoryEngine(folder, config=config, clock=clock)
    for m in conv.messages[:half]:
        first.ingest(conv.tenant, [m])
    assert first.flush(timeout=120)
    return conv, half, first, second


def test_an_engine_searches_turns_another_engine_on_its_folder_compressed(
    tmp_path: Path,
) -> None:
    conv, half, first, second = _first_half_in_one_of_two_engines(tmp_path)
    tenant = conv.tenant
    try:
        # The first engine's excerpt index is loaded; then it stops doing work,
        # so every later compression is the second engine's.
        first.assemble(tenant, "anything")
        first.worker.stop()
        held = {ep.id for ep in first.episodes.get(tenant)}
        for m in conv.messages[half:]:
            second.ingest(tenant, [m])
        assert second.flush(timeout=120)
        later = [ep for ep in second.episodes.get(tenant) if ep.id not in held]
        assert later, "the second half compressed nothing"
        turn = second.transcript.messages(
            tenant, later[0].thread, first_seq=later[0].first_seq
        )[0]
        # As a question does: a read of the stores, then the index's lock.
        with first.jobs.db.read():
            found = first.deps.excerpts.search(
                first.transcript,
                first.episodes,
                tenant,
                turn.content,
                [],
                dense_bonus=0,
            )
        assert turn.id in [m.id for m, _ in found]
    finally:
        first.close()
        second.close()


def test_a_remembered_episode_search_gives_way_to_another_engines_commit(
    tmp_path: Path,
) -> None:
    """Searches are remembered per episode revision, never past a commit."""
    conv, half, first, second = _first_half_in_one_of_two_engines(tmp_path)
    tenant = conv.tenant
    try:
        first.worker.stop()
        question = conv.messages[-3].content
        searched: list[str] = []
        index = first.episodes.index

        def counting(search):
            def counted(tenant: str, query: str, **kw):
                searched.append(query)
                return search(tenant, query, **kw)

            return counted

        # Whichever the committed view asks the index with: records or ids.
        index.search = counting(index.search)  # type: ignore[method-assign]
        index.search_ids = counting(index.search_ids)  # type: ignore[attr-defined]

        def found() -> set[str]:
            hits = first.episodes.search(tenant, question, top_k=100, max_distance=2.0)
            return {ep.id for ep, _ in hits}

        before = found()
        assert found() == before and len(searched) == 1, "searched again unchanged"

        for m in conv.messages[half:]:
            second.ingest(tenant, [m])
        assert second.flush(timeout=120)
        later = {ep.id for ep in second.episodes.get(tenant)} - before
        assert later, "the second half compressed nothing"
        assert later <= found()
        assert len(searched) == 2
    finally:
        first.close()
        second.close()
