"""Retrieval and assembly latency with many stored episodes and facts.

Stores are bulk-loaded directly. Embedding 100k texts with the local model takes
about six minutes on two cores, so episode vectors come from a pool of distinct
texts embedded once: each loaded episode reuses a pool text's vector with small
seeded noise (then re-normalised). Queries are embedded for real. The results say
so (`vectors`).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path

import numpy as np

from memlab_bench.stats import summarize_ms
from memory_lab.types import Episode, Fact

VECTORS_NOTE = (
    "episode vectors: a pool of {pool} distinct texts embedded with the local model, "
    "reused with seeded noise (sigma {sigma}); queries embedded for real"
)
NOISE = 0.03
CATEGORIES = ("preference", "identity", "knowledge", "decision", "constraint")


class PoolEmbedder:
    """Real vectors for queries; pooled, perturbed vectors for bulk-loaded episodes.

    A loaded episode's text ends with its pool index as `#<n>`, which is how the
    pooled vector is found without embedding the text.
    """

    def __init__(self, inner, pool: Sequence[str], seed: int = 0) -> None:
        self.name, self.dim = inner.name, inner.dim
        self._inner = inner
        self._pool = inner.embed(list(pool))
        self._rng = np.random.default_rng(seed)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Pooled vectors for loaded episodes, real ones for anything else."""
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        real = [i for i, t in enumerate(texts) if "#pool" not in t]
        if real:
            out[real] = self._inner.embed([texts[i] for i in real])
        for i, t in enumerate(texts):
            if "#pool" in t:
                base = self._pool[int(t.rsplit("#pool", 1)[1]) % len(self._pool)]
                v = base + self._rng.normal(0, NOISE, self.dim)
                out[i] = v / np.linalg.norm(v)
        return out


def _episode(tenant: str, i: int, text: str, pool_index: int, start) -> Episode:
    at = start + timedelta(minutes=10 * i)
    return Episode(
        id=f"ep_bench_{i:07d}",
        tenant=tenant,
        session=f"s{i // 50}",
        thread="main",
        first_seq=i * 10,
        last_seq=i * 10 + 9,
        turn_ids=[f"m{i * 10 + k}" for k in range(10)],
        start=at,
        end=at + timedelta(minutes=9),
        original_message_count=10,
        original_tokens=300,
        summary_tokens=60,
        summary=f"{text} #pool{pool_index}",
        created_at=at,
        brain="bench",
        trigger="A",
    )


def _fact(tenant: str, i: int, text: str, start) -> Fact:
    at = start + timedelta(minutes=i)
    return Fact(
        id=f"f_bench_{i:07d}",
        tenant=tenant,
        subject="user",
        category=CATEGORIES[i % len(CATEGORIES)],
        key=f"topic_{i}.detail",
        value=text[:80],
        confidence=0.8,
        importance=0.5,
        source="extracted",
        session=f"s{i // 50}",
        turn_ids=[f"m{i}"],
        evidence=text[:80],
        valid_from=at,
        last_confirmed_at=at,
        created_at=at,
    )


def bench_size(
    size: int,
    pool: Sequence[str],
    queries: Sequence[str],
    embedder: PoolEmbedder,
    start,
) -> dict:
    """Load `size` episodes and `size` facts for one tenant, then time the reads."""
    from memory_lab import ManualClock, MemoryConfig, MemoryEngine
    from memory_lab.episodes.search import search_episodes

    tenant = "bench"
    with tempfile.TemporaryDirectory(prefix="memlab-bench-retrieval-") as tmp:
        clock = ManualClock(start + timedelta(days=400))
        engine = MemoryEngine(
            Path(tmp), config=MemoryConfig(), clock=clock, embedder=embedder
        )
        t0 = time.perf_counter()
        step = 5000
        for first in range(0, size, step):
            batch = [
                _episode(tenant, i, pool[i % len(pool)], i % len(pool), start)
                for i in range(first, min(size, first + step))
            ]
            engine.episodes.add(tenant, batch)
        load_episodes_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        store = engine.facts.store
        for i in range(size):
            store.insert(tenant, _fact(tenant, i, pool[(i * 7) % len(pool)], start))
        load_facts_s = time.perf_counter() - t0
        search, facts, assemble, tokens = [], [], [], []
        config = engine.config.retrieval
        engine.assemble(tenant, queries[0])  # first call pays for index loading
        limit = engine.config.assembly.max_fact_lines
        # The same queries at every size: a p95 of the five a 100k store was
        # once given was their slowest, set against a 1k store's p95 of 30.
        for q in queries:
            t = time.perf_counter()
            search_episodes(engine.episodes, tenant, q, config)
            search.append(time.perf_counter() - t)
            # The facts a context reads: those sharing a word with the question
            # or about someone it names, through the word and entity indexes.
            t = time.perf_counter()
            engine.facts.candidates(tenant, q, limit=limit)
            engine.facts.about(tenant, q, limit=limit)
            facts.append(time.perf_counter() - t)
            t = time.perf_counter()
            bundle = engine.assemble(tenant, q)
            assemble.append(time.perf_counter() - t)
            tokens.append(bundle.total_tokens)
        engine.close()
    return {
        "episodes": size,
        "facts": size,
        "load_episodes_s": round(load_episodes_s, 1),
        "load_facts_s": round(load_facts_s, 1),
        "episode_search": summarize_ms(search),
        "fact_read": summarize_ms(facts),
        "fact_read_is": "FactMemory.candidates + about, the context's fact read",
        "retrieval_and_assembly": summarize_ms(assemble),
        "context_tokens_mean": round(float(np.mean(tokens)), 1),
    }


def run_retrieval(
    sizes: Sequence[int],
    pool: Sequence[str],
    queries: Sequence[str],
    start,
    advance: Callable[[str], None],
) -> dict:
    """Every size, smallest first."""
    from memory_lab.embeddings import default_embedder

    embedder = PoolEmbedder(default_embedder(), pool)
    rows = []
    for size in sizes:
        advance(f"retrieval {size:,}")
        rows.append(bench_size(size, pool, queries, embedder, start))
    return {"vectors": VECTORS_NOTE.format(pool=len(pool), sigma=NOISE), "sizes": rows}
