"""Export and import on real files: a round trip keeps all, a bad file changes nothing.

The memory is built by a real engine (rule-based brain, SQLite and Chroma on
disk), and the commands run through the CLI's `main`, as a user runs them. A
round trip is judged by the engine's snapshot of every thread, compared whole,
and by exporting the copy again: the two files differ only in `exported_at`
(job numbers and vectors, which differ, are not in the file).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import fields
from datetime import timedelta
from pathlib import Path

import pytest

from memlab_cli.main import main
from memory_lab import ManualClock, Memory, MemoryConfig, MemoryEngine, recipe
from memory_lab.embeddings import default_embedder
from memory_lab.jobs.ledger import ThreadMarks
from memory_lab.owner.export import export_tenant
from memory_lab.owner.holdings import open_holdings
from memory_lab.owner.records import ThreadState
from memory_lab.owner.restore import (
    ImportFailedError,
    read_export_file,
    restore_tenant,
)
from memory_lab.stores.locations import StoreSpec
from tests.helpers import T0, msg, without_location_env

TENANT = "alice"
THREADS = ("main", "side")
NOW = T0 + timedelta(days=9)
"""When every snapshot is taken: after the conversation and its week."""
CONFIG = MemoryConfig(recipe=recipe("A(a_max_messages=4,a_keep_last=2)"))
TALK = [
    "Hi there, I live in Uppsala.",
    "I work as a nurse at the hospital.",
    "My favourite food is sushi.",
    "Please forget that my favourite food is sushi.",
    "Actually I moved to Oslo last month.",
    "My sister is called Anna.",
    "We decided to plan a trip to Rome in May.",
    "What should I pack for Rome?",
    "I prefer tea over coffee.",
    "Thanks, that is all for today.",
]


def _engine(path: Path, clock: ManualClock) -> MemoryEngine:
    return MemoryEngine(path, config=CONFIG, clock=clock)


def _snapshots(path: Path, tenant: str = TENANT) -> list[dict]:
    engine = _engine(path, ManualClock(NOW))
    try:
        return [engine.snapshot(tenant, thread=t) for t in THREADS]
    finally:
        engine.close()


def _build(path: Path) -> None:
    """Two threads over two days and a week later, so every kind of record exists."""
    clock = ManualClock(T0)
    engine = _engine(path, clock)
    for i, text in enumerate(TALK):
        engine.ingest(
            TENANT, [msg(i, text, tenant=TENANT, at=T0 + timedelta(hours=3 * i))]
        )
    side = msg(
        50,
        "I have a cat named Miso.",
        tenant=TENANT,
        session="s2",
        at=T0 + timedelta(days=2),
    )
    engine.ingest(TENANT, [side], thread="side")
    engine.close_session(TENANT, thread="side")
    late = msg(
        60,
        "Back again, the Rome trip was lovely.",
        tenant=TENANT,
        at=T0 + timedelta(days=8),
    )
    engine.ingest(TENANT, [late])
    engine.close_session(TENANT)
    engine.flush()
    # Links between facts, one of them ended, so both kinds of row travel.
    first, second, third = (f.id for f in engine.facts.active(TENANT)[:3])
    engine.facts.link(TENANT, "relates_to", first, second)
    ended = engine.facts.link(TENANT, "caused_by", third, first).refs[0]
    engine.facts.unlink(TENANT, ended)
    # Chats of the app's list: one renamed, one in the trash.
    engine.chats.rename(TENANT, "side", "About Miso")
    trashed = engine.chats.create(TENANT, T0 + timedelta(days=8), title="Old plans")
    engine.chats.trash(TENANT, trashed.thread, T0 + timedelta(days=9))
    # An episode in the trash: the copy must leave it out of reads too.
    engine.trash.trash_episode(TENANT, engine.episodes.get(TENANT)[0].id)
    # Store items an agent keeps, one of them put twice (so its times differ).
    items = Memory(engine, str(path)).items
    items.put(TENANT, ("prefs",), "drink", {"text": "tea over coffee"})
    clock.advance(timedelta(hours=1))
    items.put(TENANT, ("prefs",), "drink", {"text": "tea, no sugar"})
    engine.close()


def _export(data: Path, out: Path, tenant: str = TENANT) -> int:
    return main(["export", "--data", str(data), "--tenant", tenant, "--out", str(out)])


def _import(data: Path, file: Path) -> int:
    return main(["import", "--data", str(data), str(file)])


@pytest.fixture(scope="module")
def memory(tmp_path_factory) -> dict:
    """Memory A, its snapshots and its export (with no servers named by the env)."""
    with pytest.MonkeyPatch.context() as env:
        without_location_env(env)
        root = tmp_path_factory.mktemp("owner")
        source = root / "a"
        _build(source)
        out = root / "alice.jsonl"
        assert _export(source, out) == 0
        yield {
            "root": root,
            "source": source,
            "file": out,
            "snapshots": _snapshots(source),
        }


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_the_export_holds_every_kind_and_the_fact_history(memory):
    header, *records = _lines(memory["file"])
    assert header["kind"] == "header" and header["format"] == "memory-lab-export"
    assert header["version"] == 1 and header["tenant"] == TENANT
    assert {"exported_at", "memory_lab_version", "counts"} <= set(header)
    kinds = [r["kind"] for r in records]
    assert header["counts"] == {k: kinds.count(k) for k in header["counts"]}
    assert all(header["counts"][k] for k in header["counts"]), header["counts"]
    assert all(set(r) == {"kind", "data"} for r in records)
    facts = {
        (r["data"]["value"], r["data"]["status"])
        for r in records
        if r["kind"] == "fact"
    }
    assert {
        ("Uppsala", "superseded"),
        ("sushi", "forgotten"),
        ("Oslo", "active"),
    } <= facts
    fact = next(r["data"] for r in records if r["kind"] == "fact")
    for key in (
        "valid_from",
        "valid_until",
        "ended_at",
        "superseded_by",
        "source",
        "confidence",
        "expires_at",
        "turn_ids",
    ):
        assert key in fact
    assert {r["data"]["thread"] for r in records if r["kind"] == "period"} == {
        "day",
        "week",
    }
    assert {r["data"]["thread"] for r in records if r["kind"] == "message"} == set(
        THREADS
    )


def test_a_round_trip_gives_the_same_memory(memory):
    target = memory["root"] / "b"
    assert _import(target, memory["file"]) == 0
    assert _snapshots(target) == memory["snapshots"]
    again = memory["root"] / "b.jsonl"
    assert _export(target, again) == 0
    first, second = _lines(memory["file"]), _lines(again)
    # The export time is the only difference; vectors are not in the file.
    first[0].pop("exported_at"), second[0].pop("exported_at")
    assert first == second
    links = [r["data"] for r in second if r["kind"] == "link"]
    assert len(links) == 2 and sum(k["ended_at"] is not None for k in links) == 1
    chats = {r["data"]["title"]: r["data"] for r in second if r["kind"] == "chat"}
    assert set(chats) == {"About Miso", "Old plans"}
    assert chats["Old plans"]["trashed_at"] and not chats["About Miso"]["trashed_at"]


def test_thread_state_holds_every_watermark():
    assert set(ThreadState.model_fields) - {"tenant", "thread"} == {
        f.name for f in fields(ThreadMarks)
    }


def _state(folder: Path) -> tuple[list[str], dict[str, list[tuple]]]:
    """The folder's file names and every row of its database."""
    names = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    with sqlite3.connect(folder / "memory.sqlite3") as conn:
        tables = [
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        rows = {
            t: sorted(map(tuple, conn.execute(f"SELECT * FROM {t}")), key=repr)
            for t in tables
        }
    conn.close()
    return names, rows


@pytest.fixture(scope="module")
def occupied(memory) -> Path:
    """A folder where alice's memory already is."""
    target = memory["root"] / "occupied"
    assert _import(target, memory["file"]) == 0
    return target


def _bad_files(memory) -> dict[str, tuple[Path, str]]:
    """Name -> (file, what the error must say)."""
    folder = memory["root"] / "bad"
    folder.mkdir(exist_ok=True)
    text = memory["file"].read_text(encoding="utf-8")
    header, *records = _lines(memory["file"])
    fact_at = next(i for i, r in enumerate(records) if r["kind"] == "fact")
    link_at = next(i for i, r in enumerate(records) if r["kind"] == "link")
    dangling = [dict(r) for r in records]
    dangling[link_at] = {
        "kind": "link",
        "data": {**records[link_at]["data"], "target": "f_gone"},
    }
    # A field with a default: missing, it must not quietly become "active".
    no_status = [dict(r) for r in records]
    no_status[fact_at] = {
        "kind": "fact",
        "data": {k: v for k, v in records[fact_at]["data"].items() if k != "status"},
    }
    other = [dict(r) for r in records]
    other[fact_at] = {
        "kind": "fact",
        "data": {**records[fact_at]["data"], "tenant": "mallory"},
    }
    truncated = folder / "truncated.jsonl"
    truncated.write_text(text.rstrip("\n")[:-40], encoding="utf-8")
    lost = folder / "lost.jsonl"
    lost.write_text(
        "".join(line + "\n" for line in text.splitlines()[:-1]), encoding="utf-8"
    )
    csv = folder / "table.csv"
    csv.write_text("id,value\n1,Oslo\n", encoding="utf-8")
    return {
        "missing file": (folder / "nowhere.jsonl", "no such file"),
        "not JSON lines": (csv, "line 1: not JSON"),
        "truncated line": (truncated, "not JSON"),
        "lost lines": (lost, "header counts"),
        "wrong version": (
            _write(folder / "v2.jsonl", [{**header, "version": 2}, *records]),
            "version 2 is not supported",
        ),
        "wrong format": (
            _write(folder / "fmt.jsonl", [{**header, "format": "other"}, *records]),
            "not a memory-lab export",
        ),
        "unknown kind": (
            _write(
                folder / "kind.jsonl", [header, {"kind": "dream", "data": {}}, *records]
            ),
            "unknown kind 'dream'",
        ),
        "missing field": (
            _write(folder / "field.jsonl", [header, *no_status]),
            "(fact): status: Field required",
        ),
        "another tenant": (
            _write(folder / "tenant.jsonl", [header, *other]),
            "tenant 'mallory'",
        ),
        "repeated record": (
            _write(
                folder / "twice.jsonl",
                [
                    {
                        **header,
                        "counts": {
                            **header["counts"],
                            "fact": header["counts"]["fact"] + 1,
                        },
                    },
                    *records,
                    records[fact_at],
                ],
            ),
            "share the id",
        ),
        "link to nothing": (
            _write(folder / "dangling.jsonl", [header, *dangling]),
            "names fact 'f_gone', which the file lacks",
        ),
        "tenant present": (memory["file"], "tenant 'alice' already has data"),
    }


CASES = [
    "missing file",
    "not JSON lines",
    "truncated line",
    "lost lines",
    "wrong version",
    "wrong format",
    "unknown kind",
    "missing field",
    "another tenant",
    "repeated record",
    "link to nothing",
    "tenant present",
]


@pytest.mark.parametrize("case", CASES)
def test_a_bad_import_says_why_in_one_line_and_changes_nothing(
    memory, occupied, case, capsys
):
    path, expected = _bad_files(memory)[case]
    before = _state(occupied)
    capsys.readouterr()
    assert _import(occupied, path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("memory-lab import: error: "), err
    assert expected in err
    assert _state(occupied) == before


def test_a_refused_import_leaves_the_memory_as_it_was(memory, occupied):
    assert _import(occupied, memory["file"]) == 2
    assert _snapshots(occupied) == memory["snapshots"]


def test_a_bad_file_creates_no_folder(memory):
    target = memory["root"] / "never"
    bad = _write(
        memory["root"] / "v9.jsonl", [{**_lines(memory["file"])[0], "version": 9}]
    )
    assert _import(target, bad) == 2
    assert not target.exists()


def test_an_unknown_tenant_is_not_exported(memory, capsys):
    out = memory["root"] / "nobody.jsonl"
    assert _export(memory["source"], out, "nobody") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no data for tenant 'nobody'" in err
    assert not out.exists()
    assert _export(memory["root"] / "empty", out) == 2
    assert "no data for tenant 'alice'" in capsys.readouterr().err
    assert not (memory["root"] / "empty").exists()


class _FailsSecondTime:
    """The real embedder until its second call, which fails as a full disk would."""

    def __init__(self) -> None:
        self._real = default_embedder()
        self.name, self.dim = self._real.name, self._real.dim
        self.calls = 0

    def embed(self, texts):
        self.calls += 1
        if self.calls > 1:
            raise OSError("No space left on device")
        return self._real.embed(texts)


def test_a_write_failing_half_way_takes_everything_back(memory):
    """Episodes reach Chroma, the summaries fail: the SQL and the episodes go."""
    target = memory["root"] / "failing"
    export = read_export_file(memory["file"])
    embedder = _FailsSecondTime()
    holdings = open_holdings(target, StoreSpec(), embedder, create=True)
    try:
        with pytest.raises(ImportFailedError, match="No space left on device"):
            restore_tenant(holdings, export)
        assert embedder.calls == 2  # the episodes were written before the failure
        assert holdings.episodes.count(TENANT) == 0
        assert holdings.periods.count(TENANT) == 0
    finally:
        holdings.close()
    # Only the record of the layout's migrations stays.
    left = {table: rows for table, rows in _state(target)[1].items() if rows}
    assert set(left) == {"schema_version"}


@pytest.mark.xdist_group("servers")
def test_a_round_trip_through_servers_keeps_every_record(
    memory, postgres_url, chroma_url
):
    """Postgres and a Chroma server hold the import; exported again, it is the same."""
    spec = StoreSpec(
        store=postgres_url, episodes=chroma_url, namespace=f"owner-{uuid.uuid4()}"
    )
    holdings = open_holdings(None, spec, default_embedder(), create=True)
    try:
        restore_tenant(holdings, read_export_file(memory["file"]))
        again = export_tenant(holdings, TENANT, now=NOW)
    finally:
        holdings.close()
    first = _lines(memory["file"])
    second = [json.loads(line) for line in again.lines()]
    first[0].pop("exported_at"), second[0].pop("exported_at")
    assert first == second
    links = [r["data"] for r in second if r["kind"] == "link"]
    assert len(links) == 2 and sum(k["ended_at"] is not None for k in links) == 1
    chats = {r["data"]["title"]: r["data"] for r in second if r["kind"] == "chat"}
    assert set(chats) == {"About Miso", "Old plans"}
    assert chats["Old plans"]["trashed_at"] and not chats["About Miso"]["trashed_at"]
