"""Context tokens, latency and memory stored as one conversation grows.

Every system sees the same synthetic turns; at each checkpoint the same questions
are asked. Memory recipes should hold their context flat (the budget caps it),
while full context grows with the transcript, and building it should not take
longer as the history grows.

The turns are fed as fast as the machine takes them, faster than any chat, so
the background worker falls behind; at a checkpoint the memory work owed is
finished first (`settle`, its time kept as `drain_s`) and only then are the
questions timed, so the latency is the context build's, not the backlog's.
The questions are asked once untimed (the first question after a bulk feed
embeds the turns no question has searched yet, which a chat spreads over its
turns), then `rounds` times timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from memlab_bench.baselines import make_baseline
from memlab_bench.stats import summarize_ms
from memory_lab.types import Message


def bench_system(
    name: str,
    turns: Sequence[Message],
    tenant: str,
    checkpoints: Sequence[int],
    questions: Sequence[str],
    budget: int,
    tick: Callable[[], None],
    rounds: int = 1,
) -> dict:
    """Feed turns; at each checkpoint record context tokens, stored tokens, latency."""
    system = make_baseline(name, budget=budget, tenant=tenant, start=turns[0].timestamp)
    marks = set(checkpoints)
    points, ingest = [], []
    for n, m in enumerate(turns, start=1):
        t = time.perf_counter()
        system.ingest(m)
        ingest.append(time.perf_counter() - t)
        tick()
        if n in marks:
            t = time.perf_counter()
            settle = getattr(system, "settle", None)
            if settle is not None:
                settle()
            drain = time.perf_counter() - t
            tokens = [system.context(q).tokens for q in questions]
            latency = []
            for _ in range(rounds):
                for q in questions:
                    t = time.perf_counter()
                    system.context(q)
                    latency.append(time.perf_counter() - t)
            points.append(
                {
                    "turns": n,
                    "context_tokens_mean": round(float(np.mean(tokens)), 1),
                    "stored_tokens": system.stored_tokens(),
                    "context_latency": summarize_ms(latency),
                    "drain_s": round(drain, 2),
                    "ingest_last_100": summarize_ms(ingest[-100:]),
                }
            )
    system.close()
    first, last = points[0]["context_tokens_mean"], points[-1]["context_tokens_mean"]
    change = (last - first) / first if first else None
    return {
        "system": name,
        "points": points,
        "context_change": None if change is None else round(change, 4),
        "flat_within_5pct": None if change is None else abs(change) <= 0.05,
    }


def run_growth(
    systems: Sequence[str],
    turns: Sequence[Message],
    tenant: str,
    checkpoints: Sequence[int],
    questions: Sequence[str],
    budget: int,
    advance: Callable[[str], None],
    tick: Callable[[], None],
    rounds: int = 1,
) -> list[dict]:
    """Every system over the same turns."""
    rows = []
    for name in systems:
        advance(f"growth {name}")
        rows.append(
            bench_system(
                name, turns, tenant, checkpoints, questions, budget, tick, rounds
            )
        )
    return rows
