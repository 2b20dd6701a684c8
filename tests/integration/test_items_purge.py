"""A tenant's store items go with a purge of everything, and only that tenant's.

The items a LangGraph agent keeps through `MemoryLabStore` are memory held about
the tenant like any other: "forget me" removes them for real, from every reader,
including a second process that had them cached.
"""

from __future__ import annotations

from memory_lab import Memory


def test_purging_a_tenant_removes_its_items_from_every_reader(tmp_path):
    folder = tmp_path / "m"
    with Memory.open(folder) as memory, Memory.open(folder) as other:
        memory.add("ada", [{"role": "user", "content": "I keep bees."}])
        memory.items.put("ada", ("notes",), "bees", {"text": "Ada keeps bees"})
        memory.items.put("bob", ("notes",), "cats", {"text": "Bob keeps cats"})
        # The second opener caches ada's items before the purge.
        assert [i.key for i in other.items.search("ada", ("notes",), query="bees")] == [
            "bees"
        ]
        memory.purge("ada", requested_by="test")
        assert memory.items.get("ada", ("notes",), "bees") is None
        assert other.items.search("ada", ("notes",), query="bees") == []
        assert other.items.get("bob", ("notes",), "cats") is not None
    raw = (folder / "memory.sqlite3").read_bytes()
    assert b"Ada keeps bees" not in raw
    assert b"Bob keeps cats" in raw
