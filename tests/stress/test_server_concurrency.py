"""Processes and threads sharing one Postgres namespace and one Chroma server.

The server twins of test_concurrency.py and test_kill_recovery.py. Two spawned
processes, each with several threads, ingest into one namespace: every message
is stored once and is in exactly one of window and episodes, facts are written
once, racing writes of one fact key leave one value in force, and each process
sees the episodes the other commits without reopening anything. Then ingesting
processes are SIGKILLed at every phase of the memory path with their memory on
the servers, and each conversation, once finished, must match a reference run
that was never killed.

Every child process, thread and barrier has a timeout, so a hang fails the test.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.jobs.phases import PHASES
from memory_lab.stores.chroma_telemetry import quiet_env
from memory_lab.stores.locations import StoreSpec
from memory_lab.types import FactCandidate
from tests.stress.test_concurrency import CONFIG, T0, _msg, check_tenant

pytestmark = [pytest.mark.xdist_group("servers"), pytest.mark.slow]

COUNT = 12
"""Turns per tenant: with the test's trigger, a few compressions each."""
TIMEOUT_S = 180
PROCESSES = ("pa", "pb")


def _tenants(name: str) -> list[str]:
    return [f"{name}{k}" for k in range(2)]


def _fact(name: str, i: int) -> FactCandidate:
    # A subject of its own: similar values under one subject would be merged as
    # restatements of one fact ("one fact per meaning").
    return FactCandidate(
        subject=f"{name}_{i}",
        category="knowledge",
        key=f"{name}_{i}",
        value=f"fact {i} of {name}",
        source="explicit",
        turn_ids=[f"{name}:{i}"],
    )


def _ingest_process(stores: StoreSpec, name: str, barrier, out: str) -> None:
    """Two tenants and a fact writer on threads of one engine, then look across."""
    engine = MemoryEngine(None, config=CONFIG, clock=ManualClock(T0), stores=stores)
    # Both engines are open before either writes: what each later sees of the
    # other was written after it opened.
    barrier.wait(timeout=TIMEOUT_S)
    errors: list[str] = []

    def guarded(work) -> None:
        try:
            work()
        except BaseException as err:  # reported through `out`
            errors.append(repr(err))

    def ingest(tenant: str) -> None:
        for i in range(COUNT):
            engine.ingest(tenant, [_msg(tenant, i)])

    def write_facts() -> None:
        for i in range(COUNT):
            engine.facts.write("shared", _fact(name, i))

    def write_one_key() -> None:
        # Both processes keep replacing one key: one value may be active at once.
        for i in range(COUNT):
            engine.facts.write(
                "shared",
                FactCandidate(
                    category="knowledge",
                    key="city",
                    value=f"{name} city {i}",
                    source="explicit",
                    turn_ids=[f"{name}:city:{i}"],
                ),
            )

    jobs = [lambda t=t: ingest(t) for t in _tenants(name)]
    jobs += [write_facts, write_one_key]
    threads = [threading.Thread(target=guarded, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=TIMEOUT_S)
    hung = sum(t.is_alive() for t in threads)
    flushed = engine.flush(timeout=TIMEOUT_S)
    own = {t: engine.episodes.count(t) for t in _tenants(name)}
    barrier.wait(timeout=TIMEOUT_S)
    other = next(p for p in PROCESSES if p != name)
    seen = {t: engine.episodes.count(t) for t in _tenants(other)}
    found = {
        t: len(engine.episodes.search(t, "topic", top_k=3, max_distance=2.0))
        for t in _tenants(other)
    }
    Path(out).write_text(
        json.dumps(
            {
                "errors": errors,
                "hung_threads": hung,
                "flushed": flushed,
                "own": own,
                "seen": seen,
                "found": found,
            }
        )
    )
    engine.close(wait=False)


def test_two_processes_and_their_threads_share_one_namespace(
    postgres_url, chroma_url, tmp_path
):
    stores = StoreSpec(
        store=postgres_url,
        episodes=chroma_url,
        namespace=f"conc_{uuid.uuid4().hex[:10]}",
    )
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(len(PROCESSES))
    outs = {p: tmp_path / f"{p}.json" for p in PROCESSES}
    procs = [
        ctx.Process(target=_ingest_process, args=(stores, p, barrier, str(outs[p])))
        for p in PROCESSES
    ]
    for p in procs:
        p.start()
    try:
        for p in procs:
            p.join(timeout=2 * TIMEOUT_S)
    finally:
        hung = [p.pid for p in procs if p.is_alive()]
        for p in procs:
            if p.is_alive():
                p.kill()
                p.join(timeout=10)
    assert not hung, f"processes {hung} did not finish"
    assert [p.exitcode for p in procs] == [0, 0]
    reports = {p: json.loads(outs[p].read_text()) for p in PROCESSES}
    for name, report in reports.items():
        assert not report["errors"], report["errors"]
        assert report["hung_threads"] == 0
        assert report["flushed"]
        other = reports[next(p for p in PROCESSES if p != name)]
        # Seen without a reopen: the other's committed episodes, counted from the
        # ledger and found by a vector search on the server.
        assert report["seen"] == other["own"], (name, report, other)
        assert all(n > 0 for n in report["seen"].values()), report
        assert all(n > 0 for n in report["found"].values()), report

    engine = MemoryEngine(None, config=CONFIG, clock=ManualClock(T0), stores=stores)
    try:
        for tenant in [t for p in PROCESSES for t in _tenants(p)]:
            check_tenant(engine, tenant, [f"{tenant}:{i}" for i in range(COUNT)])
            seqs = [m.seq for m in engine.transcript.messages(tenant)]
            assert seqs == list(range(COUNT))
        rows = engine.facts.rows("shared")
        city = [r for r in rows if r.key == "city"]
        rows = [r for r in rows if r.key != "city"]
        assert all(r.status == "active" for r in rows)
        keys = sorted(r.key for r in rows)
        assert keys == sorted(f"{p}_{i}" for p in PROCESSES for i in range(COUNT))
        assert sorted(r.value for r in city) == sorted(
            f"{p} city {i}" for p in PROCESSES for i in range(COUNT)
        ), "a replaced value is missing from the key's history"
        active = [r.value for r in city if r.status == "active"]
        assert len(active) == 1, f"one key, {len(active)} active values: {active}"
        assert engine.pending_jobs() == 0
    finally:
        engine.close(wait=False)


# The benchmark forks; a test worker has other tests' threads (and their locks),
# so it runs in a fresh interpreter, as `memory-lab bench --faults` does.
RUN_ON_SERVERS = """
import json, sys
from pathlib import Path
from memlab_bench.faults import run_faults
from memory_lab.stores.locations import StoreSpec
kills, work, store, episodes, namespace = sys.argv[1:]
servers = StoreSpec(store=store, episodes=episodes, namespace=namespace)
result = run_faults(int(kills), Path(work), seed=5, turns=24, parallel=2,
                    timer_share=0.0, child_timeout_s=120, servers=servers)
print(json.dumps(result, default=str))
"""


def test_sigkill_at_every_phase_on_the_servers_loses_and_repeats_nothing(
    postgres_url, chroma_url, tmp_path
):
    kills = len(PHASES)
    done = subprocess.run(
        [sys.executable, "-c", RUN_ON_SERVERS, str(kills), str(tmp_path)]
        + [postgres_url, chroma_url, f"kill_{uuid.uuid4().hex[:10]}"],
        capture_output=True,
        text=True,
        timeout=600,
        env=quiet_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["on_servers"]
    assert result["kills"] == kills, result
    assert (result["lost"], result["duplicated"], result["inconsistent"]) == (
        0,
        0,
        0,
    ), result["problems"]
    assert all(result["per_phase"][p] == 1 for p in PHASES), result["per_phase"]
