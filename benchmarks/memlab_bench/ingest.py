"""Per-turn ingest cost per recipe, by graph step, with the chosen brain.

The memory recipes run on the real stores (SQLite and Chroma in a temporary
folder); the baselines are timed on the same turns for the ratios. The brain is
the rule-based one unless `--brain llm` names an endpoint; then the extraction and
compression parts are the model's latency.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from memlab_bench.instruments import TimedBrain, TimedEmbedder, timed_nodes
from memlab_bench.stats import Stopwatch, summarize_ms
from memory_lab.config import LLMSettings
from memory_lab.types import Message

PARTS = ("trigger_check", "compression", "embedding", "extraction")


def bench_recipe(
    spec: str,
    turns: Sequence[Message],
    tenant: str,
    llm: LLMSettings | None = None,
) -> dict:
    """Ingest `turns` one at a time; per-turn totals and per-part percentiles.

    A part's percentiles are over the turns where it ran (compression runs only
    when a trigger fires), and its mean is over all turns.
    """
    from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe
    from memory_lab.embeddings import default_embedder
    from memory_lab.engine import make_brain
    from memory_lab.tokens import default_counter

    watch = Stopwatch()
    config = MemoryConfig(recipe=recipe(spec), llm=llm)
    clock = ManualClock(turns[0].timestamp)
    brain = TimedBrain(make_brain(config, default_counter(), clock), watch)
    embedder = TimedEmbedder(default_embedder(), watch)
    totals: list[float] = []
    parts: dict[str, list[float]] = {p: [] for p in PARTS}
    with tempfile.TemporaryDirectory(prefix="memlab-bench-ingest-") as tmp:
        engine = MemoryEngine(
            Path(tmp), config=config, clock=clock, brain=brain, embedder=embedder
        )
        # The first graph run pays for lazy imports and compilation; not a turn cost.
        engine.ingest("warmup", [turns[0].model_copy(update={"tenant": "warmup"})])
        watch.take()
        fired = 0
        with timed_nodes(watch):
            for m in turns:
                start = time.perf_counter()
                fired += engine.ingest(tenant, [m]).compressed
                totals.append(time.perf_counter() - start)
                for part, seconds in watch.take().items():
                    parts[part].append(seconds)
        episodes = engine.episodes.count(tenant)
        engine.close()
    n = len(turns)
    return {
        "system": spec,
        "brain": brain.name,
        "turns": n,
        "compressions": fired,
        "episodes": episodes,
        "total": summarize_ms(totals),
        "parts": {
            p: {
                **summarize_ms(parts[p]),
                "mean_per_turn_ms": round(sum(parts[p]) / n * 1000, 3),
            }
            for p in PARTS
        },
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
