"""The trash for facts and episodes: out of every read at once, restorable in
its window, purged for real by the next open after it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.owner.disk import files_holding
from memory_lab.owner.empty_trash import REQUESTED_BY, DueItem, due
from memory_lab.owner.tombstones import PurgeLog
from memory_lab.owner.trash_bin import TrashError
from memory_lab.stores.sqlite_db import SqliteDatabase
from memory_lab.types import Message
from tests.helpers import open_and_close_apart, spaced_turns

SECRET = "Quillfeather-4471"
T0 = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
KEEP = timedelta(days=30)
TENANT = "ana"


def _conversation() -> list[Message]:
    said = {
        ("s1", 2): f"My locker code is {SECRET}, please remember it.",
        ("s2", 4): "My favourite colour is teal.",
    }
    return spaced_turns(TENANT, said, ("s1", "s2"), start=T0)


def _open(data: Path, at: datetime) -> MemoryEngine:
    return MemoryEngine(data, clock=ManualClock(at), trash_keep=KEEP)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A folder whose episodes and facts hold the secret, engine closed."""
    data = tmp_path_factory.mktemp("trash") / "data"
    with _open(data, T0) as engine:
        for turn in _conversation():
            engine.ingest(TENANT, [turn])
        engine.close_session(TENANT)
        engine.flush()
    return data


@pytest.fixture
def data(built, tmp_path) -> Path:
    return Path(shutil.copytree(built, tmp_path / "data"))


def _secret_episode(engine: MemoryEngine) -> str:
    [found] = [e.id for e in engine.episodes.get(TENANT) if "s1:2" in e.turn_ids]
    return found


def _secret_fact(engine: MemoryEngine) -> str:
    [found] = [f.id for f in engine.facts.active(TENANT) if SECRET in f.value]
    return found


def _context(engine: MemoryEngine) -> str:
    bundle = engine.assemble(TENANT, "what is my locker code?")
    return "\n".join(b.text for b in bundle.blocks)


@pytest.mark.slow
def test_a_trashed_episode_and_fact_leave_every_read_and_come_back_whole(
    data: Path,
) -> None:
    with _open(data, T0 + timedelta(days=3)) as engine:
        assert SECRET in _context(engine)
        episode, fact = _secret_episode(engine), _secret_fact(engine)
        count = engine.episodes.count(TENANT)
        engine.trash.trash_episode(TENANT, episode)
        engine.trash.trash_fact(TENANT, fact)

        assert episode not in {e.id for e in engine.episodes.get(TENANT)}
        assert engine.episodes.count(TENANT) == count - 1
        assert fact not in {f.id for f in engine.facts.active(TENANT)}
        # Neither the episode, its turns as excerpts, nor the fact is shown.
        assert SECRET not in _context(engine)
        assert [(t.kind, t.item) for t in engine.trash.items(TENANT)] == [
            ("fact", fact),
            ("episode", episode),
        ]
        kinds = [e.kind for e in engine.events.events(TENANT)]
        assert kinds.count("moved_to_trash") == 2

    # Still in the trash after a reopen inside the window, then restored.
    with _open(data, T0 + KEEP) as engine:
        assert SECRET not in _context(engine)
        engine.trash.restore(TENANT, "episode", episode)
        engine.trash.restore(TENANT, "fact", fact)
        assert engine.trash.items(TENANT) == []
        assert engine.episodes.count(TENANT) == count
        assert fact in {f.id for f in engine.facts.active(TENANT)}
        assert SECRET in _context(engine)


@pytest.mark.slow
def test_past_its_window_the_trash_is_purged_by_the_next_open(data: Path) -> None:
    with _open(data, T0 + timedelta(days=3)) as engine:
        episode, fact = _secret_episode(engine), _secret_fact(engine)
        engine.trash.trash_episode(TENANT, episode)
        engine.trash.trash_fact(TENANT, fact)
        kept = [f.id for f in engine.facts.active(TENANT) if "teal" in f.value]
    assert kept, "the untouched fact is there to be kept"
    assert files_holding(data, SECRET)

    past = T0 + timedelta(days=3) + KEEP + timedelta(hours=1)
    assert {d.kind for d in due(data / "memory.sqlite3", past, KEEP)} == {
        "fact",
        "episode",
    }
    # The next open, by a new process as after a restart, empties the trash.
    open_and_close_apart(data, past, KEEP)
    assert files_holding(data, SECRET) == []
    with _open(data, past) as engine:
        assert engine.trash.items(TENANT) == []
        assert episode not in {e.id for e in engine.episodes.index.get(TENANT)}
        assert all(SECRET not in f.value for f in engine.facts.rows(TENANT))
        assert kept == [f.id for f in engine.facts.active(TENANT) if "teal" in f.value]
    db = SqliteDatabase(data / "memory.sqlite3")
    try:
        stones = PurgeLog(db).tombstones()
    finally:
        db.close()
    assert {s.requested_by for s in stones} == {REQUESTED_BY}
    # The episode's purge took the fact read from its turns, so the fact's
    # own trash row found nothing left to purge.
    assert [s.selection for s in stones] == [{"episode": episode}]
    assert all(SECRET not in repr(s) for s in stones)


@pytest.mark.slow
def test_a_fact_undone_out_of_the_trash_is_not_purged(data: Path) -> None:
    with _open(data, T0 + timedelta(days=3)) as engine:
        fact = _secret_fact(engine)
        engine.trash.trash_fact(TENANT, fact)
        # The forget's own Undo brings the fact back; the trash row is stale.
        engine.facts.restore(TENANT, fact)
    past = T0 + timedelta(days=3) + KEEP * 2
    assert DueItem(TENANT, "fact", fact) in due(data / "memory.sqlite3", past, KEEP)
    with _open(data, past) as engine:
        assert fact in {f.id for f in engine.facts.active(TENANT)}
        assert engine.trash.items(TENANT) == []


def test_bad_trash_requests_name_the_problem_and_change_nothing(data: Path) -> None:
    with _open(data, T0 + timedelta(days=3)) as engine:
        before = engine.snapshot(TENANT)
        with pytest.raises(TrashError, match="no active fact 'f-nope'"):
            engine.trash.trash_fact(TENANT, "f-nope")
        with pytest.raises(TrashError, match="no episode 'ep-nope'"):
            engine.trash.trash_episode(TENANT, "ep-nope")
        with pytest.raises(TrashError, match="not in the trash"):
            engine.trash.restore(TENANT, "fact", _secret_fact(engine))
        episode = _secret_episode(engine)
        engine.trash.trash_episode(TENANT, episode)
        with pytest.raises(TrashError, match="already in the trash"):
            engine.trash.trash_episode(TENANT, episode)
        engine.trash.restore(TENANT, "episode", episode)
        after = engine.snapshot(TENANT)
        assert after["facts"] == before["facts"]
        assert after["episodes"] == before["episodes"]


@pytest.mark.slow
def test_purge_by_episode_from_the_command_line(data: Path) -> None:
    with _open(data, T0 + timedelta(days=3)) as engine:
        episode = _secret_episode(engine)
    run = [sys.executable, "-m", "memlab_cli.main", "purge", "--data", str(data)]
    bad = subprocess.run(
        [*run, "--tenant", TENANT, "--episode", "ep-nope"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode != 0
    assert "no episode 'ep-nope'" in bad.stderr
    done = subprocess.run(
        [*run, "--tenant", TENANT, "--episode", episode, "--by", "test"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert files_holding(data, SECRET) == []


@pytest.mark.slow
def test_a_purge_takes_the_trash_rows_that_quote_what_it_removed(data: Path) -> None:
    with _open(data, T0 + timedelta(days=3)) as engine:
        engine.trash.trash_fact(TENANT, _secret_fact(engine))
        engine.trash.trash_episode(TENANT, _secret_episode(engine))
        assert any(SECRET in t.label for t in engine.trash.items(TENANT))
    run = [sys.executable, "-m", "memlab_cli.main", "purge", "--data", str(data)]
    done = subprocess.run(
        [*run, "--tenant", TENANT, "--chat", "s1", "--by", "test"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert files_holding(data, SECRET) == []
    with _open(data, T0 + timedelta(days=4)) as engine:
        assert engine.trash.items(TENANT) == []


@pytest.mark.slow
def test_export_and_import_carry_the_trash(data: Path, tmp_path: Path) -> None:
    with _open(data, T0 + timedelta(days=3)) as engine:
        engine.trash.trash_episode(TENANT, _secret_episode(engine))
        held = engine.trash.items(TENANT)
        context = _context(engine)
    out = tmp_path / "ana.jsonl"
    run = [sys.executable, "-m", "memlab_cli.main"]
    for args in (
        ["export", "--data", str(data), "--tenant", TENANT, "--out", str(out)],
        ["import", "--data", str(tmp_path / "copy"), str(out)],
    ):
        done = subprocess.run([*run, *args], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert '"kind": "trash"' in out.read_text()
    with _open(tmp_path / "copy", T0 + timedelta(days=3)) as engine:
        assert engine.trash.items(TENANT) == held
        assert _context(engine) == context
