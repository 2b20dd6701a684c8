"""Memory tools: explicit saves outrank extraction; every write is undoable data."""

from __future__ import annotations

import numpy as np

from memory_lab import ManualClock, MemoryEngine
from memory_lab.facts.tools import memory_tools
from tests.helpers import T0, cand


class FlatEmbedder:
    name, dim = "flat", 4

    def embed(self, texts):
        return np.tile(np.array([1.0, 0, 0, 0], dtype=np.float32), (len(texts), 1))


def tools(eng):
    return {t.name: t for t in memory_tools(eng, "t1")}


def test_the_six_tools_save_list_update_confirm_forget_and_recall():
    eng = MemoryEngine(None, clock=ManualClock(T0), embedder=FlatEmbedder())
    t = tools(eng)
    assert sorted(t) == sorted(
        [
            "memory_save",
            "memory_update",
            "memory_forget",
            "memory_confirm",
            "memory_list",
            "memory_recall",
        ]
    )
    saved = t["memory_save"].invoke(
        {"category": "preference", "key": "reply_language", "value": "Swedish"}
    )
    assert saved["kind"] == "fact_added" and saved["undo"]
    (row,) = t["memory_list"].invoke({})
    assert row["source"] == "explicit" and row["value"] == "Swedish"
    assert t["memory_list"].invoke({"category": "identity"}) == []
    assert "Swedish" in t["memory_recall"].invoke({"query": "reply language"})
    updated = t["memory_update"].invoke(
        {"category": "preference", "key": "reply_language", "value": "Danish"}
    )
    assert updated["kind"] == "fact_superseded"
    (row,) = t["memory_list"].invoke({})
    assert t["memory_confirm"].invoke({"fact_id": row["id"]})["kind"] in (
        "fact_confirmed",
        "fact_skipped",
    )
    assert t["memory_forget"].invoke({"fact_id": row["id"]})["kind"] == "fact_forgotten"
    assert t["memory_list"].invoke({}) == []


def test_extraction_cannot_override_an_explicit_save():
    eng = MemoryEngine(None, clock=ManualClock(T0), embedder=FlatEmbedder())
    tools(eng)["memory_save"].invoke(
        {"category": "identity", "key": "home_city", "value": "Oslo"}
    )
    event = eng.facts.write(
        "t1", cand("home_city", "Bergen", category="identity", confidence=0.99)
    )
    assert event.kind == "contradiction"
    assert [f.value for f in eng.facts.active("t1")] == ["Oslo"]
