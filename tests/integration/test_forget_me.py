"""'Forget me' from a running engine: everything held about a tenant goes at
once, the files forget it after the next open, and other tenants keep theirs."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import uuid
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.errors import MemoryLabError
from memory_lab.owner.disk import files_holding
from memory_lab.owner.selection import PurgeRequestError
from memory_lab.stores.locations import StoreSpec
from memory_lab.types import Message
from tests.helpers import memory_lab_cli

SECRET = "Tallowick-3390"
T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def _turns(tenant: str, secret: str) -> list[Message]:
    lines = [f"My locker code is {secret}, please remember it."] + [
        f"Let us talk about the garden, item {i}." for i in range(23)
    ]
    return [
        Message(
            id=f"{tenant}:{i}",
            tenant=tenant,
            session="s1",
            role="user" if i % 2 == 0 else "assistant",
            content=text,
            timestamp=T0 + timedelta(minutes=3 * i),
        )
        for i, text in enumerate(lines)
    ]


def _fill(engine: MemoryEngine, ana: str = "ana", bo: str = "bo") -> None:
    for tenant, secret in ((ana, SECRET), (bo, "Copperfern-1187")):
        for turn in _turns(tenant, secret):
            engine.ingest(tenant, [turn])
        engine.close_session(tenant)
    engine.flush()


@pytest.mark.slow
def test_forget_me_leaves_no_byte_and_keeps_the_other_tenant(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with MemoryEngine(data, clock=ManualClock(T0 + timedelta(hours=2))) as engine:
        _fill(engine)
        assert engine.episodes.count("ana") and engine.facts.active("ana")
        bo = engine.snapshot("bo")
        stone = engine.purge("ana", requested_by="ana herself")
        assert stone.selection == {"everything": True}
        assert engine.transcript.count("ana") == 0
        assert engine.episodes.count("ana") == 0
        assert engine.facts.store.rows("ana") == []
        context = engine.assemble("ana", "what is my locker code?")
        assert SECRET not in "\n".join(b.text for b in context.blocks)
        assert engine.snapshot("bo") == bo
        with pytest.raises(
            PurgeRequestError, match="no memory is held for tenant 'ana'"
        ):
            engine.purge("ana", requested_by="again")
    reopen = "import sys, memory_lab as m; m.MemoryEngine(sys.argv[1]).close()"
    subprocess.run([sys.executable, "-c", reopen, str(data)], check=True)
    assert files_holding(data, SECRET) == []
    assert files_holding(data, "Copperfern-1187")
    with closing(sqlite3.connect(data / "memory.sqlite3")) as conn:
        sessions = dict(
            conn.execute("SELECT tenant, COUNT(*) FROM memory_sessions GROUP BY tenant")
        )
    assert sessions == {"bo": 1}


def _tables_holding(engine: MemoryEngine, text: str) -> list[str]:
    """Postgres tables of the engine's namespace with a row holding `text`."""
    with engine.jobs.db.read() as conn:
        tables = [
            r["table_name"]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema()"
            ).fetchall()
        ]
        return [
            t
            for t in tables
            if conn.execute(
                f"SELECT COUNT(*) AS n FROM {t} WHERE CAST({t} AS TEXT) LIKE ?",
                (f"%{text}%",),
            ).fetchone()["n"]
        ]


@pytest.mark.slow
@pytest.mark.xdist_group("servers")
def test_forget_me_on_postgres_leaves_no_row_holding_it(postgres_url) -> None:
    spec = StoreSpec(store=postgres_url, namespace=f"fm_{uuid.uuid4().hex[:12]}")
    with MemoryEngine(
        stores=spec, clock=ManualClock(T0 + timedelta(hours=2))
    ) as engine:
        _fill(engine)
        assert {"messages", "facts"} <= set(_tables_holding(engine, SECRET))
        stone = engine.purge("ana", requested_by="ana herself")
        assert stone.status == "done"  # no file of this engine holds it
        assert _tables_holding(engine, SECRET) == []
        assert "messages" in _tables_holding(engine, "Copperfern-1187")


def test_memory_held_in_the_process_cannot_be_purged_this_way() -> None:
    engine = MemoryEngine(clock=ManualClock(T0))
    engine.ingest("ana", _turns("ana", SECRET)[:2])
    with pytest.raises(MemoryLabError, match="held in this process only"):
        engine.purge("ana", requested_by="x")
    engine.close()


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return memory_lab_cli(*args, env=env)


@pytest.mark.slow
@pytest.mark.xdist_group("servers")
def test_purge_on_servers_killed_midway_is_finished_by_the_next_purge(
    postgres_url, chroma_url, tmp_path: Path
) -> None:
    # The command uses the default namespace: tenants of their own keep it apart.
    ana, bo = (f"{name}-{uuid.uuid4().hex[:8]}" for name in ("ana", "bo"))
    spec = StoreSpec(store=postgres_url, episodes=chroma_url)
    with MemoryEngine(
        stores=spec, clock=ManualClock(T0 + timedelta(hours=2))
    ) as engine:
        _fill(engine, ana, bo)
        assert engine.episodes.count(ana)
    flags = ["--data", str(tmp_path / "d"), "--store", postgres_url]
    flags += ["--episodes-store", chroma_url]
    bad = _cli("purge", *flags, "--tenant", ana, "--fact", "f-nope")
    assert bad.returncode != 0 and "no fact 'f-nope'" in bad.stderr
    killed = _cli(
        "purge",
        *flags,
        "--tenant",
        ana,
        "--yes",
        env={"MEMORY_LAB_PURGE_CRASH_AFTER": "transcript"},
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    with MemoryEngine(stores=spec) as engine:
        assert engine.transcript.count(ana) == 0
        assert engine.facts.store.rows(ana)  # not reached before the kill
    done = _cli("purge", *flags, "--tenant", bo, "--chat", "s1")
    assert done.returncode == 0, done.stderr
    assert "finished purge" in done.stdout
    with MemoryEngine(stores=spec) as engine:
        assert engine.facts.store.rows(ana) == []
        assert engine.episodes.index.get(ana) == []
        assert engine.transcript.count(bo) == 0
        with engine.jobs.db.read() as conn:
            left = conn.execute(
                "SELECT COUNT(*) AS n FROM events WHERE tenant = ?", (ana,)
            ).fetchone()["n"]
        assert left == 0
