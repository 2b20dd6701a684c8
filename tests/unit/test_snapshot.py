"""The typed read model: built from deps and state, JSON keys kept."""

from __future__ import annotations

from datetime import timedelta

import numpy as np

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.recipes import recipe
from memory_lab.snapshot import MemorySnapshot, take_snapshot
from tests.helpers import T0, msg

KEYS = [
    "tenant",
    "thread",
    "now",
    "recipe",
    "brain",
    "window",
    "episodes",
    "facts",
    "daily_summaries",
    "weekly_summaries",
    "events",
    "suggestions",
    "transcript_messages",
    "session",
]


class FlatEmbedder:
    name, dim = "flat", 4

    def embed(self, texts):
        return np.tile(np.array([1.0, 0, 0, 0], dtype=np.float32), (len(texts), 1))


def test_snapshot_is_typed_and_its_json_keeps_the_contract_keys():
    config = MemoryConfig(recipe=recipe("A(a_max_messages=4,a_keep_last=1)"))
    eng = MemoryEngine(
        None, config=config, clock=ManualClock(T0), embedder=FlatEmbedder()
    )
    texts = ["My name is Ada.", "We decided to use Postgres.", "Hi.", "Ok.", "Fine."]
    for i, text in enumerate(texts):
        eng.ingest("t1", [msg(i, text)])
    eng.flush()  # the snapshot shows committed work; let the worker finish it
    snap = eng.memory_snapshot("t1")
    assert isinstance(snap, MemorySnapshot)
    data = eng.snapshot("t1")
    assert list(data) == KEYS
    assert list(data["window"]) == [
        "messages",
        "tokens",
        "summary",
        "summary_tokens",
        "last_seq",
        "extracted_upto",
    ]
    assert data["transcript_messages"] == 5
    assert data["window"]["last_seq"] == 4
    (ep,) = data["episodes"]
    assert ep["compression_ratio"] == ep["share_removed"]
    assert {"timespan", "first_seq", "summary"} <= set(ep)
    assert all("effective_confidence" in f for f in data["facts"])
    assert {e["kind"] for e in data["events"]} >= {"trigger_fired", "compressed"}


def test_snapshot_reads_status_at_its_own_time():
    eng = MemoryEngine(None, clock=ManualClock(T0), embedder=FlatEmbedder())
    eng.ingest("t1", [msg(0, "I still need to renew my passport.")])
    eng.flush()
    state = eng.state("t1")
    before = take_snapshot(eng.deps, state, "t1", "main")
    assert before.facts and before.facts[0].status == "active"
    eng.clock.advance(timedelta(days=400))
    after = take_snapshot(eng.deps, state, "t1", "main")
    assert {f.status for f in after.facts} == {"expired"}
    assert after.facts[0].effective_confidence < before.facts[0].effective_confidence
