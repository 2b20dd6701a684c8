"""Background throughput and backlog: 1,000 messages ingested as fast as possible.

Turns arrive back to back while the worker compresses and extracts behind them.
Measured: how far the work falls behind (pending jobs, and turns asked to be
compressed but not yet committed), how long it takes to catch up after the
burst, and the worker's throughput (turns compressed and facts written per
second of its own busy time).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from memlab_bench.stats import summarize_ms
from memory_lab.types import Message


def run_burst(spec: str, turns: Sequence[Message]) -> dict:
    """Ingest `turns` back to back, then wait for the worker; backlog and rates."""
    from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe

    tenant = turns[0].tenant
    config = MemoryConfig(recipe=recipe(spec))
    with tempfile.TemporaryDirectory(prefix="memlab-bench-burst-") as tmp:
        engine = MemoryEngine(
            Path(tmp), config=config, clock=ManualClock(turns[0].timestamp)
        )
        engine.ingest("warmup", [turns[0].model_copy(update={"tenant": "warmup"})])
        engine.flush()
        busy0, jobs0 = engine.worker.busy_s, engine.worker.jobs_done
        latencies, pending, lag = [], [], []
        start = time.perf_counter()
        for m in turns:
            t0 = time.perf_counter()
            engine.ingest(tenant, [m])
            latencies.append(time.perf_counter() - t0)
            marks = engine.jobs.marks(tenant, "main")
            pending.append(engine.pending_jobs(tenant))
            lag.append(marks.planned_upto - marks.compressed_upto)
        ingest_s = time.perf_counter() - start
        backlog_at_end = pending[-1]
        engine.flush()
        drain_s = time.perf_counter() - start - ingest_s
        busy = engine.worker.busy_s - busy0
        compress_s = sum(engine.worker.job_seconds["compress"])
        extract_s = sum(engine.worker.job_seconds["extract"])
        compressed = sum(len(e.turn_ids) for e in engine.episodes.get(tenant))
        facts = len(engine.facts.rows(tenant))
        jobs = engine.worker.jobs_done - jobs0
        engine.close()
    return {
        "system": spec,
        "messages": len(turns),
        "turn": summarize_ms(latencies),
        "ingest_s": round(ingest_s, 2),
        "drain_after_burst_s": round(drain_s, 2),
        "jobs": jobs,
        "worker_busy_s": round(busy, 2),
        "max_pending_jobs": max(pending),
        "pending_jobs_at_end_of_burst": backlog_at_end,
        "max_turns_awaiting_compression": max(lag),
        "turns_compressed": compressed,
        "facts_written": facts,
        "compress_jobs_s": round(compress_s, 2),
        "extract_jobs_s": round(extract_s, 2),
        "turns_compressed_per_s": round(compressed / compress_s, 1)
        if compress_s
        else None,
        "turns_extracted_per_s": round(len(turns) / extract_s, 1)
        if extract_s
        else None,
        "facts_written_per_s": round(facts / extract_s, 1) if extract_s else None,
    }
