"""Store items travel with the owner's export: put, exported, imported, the same.

The items a LangGraph agent keeps through `MemoryLabStore` are held about the
tenant like its transcript, so `memory-lab export` writes them (`item` lines)
and `memory-lab import` brings them back with their times and list order,
indexed again by the target's embedder. A file written before items were
exported has no `item` lines nor count, and still imports.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from memlab_cli.main import main
from memory_lab import ManualClock, Memory
from memory_lab.adapters.langgraph import MemoryLabStore
from memory_lab.owner.restore import read_export_file
from tests.helpers import T0, without_location_env

TENANT = "ada"
NESTED = {"theme": "dark", "size": {"w": 3, "h": [1, 2.5]}, "tags": ["a", "é"]}


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> dict:
    """A folder with ada's items (two namespaces), a turn, and bob's item."""
    with pytest.MonkeyPatch.context() as env:
        without_location_env(env)
        root = tmp_path_factory.mktemp("items")
        folder = root / "a"
        clock = ManualClock(T0)
        with Memory.open(folder, clock=clock) as memory:
            memory.add(TENANT, [{"role": "user", "content": "I keep bees."}])
            store = MemoryLabStore(memory)
            store.put((TENANT, "profile"), "prefs", {"theme": "light"})
            store.put((TENANT, "notes"), "bees", {"text": "Ada keeps bees"})
            clock.advance(timedelta(minutes=5))
            store.put((TENANT, "notes"), "garden", {"text": "Roses in the garden"})
            store.put(
                (TENANT, "notes"), "quiet", {"text": "Honey harvest"}, index=False
            )
            clock.advance(timedelta(hours=1))
            store.put((TENANT, "profile"), "prefs", NESTED)
            store.put(("bob", "notes"), "cats", {"text": "Bob keeps cats"})
        file = root / "ada.jsonl"
        assert _export(folder, file) == 0
        yield {"root": root, "folder": folder, "file": file}


def _export(data: Path, out: Path) -> int:
    return main(["export", "--data", str(data), "--tenant", TENANT, "--out", str(out)])


def _import(data: Path, file: Path) -> int:
    return main(["import", "--data", str(data), str(file)])


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _listed(folder: Path, **search) -> list[tuple]:
    with Memory.open(folder) as memory:
        found = MemoryLabStore(memory).search((TENANT,), limit=50, **search)
    return [
        (i.namespace, i.key, i.value, i.created_at, i.updated_at, i.score)
        for i in found
    ]


def test_the_export_holds_the_tenants_items_in_list_order(source):
    header, *records = _lines(source["file"])
    items = [r["data"] for r in records if r["kind"] == "item"]
    assert header["counts"]["item"] == len(items) == 4
    assert [(i["namespace"], i["key"]) for i in items] == [
        (["ada", "profile"], "prefs"),
        (["ada", "notes"], "bees"),
        (["ada", "notes"], "garden"),
        (["ada", "notes"], "quiet"),
    ]
    prefs = items[0]
    assert prefs["value"] == NESTED
    assert prefs["created_at"] != prefs["updated_at"]
    assert all(
        set(i) == {"tenant", "namespace", "key", "value", "created_at", "updated_at"}
        for i in items
    )
    assert "Bob keeps cats" not in source["file"].read_text(encoding="utf-8")


def test_imported_items_read_back_the_same(source):
    target = source["root"] / "b"
    assert _import(target, source["file"]) == 0
    assert _listed(target) == _listed(source["folder"])
    with Memory.open(target) as memory:
        prefs = memory.items.get(TENANT, (TENANT, "profile"), "prefs")
        assert prefs is not None and prefs.value == NESTED
        assert prefs.created_at == T0
        assert prefs.updated_at == T0 + timedelta(minutes=65)
        assert memory.items.get("bob", ("bob", "notes"), "cats") is None
    # Indexed whole by the same embedder, the items score as they did; the one
    # put with index=False is now indexed too (and so ranks among them).
    before = _listed(source["folder"], query="bees and honey")
    after = _listed(target, query="bees and honey")
    assert before[-1][1] == "quiet" and before[-1][5] is None
    assert {r[1]: r[5] for r in after if r[1] != "quiet"} == pytest.approx(
        {r[1]: r[5] for r in before if r[1] != "quiet"}
    )
    assert next(r for r in after if r[1] == "quiet")[5] is not None
    again = source["root"] / "b.jsonl"
    assert _export(target, again) == 0
    first, second = _lines(source["file"]), _lines(again)
    first[0].pop("exported_at"), second[0].pop("exported_at")
    assert first == second


def test_a_tenant_holding_items_is_refused(source, capsys):
    target = source["root"] / "held"
    with Memory.open(target) as memory:
        memory.items.put(TENANT, ("x",), "k", {"v": 1})
    capsys.readouterr()
    assert _import(target, source["file"]) == 2
    assert "1 in items" in capsys.readouterr().err
    with Memory.open(target) as memory:
        assert [i.key for i in memory.items.search(TENANT)] == ["k"]


def test_an_item_line_without_its_key_is_refused_by_line(source, capsys):
    header, *records = _lines(source["file"])
    at = next(i for i, r in enumerate(records) if r["kind"] == "item")
    damaged = [dict(r) for r in records]
    damaged[at] = {
        "kind": "item",
        "data": {k: v for k, v in records[at]["data"].items() if k != "key"},
    }
    bad = _write(source["root"] / "no-key.jsonl", [header, *damaged])
    target = source["root"] / "never"
    capsys.readouterr()
    assert _import(target, bad) == 2
    err = capsys.readouterr().err
    assert f"line {at + 2} (item): key: Field required" in err, err
    assert not target.exists()


def test_a_file_from_before_items_still_imports(source):
    header, *records = _lines(source["file"])
    counts = {k: n for k, n in header["counts"].items() if k != "item"}
    old = _write(
        source["root"] / "old.jsonl",
        [{**header, "counts": counts}, *(r for r in records if r["kind"] != "item")],
    )
    assert read_export_file(old).items == []
    target = source["root"] / "old"
    assert _import(target, old) == 0
    with Memory.open(target) as memory:
        assert memory.items.search(TENANT) == []
        assert [m.content for m in memory.turns(TENANT)] == ["I keep bees."]
