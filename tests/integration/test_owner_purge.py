"""`memory-lab purge` on real SQLite and Chroma files: gone from every byte.

One conversation is built once through a real engine (rule-based brain, default
recipe) over three days and three chats, long enough that compression, fact
extraction and a daily summary all copy the planted text; each test purges a
copy of that folder.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlab_cli.main import main
from memory_lab import ManualClock, MemoryEngine
from memory_lab.llm_client.response_cache import ResponseCache
from memory_lab.owner.disk import files_holding
from memory_lab.owner.purge import purge
from memory_lab.owner.selection import Selection
from memory_lab.owner.tiers import LOST
from memory_lab.owner.tombstones import PurgeLog
from memory_lab.stores.sqlite_db import SqliteDatabase
from memory_lab.types import Message
from tests.helpers import memory_lab_cli, spaced_turns

SECRET = "zq-purge-7f3a"
T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
TENANT = "ana"


def _conversation() -> list[Message]:
    said = {
        ("s1", 2): f"My locker code is {SECRET}, please remember it.",
        ("s1", 4): f"Remember that the locker {SECRET} is at the gym.",
        ("s2", 4): "My favourite colour is teal.",
    }
    return spaced_turns(TENANT, said, ("s1", "s2", "s3"), start=T0)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A data folder whose memory holds the secret in every tier, engine closed."""
    data = tmp_path_factory.mktemp("built") / "data"
    engine = MemoryEngine(data, clock=ManualClock(T0))
    for turn in _conversation():
        engine.ingest(TENANT, [turn])
    engine.close_session(TENANT)
    engine.flush()
    snapshot = engine.snapshot(TENANT)
    engine.close()
    assert any(SECRET in e["summary"] for e in snapshot["episodes"])
    assert any(SECRET in d["summary"] for d in snapshot["daily_summaries"])
    assert any(SECRET in f["value"] for f in snapshot["facts"])
    return data


@pytest.fixture
def data(built, tmp_path) -> Path:
    """A copy of the built folder for one test."""
    return Path(shutil.copytree(built, tmp_path / "data"))


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An LLM response cache holding one reply with the secret and one without."""
    path = tmp_path / "cache" / "llm-cache.sqlite"
    monkeypatch.setenv("MEMORY_LAB_LLM_CACHE", str(path))
    responses = ResponseCache(path)
    responses.put("k-secret", {"text": f'{{"value": "code {SECRET}"}}'})
    responses.put("k-other", {"text": "The garden needs water."})
    return path


_OPEN_ENGINE = (
    "import sys; from memory_lab import MemoryEngine; MemoryEngine(sys.argv[1]).close()"
)


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return memory_lab_cli(*args, env=env, timeout=240)


def _tombstones(data: Path) -> list:
    db = SqliteDatabase(data / "memory.sqlite3")
    try:
        return PurgeLog(db).tombstones()
    finally:
        db.close()


def _listing(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.slow
def test_purge_by_chat_leaves_no_byte_of_it_and_keeps_the_rest(data, cache):
    # Both databases hold it; Chroma may also have left its bytes in an HNSW
    # file's unused space, which is what the purge's disk tier zeroes.
    assert {p.name for p in files_holding(data, SECRET)} >= {
        "memory.sqlite3",
        "chroma.sqlite3",
    }
    assert files_holding(cache.parent, SECRET) == [cache]

    done = _cli("purge", "--data", str(data), "--tenant", TENANT, "--chat", "s1")

    assert done.returncode == 0, done.stderr
    assert files_holding(data, SECRET) == []
    assert files_holding(cache.parent, SECRET) == []
    responses = ResponseCache(cache)
    assert responses.get("k-secret") is None and responses.get("k-other")
    [tombstone] = _tombstones(data)
    assert tombstone.status == "done" and tombstone.plan is None
    assert tombstone.selection == {"chat": "s1"} and tombstone.tenant == TENANT
    assert tombstone.counts["transcript"] == {"turns": 16, "chat_titles": 0}
    assert tombstone.counts["llm_cache"] == {"responses": 1}
    assert tombstone.counts["disk"]["segments_unrecognised"] == 0
    assert tombstone.requested_by and SECRET not in repr(tombstone)
    engine = MemoryEngine(data, clock=ManualClock(T0 + timedelta(days=3)))
    try:
        left = engine.transcript.messages(TENANT)
        assert {m.session for m in left} == {"s2", "s3"} and len(left) == 32
        assert [f.value for f in engine.facts.rows(TENANT)] == ["teal"]
        assert engine.episodes.count(TENANT) > 0
        assert [d.start.date() for d in engine.periods.records(TENANT, "day")] == [
            (T0 + timedelta(days=1)).date()
        ]
        assert SECRET not in engine.state(TENANT)["summary"]
    finally:
        engine.close()


@pytest.mark.slow
def test_killed_purge_is_finished_by_the_next_open(data, cache):
    killed = _cli(
        "purge",
        "--data",
        str(data),
        "--tenant",
        TENANT,
        "--chat",
        "s1",
        env={"MEMORY_LAB_PURGE_CRASH_AFTER": "transcript"},
    )

    assert killed.returncode == -signal.SIGKILL
    [running] = _tombstones(data)
    assert running.status == "running"
    assert list(running.counts) == ["events", "llm_cache", "transcript"]
    assert files_holding(data, SECRET)  # facts, episodes, indexes: not yet
    # A new process opens it: Chroma writes index files from uncleared memory,
    # and this one held the secret while building the folder.
    opened = subprocess.run(
        [sys.executable, "-c", _OPEN_ENGINE, str(data)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert opened.returncode == 0, opened.stderr
    [finished] = _tombstones(data)
    assert finished.status == "done" and finished.plan is None
    assert files_holding(data, SECRET) == []


def test_purging_a_fact_marks_its_episode_lost_and_new_turns_follow(data, cache):
    engine = MemoryEngine(data, clock=ManualClock(T0 + timedelta(days=3)))
    teal = next(f for f in engine.facts.rows(TENANT) if f.value == "teal")
    engine.close()

    purge(data, TENANT, Selection(fact=teal.id), requested_by="t", cache_path=cache)
    # The newest chat goes too: the next turns reuse its seqs.
    purge(data, TENANT, Selection(chat="s3"), requested_by="t", cache_path=cache)

    assert files_holding(data, "teal") == []
    engine = MemoryEngine(data, clock=ManualClock(T0 + timedelta(days=3)))
    try:
        lost = [e for e in engine.episodes.get(TENANT) if e.summary == LOST]
        assert len(lost) == 1 and "s2:4" not in lost[0].turn_ids
        assert engine.expand_episode(TENANT, lost[0].id)
        new = Message(
            id="s4:0",
            tenant=TENANT,
            session="s4",
            role="user",
            content="I live in Porto now.",
            timestamp=T0 + timedelta(days=3),
        )
        engine.ingest(TENANT, [new])
        engine.close_session(TENANT)
        engine.flush()
        assert "s4:0" in [m.id for m in engine.window(TENANT)]
        assert "Porto" in [f.value for f in engine.facts.active(TENANT)]
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--tenant", "nobody"], "no memory is held for tenant 'nobody'"),
        (["--tenant", TENANT, "--fact", "f_missing"], "no fact 'f_missing'"),
        (["--tenant", TENANT, "--chat", "s9"], "no chat 's9'"),
        (["--tenant", TENANT, "--before", "last tuesday"], "is not a date"),
        (["--tenant", TENANT, "--before", "2999-01-01"], "is in the future"),
        (["--tenant", TENANT, "--before", "2001-01-01"], "nothing is held"),
        (["--tenant", TENANT], "needs --yes"),
    ],
)
def test_bad_requests_say_why_in_one_line_and_change_nothing(
    built, cache, capsys, monkeypatch, flags, says
):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    before = _listing(built)

    code = main(["purge", "--data", str(built), *flags])

    err = capsys.readouterr().err
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1
    assert _listing(built) == before
