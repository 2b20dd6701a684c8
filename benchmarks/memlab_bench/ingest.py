"""Per-turn latency per recipe, with the memory work off the turn.

The memory recipes run on the real stores (SQLite and Chroma in a temporary
folder) with the rule-based brain, or the LLM brain when `--brain llm` names an
endpoint; the baselines are timed on the same turns
for the ratios. A turn's latency is split by whether a trigger fired on it:
the target is that a compression turn costs no more than an ordinary one
(p95 and max within 1.5x of the ordinary turns' p95), because compression,
embedding and extraction run in the background worker. Their own cost is
reported per job.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from memlab_bench.instruments import TimedEmbedder, timed_nodes
from memlab_bench.stats import Stopwatch, percentiles, summarize_ms
from memory_lab.config import LLMSettings
from memory_lab.types import Message

RATIO_TARGET = 1.5
"""Compression turns' p95 and max, at most this times the ordinary turns' p95."""


def bench_recipe(
    spec: str,
    turns: Sequence[Message],
    tenant: str,
    llm: LLMSettings | None = None,
) -> dict:
    """Ingest `turns` one at a time; per-turn latencies and per-job costs."""
    from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe
    from memory_lab.embeddings import default_embedder

    watch, background = Stopwatch(), Stopwatch()
    config = MemoryConfig(recipe=recipe(spec), llm=llm)
    clock = ManualClock(turns[0].timestamp)
    embedder = TimedEmbedder(default_embedder(), background)
    ordinary: list[float] = []
    compression: list[float] = []
    trigger_check: list[float] = []
    with tempfile.TemporaryDirectory(prefix="memlab-bench-ingest-") as tmp:
        engine = MemoryEngine(Path(tmp), config=config, clock=clock, embedder=embedder)
        # The first graph run pays for lazy imports and compilation; not a turn cost.
        engine.ingest("warmup", [turns[0].model_copy(update={"tenant": "warmup"})])
        engine.flush()
        watch.take()
        with timed_nodes(watch):
            for m in turns:
                start = time.perf_counter()
                step = engine.ingest(tenant, [m])
                seconds = time.perf_counter() - start
                (compression if step.compressed else ordinary).append(seconds)
                trigger_check.append(watch.take().get("trigger_check", 0.0))
        engine.flush()
        episodes = engine.episodes.count(tenant)
        jobs = {k: list(v) for k, v in engine.worker.job_seconds.items()}
        engine.close()
    turn_ms, fired_ms = percentiles(ordinary), percentiles(compression)
    return {
        "system": spec,
        "brain": engine.brain.name,
        "turns": len(turns),
        "compressions": len(compression),
        "episodes": episodes,
        "total": summarize_ms(ordinary + compression),
        "turn_ms": turn_ms,
        "compression_turn_ms": fired_ms,
        "compression_vs_turn": _ratios(turn_ms, fired_ms),
        "parts": {"trigger_check": summarize_ms(trigger_check)},
        "background_ms": {
            "compress_job": summarize_ms(jobs.get("compress", [])),
            "extract_job": summarize_ms(jobs.get("extract", [])),
            "embedding_total_ms": round(
                background.take().get("embedding", 0.0) * 1000, 1
            ),
        },
    }


def _ratios(turn_ms: dict, fired_ms: dict) -> dict:
    """Compression turns' p95 and max over the ordinary turns' p95."""
    base = turn_ms["p95"]
    if not base or not fired_ms["n"]:
        return {"p95": None, "max": None, "met": None}
    p95, worst = fired_ms["p95"] / base, fired_ms["max"] / base
    return {
        "p95": round(p95, 2),
        "max": round(worst, 2),
        "met": p95 <= RATIO_TARGET and worst <= RATIO_TARGET,
    }


def bench_baseline(name: str, turns: Sequence[Message], tenant: str) -> dict:
    """Per-turn ingest cost of a raw-turn baseline."""
    from memlab_bench.baselines import make_baseline

    system = make_baseline(name, budget=1500, tenant=tenant, start=turns[0].timestamp)
    totals = []
    for m in turns:
        start = time.perf_counter()
        system.ingest(m)
        totals.append(time.perf_counter() - start)
    system.close()
    return {"system": name, "turns": len(turns), "total": summarize_ms(totals)}


def run_ingest(
    recipes: Sequence[str],
    baselines: Sequence[str],
    turns: Sequence[Message],
    tenant: str,
    advance: Callable[[str], None],
    llm: LLMSettings | None = None,
) -> list[dict]:
    """Every recipe, then every baseline, on the same turns."""
    rows = []
    for spec in recipes:
        advance(f"ingest {spec}")
        rows.append(bench_recipe(spec, turns, tenant, llm))
    for name in baselines:
        advance(f"ingest {name}")
        rows.append(bench_baseline(name, turns, tenant))
    return rows
