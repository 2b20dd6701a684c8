"""The LangGraph store at scale: `search` latency with 10,000 items in a memory.

`memory-lab bench --store` puts N items (default 10,000) into a
`MemoryLabStore` on a fresh folder (or `--store-location`), in batches as an
agent's bulk import would, then times searches one by one:

- `query`: by meaning over the tenant's every namespace, each query new (its
  embedding is part of the time: the vector cache is off for queries);
- `query_in_namespace`: the same within one namespace of twenty;
- `query_and_filter`: by meaning, with a `$gte` filter passing half the items;
- `listing`: without a query, a page of one namespace;
- `query_after_put`: a put, then a search, so each search first folds the new
  item into the ranked cache;
- `embed_query`: the query's embedding alone, the floor under `query`.

The target is `query` p95 <= 20 ms. The items' own vectors may come from the
machine's vector cache (`memory_lab.vector_cache`), so a re-run does not spend
minutes embedding the same synthetic lines; the result says how many were
computed.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TARGET_P95_MS = 20.0
"""The most a `query` search may take at p95 with 10,000 items."""

TOPICS = 20
BATCH = 250

_WHO = ["I", "My sister", "My manager", "Our team", "My neighbour", "My son", "Dana"]
_DID = [
    "booked a table at",
    "complained about",
    "wants to visit",
    "lost a scarf at",
    "took photos of",
    "has a meeting near",
    "recommended",
    "ran a half marathon past",
]
_WHAT = [
    "the new ramen place",
    "the botanical garden",
    "the dentist on Elm Street",
    "the climbing gym",
    "the train station",
    "the farmers market",
    "the old cinema",
    "the lake trail",
    "the jazz bar",
    "the public library",
]
_WHEN = ["on Monday", "last weekend", "in March", "every Friday", "after work"]


def _items(n: int, seed: int) -> list[tuple[tuple[str, ...], str, dict]]:
    rng = random.Random(seed)
    made = []
    for i in range(n):
        text = (
            f"{rng.choice(_WHO)} {rng.choice(_DID)} {rng.choice(_WHAT)} "
            f"{rng.choice(_WHEN)} (note {i})"
        )
        made.append((("bench", f"topic-{i % TOPICS}"), f"m{i}", {"text": text, "n": i}))
    return made


def _questions(n: int, seed: int) -> list[str]:
    rng = random.Random(seed + 1)
    asks = [
        "Where did {who} go {when}?",
        "What do I know about {what}?",
        "Who {did} {what}?",
        "Anything about {what} {when}?",
    ]
    return [
        rng.choice(asks).format(
            who=rng.choice(_WHO).lower(),
            what=rng.choice(_WHAT),
            did=rng.choice(_DID),
            when=rng.choice(_WHEN),
        )
        + f" #{j}"  # every query new: none is embedded twice
        for j in range(n)
    ]


def measure_store(
    location: str | None = None,
    *,
    items: int = 10_000,
    queries: int = 200,
    seed: int = 7,
    report: Callable[[str], None] = lambda line: None,
) -> dict:
    """Put `items` in a store at `location` (a new folder if None), time searches."""
    from langgraph.store.base import PutOp

    from memlab_bench.stats import summarize_ms
    from memory_lab.adapters.langgraph import MemoryLabStore
    from memory_lab.embeddings import default_embedder
    from memory_lab.vector_cache import default_vector_path

    with tempfile.TemporaryDirectory(prefix="memlab-store-") as tmp:
        where = location or str(Path(tmp) / "memory")
        embedder = default_embedder()
        embedder.keep_on_disk(default_vector_path(embedder.name))
        computed_before = embedder.computed
        data = _items(items, seed)
        asks = _questions(queries * 3 + 60, seed)
        result: dict = {"location": "folder" if location is None else _shown(where)}
        # Latencies on a loaded machine are not those of an idle one: say which.
        result["load_average_1m_before"] = round(os.getloadavg()[0], 1)
        with MemoryLabStore.from_conn_string(where) as store:
            started = time.perf_counter()
            for start in range(0, len(data), BATCH):
                chunk = data[start : start + BATCH]
                store.batch([PutOp(ns, key, value) for ns, key, value in chunk])
                report(f"store bench: put {start + len(chunk)}/{len(data)} items")
            put_s = time.perf_counter() - started
            result["items"] = items
            result["put_seconds"] = round(put_s, 2)
            result["put_items_per_s"] = round(items / put_s, 1)
            result["item_vectors_computed"] = embedder.computed - computed_before
            # Queries are embedded fresh: their time is part of a search.
            embedder.keep_on_disk(None)

            def timed(
                call: Callable[..., object], *args: object, **kw: object
            ) -> float:
                began = time.perf_counter()
                call(*args, **kw)
                return time.perf_counter() - began

            search = store.search
            result["cold_first_search_ms"] = round(
                timed(search, ("bench",), query="warm up") * 1000, 1
            )
            ask = iter(asks)
            half = {"n": {"$gte": items // 2}}
            series: dict[str, list[float]] = {
                "query": [
                    timed(search, ("bench",), query=next(ask)) for _ in range(queries)
                ],
                "query_in_namespace": [
                    timed(search, ("bench", f"topic-{i % TOPICS}"), query=next(ask))
                    for i in range(queries)
                ],
                "query_and_filter": [
                    timed(search, ("bench",), query=next(ask), filter=half)
                    for _ in range(queries)
                ],
                "listing": [
                    timed(search, ("bench", f"topic-{i % TOPICS}"), offset=i)
                    for i in range(queries)
                ],
            }
            after_put = []
            for i in range(30):
                store.put(("bench", "new"), f"n{i}", {"text": next(ask), "n": -i})
                after_put.append(timed(search, ("bench",), query=next(ask)))
            series["query_after_put"] = after_put
            series["embed_query"] = [
                timed(embedder.embed, [q]) for q in _questions(50, seed + 9)
            ]
        result["search"] = {name: summarize_ms(s) for name, s in series.items()}
        result["load_average_1m_after"] = round(os.getloadavg()[0], 1)
        p95 = result["search"]["query"]["p95_ms"]
        result["target"] = {
            "target": f"store search p95 <= {TARGET_P95_MS:g} ms at {items:,} items",
            "measured": f"{p95} ms",
            "met": p95 <= TARGET_P95_MS,
        }
        return result


def _shown(url: str) -> str:
    # A URL's password stays out of the results.
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


def run_store_bench(
    out: Path, *, location: str | None, items: int, seed: int, machine: dict
) -> int:
    """`bench --store`: measure, write bench-store.json, print one line per series."""
    import json

    result = measure_store(
        location,
        items=items,
        seed=seed,
        report=lambda line: print(line, file=sys.stderr, flush=True),
    )
    result["command"] = "memory-lab bench --store" + (
        f" --store-items {items}" if items != 10_000 else ""
    )
    result["machine"] = machine
    out.mkdir(parents=True, exist_ok=True)
    path = out / "bench-store.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(
        f"store: {items:,} items put in {result['put_seconds']} s "
        f"({result['item_vectors_computed']} vectors computed); first search "
        f"{result['cold_first_search_ms']} ms"
    )
    for name, s in result["search"].items():
        print(f"store {name}: p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms (n={s['n']})")
    target = result["target"]
    verdict = "met" if target["met"] else "NOT met"
    print(f"{target['target']}: {target['measured']} ({verdict})")
    print(f"wrote {path}")
    return 0 if target["met"] else 1
