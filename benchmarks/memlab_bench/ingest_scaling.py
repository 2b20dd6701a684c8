"""Ingest throughput with 1, 2 and 4 processes sharing one store.

Each process (spawned, so each is a fresh interpreter, as separate app or eval
workers would be) opens one engine, ingests a conversation of its own (its own
tenant) turn by turn and waits for its memory work; all start together at a
barrier once their engines are open. Throughput is every process's turns over
the wall time from the barrier to the last one done, and each count is reported
as a ratio to one process on the same store. The stores:

- `sqlite`: one data folder (SQLite file and Chroma folder), as on one machine;
- `postgres`: the transcript, facts, events and ledger in one Postgres
  namespace, episodes still in a shared Chroma folder: only the database moves;
- `servers`: Postgres plus a Chroma server, as a deployment over machines would.

The servers are throwaway ones started for the run (`memlab_bench.servers`).
The work per process is fixed, so on a machine with fewer cores than processes
the ratio is bounded by the cores, not the store.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import subprocess
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

PROCESS_COUNTS = (1, 2, 4)
STORES = ("sqlite", "postgres", "servers")
TURNS_PER_PROCESS = 120
TIMEOUT_S = 600.0
"""Longest a process may take to open, ingest or flush before the run fails."""


def _conversations(n: int, turns: int, seed: int) -> list[list]:
    from memlab_datasets import GeneratorConfig, generate

    per_session = 20
    cfg = GeneratorConfig(
        seed=seed,
        conversations=n,
        sessions=max(2, -(-turns // per_session)),
        turns_per_session=per_session,
    )
    return [c.turns[:turns] for c in generate(cfg).conversations]


def _ingest(data_dir: str, stores, turns: list, barrier, results) -> None:
    """One process: open, wait for the others, ingest, wait for memory work."""
    from memory_lab import ManualClock, MemoryEngine

    engine = MemoryEngine(
        data_dir, clock=ManualClock(turns[0].timestamp), stores=stores
    )
    engine.embedder.embed(["warm up"])
    barrier.wait(timeout=TIMEOUT_S)
    started = time.monotonic()
    tenant = turns[0].tenant
    for m in turns:
        engine.ingest(tenant, [m])
    ingested = time.monotonic()
    flushed = engine.flush(timeout=TIMEOUT_S)
    done = time.monotonic()
    results.put(
        {
            "started": started,
            "ingested": ingested,
            "done": done,
            "flushed": flushed,
            "turns": engine.transcript.count(tenant),
        }
    )
    engine.close(wait=False)


def _prepare(data_dir: Path, stores) -> None:
    """Create the folder's databases (or the namespace) before the processes start.

    Several processes creating one fresh Chroma folder at once race on its
    tables; a deployment creates its stores once, and so does the benchmark.
    """
    from memory_lab import MemoryEngine

    MemoryEngine(data_dir, stores=stores).close(wait=False)


def _collect(procs: list, results, deadline: float) -> list[dict]:
    """Each process's timings; fails as soon as one dies without reporting."""
    got: list[dict] = []
    while len(got) < len(procs):
        try:
            got.append(results.get(timeout=1.0))
            continue
        except queue.Empty:
            pass
        failed = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
        if failed:
            raise RuntimeError(f"an ingesting process failed (exit codes {failed})")
        if time.monotonic() > deadline:
            raise RuntimeError("ingesting processes did not finish in time")
    return got


def _run(processes: int, data_dir: Path, stores, conversations: list[list]) -> dict:
    _prepare(data_dir, stores)
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    procs = [
        ctx.Process(
            target=_ingest,
            args=(str(data_dir), stores, conversations[k], barrier, results),
        )
        for k in range(processes)
    ]
    for p in procs:
        p.start()
    try:
        got = _collect(procs, results, time.monotonic() + 3 * TIMEOUT_S)
        for p in procs:
            p.join(timeout=60)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
                p.join(timeout=10)
    if any(p.exitcode != 0 for p in procs) or not all(g["flushed"] for g in got):
        raise RuntimeError(f"an ingesting process failed: {got}")
    expected = sum(len(conversations[k]) for k in range(processes))
    turns = sum(g["turns"] for g in got)
    if turns != expected:
        raise RuntimeError(f"stored {turns} turns of {expected}")
    start = min(g["started"] for g in got)
    wall = max(g["done"] for g in got) - start
    ingest_wall = max(g["ingested"] for g in got) - start
    return {
        "processes": processes,
        "turns": turns,
        "seconds": round(wall, 2),
        "turns_per_s": round(turns / wall, 2),
        "ingest_only_turns_per_s": round(turns / ingest_wall, 2),
    }


def _uptime() -> str:
    try:
        return subprocess.run(
            ["uptime"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def measure_ingest_scaling(
    stores: tuple[str, ...] = STORES,
    counts: tuple[int, ...] = PROCESS_COUNTS,
    turns: int = TURNS_PER_PROCESS,
    seed: int = 7,
    report=None,
) -> dict:
    """Turns per second at each process count on each store, and the ratios."""
    from memlab_bench.servers import chroma_server, postgres_server
    from memory_lab.stores.locations import StoreSpec

    conversations = _conversations(max(counts), turns, seed)
    rows = []
    uptime_before = _uptime()
    with ExitStack() as servers:
        pg = servers.enter_context(postgres_server()) if stores != ("sqlite",) else None
        chroma = servers.enter_context(chroma_server()) if "servers" in stores else None
        for store in stores:
            for n in counts:
                namespace = f"scaling_{uuid.uuid4().hex[:10]}"
                spec = {
                    "sqlite": None,
                    "postgres": StoreSpec(store=pg, namespace=namespace),
                    "servers": StoreSpec(
                        store=pg, episodes=chroma, namespace=namespace
                    ),
                }[store]
                with tempfile.TemporaryDirectory(prefix="memlab-scaling-") as tmp:
                    row = {"store": store, **_run(n, Path(tmp), spec, conversations)}
                rows.append(row)
                if report is not None:
                    report(
                        f"{store}, {n} process(es): {row['turns_per_s']} turns/s"
                        f" ({row['turns']} turns in {row['seconds']} s)"
                    )
    base = {r["store"]: r["turns_per_s"] for r in rows if r["processes"] == counts[0]}
    for r in rows:
        r["ratio_vs_1"] = round(r["turns_per_s"] / base[r["store"]], 2)
    return {
        "turns_per_process": turns,
        "recipe": "default",
        "brain": "rule-based",
        "rows": rows,
        "ratios": {
            s: {str(r["processes"]): r["ratio_vs_1"] for r in rows if r["store"] == s}
            for s in stores
        },
        "cores": os.cpu_count(),
        "uptime_before": uptime_before,
        "uptime_after": _uptime(),
        "load_average_1m": round(os.getloadavg()[0], 1),
    }
