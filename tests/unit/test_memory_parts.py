"""One opener for a memory's parts, and owner/ kept to the stores' calls."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from memory_lab.embeddings import default_embedder
from memory_lab.graph.deps import Deps
from memory_lab.jobs.committed import CommittedEpisodeStore
from memory_lab.memory_parts import NoMemoryError, open_parts
from memory_lab.owner.open_stores import OpenStores
from memory_lab.stores import InMemoryTranscriptStore
from memory_lab.stores.locations import StoreSpec
from memory_lab.types import Episode
from tests.helpers import T0, msg

LIBRARY = Path(__file__).resolve().parents[2] / "memory_lab"
OWNER = LIBRARY / "owner"
SQL = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|PRAGMA)\b")
DDL = re.compile(r"\b(CREATE (TABLE|INDEX)|ALTER TABLE|DROP (TABLE|INDEX))\b")


def test_no_folder_and_no_server_keeps_every_part_in_this_process():
    parts = open_parts(None, StoreSpec(), default_embedder())
    assert parts.in_process and parts.local_files is None
    assert isinstance(parts.transcript, InMemoryTranscriptStore)
    assert parts.ledger.db is parts.db
    parts.transcript.append("t1", "main", [msg(0, "hi")])
    assert parts.transcript.count("t1") == 1
    parts.close()


def test_a_folder_holds_the_database_and_the_index_and_reopens(tmp_path):
    folder = tmp_path / "m"
    parts = open_parts(folder, StoreSpec(), default_embedder())
    assert not parts.in_process and parts.local_files == folder
    parts.transcript.append("t1", "main", [msg(0, "hi")])
    parts.close()
    assert (folder / "memory.sqlite3").is_file() and (folder / "chroma").is_dir()
    again = open_parts(folder, StoreSpec(), default_embedder(), create=False)
    assert [m.id for m in again.transcript.messages("t1")] == [msg(0, "hi").id]
    assert again.episodes is not None and again.episodes.count("t1") == 0
    again.close()


def test_without_create_an_empty_folder_is_no_memory(tmp_path):
    with pytest.raises(NoMemoryError, match=r"memory\.sqlite3 not found"):
        open_parts(tmp_path, StoreSpec(), default_embedder(), create=False)
    assert not (tmp_path / "memory.sqlite3").exists()


def test_the_graphs_context_offers_every_part_owner_control_uses():
    members = {n for n, v in vars(OpenStores).items() if isinstance(v, property)}
    assert {"transcript", "jobs", "facts", "config"} <= members
    assert members <= set(Deps.__dataclass_fields__)


@pytest.mark.parametrize("path", sorted(OWNER.glob("*.py")), ids=lambda p: p.name)
def test_owner_writes_no_sql_and_never_imports_the_graph(path):
    text = path.read_text(encoding="utf-8")
    imported = {
        node.module
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not {m for m in imported if m.startswith("memory_lab.graph")}
    if path.name == "disk.py":
        # It rewrites files (VACUUM, Chroma's own file); its docstring says why.
        assert "plain sqlite3 connections" in text
        return
    assert not SQL.search(text), f"{path.name} holds SQL"
    assert "sqlite3.connect" not in text


@pytest.mark.parametrize(
    "path",
    sorted(
        p
        for room in ("jobs", "sessions", "chats")
        for p in (LIBRARY / room).glob("*.py")
    ),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_the_ledger_sessions_and_chats_leave_their_sql_to_stores(path):
    # Their statements are stores.sql_ledger's, sql_sessions' and sql_chats'.
    text = path.read_text(encoding="utf-8")
    assert not SQL.search(text), f"{path.parent.name}/{path.name} holds SQL"
    assert not DDL.search(text), f"{path.parent.name}/{path.name} makes tables"
    assert "sqlite3.connect" not in text


def _episode(n: int, summary: str) -> Episode:
    return Episode(
        id=f"e{n}",
        tenant="t1",
        thread="main",
        session="s1",
        summary=summary,
        first_seq=2 * n,
        last_seq=2 * n + 1,
        start=T0,
        end=T0,
        turn_ids=[f"m{2 * n}", f"m{2 * n + 1}"],
        original_message_count=2,
        original_tokens=20,
        summary_tokens=5,
        created_at=T0,
        brain="rule-based",
        trigger="A",
    )


def test_committed_episodes_are_removed_and_dropped_from_ledger_and_index(tmp_path):
    parts = open_parts(tmp_path, StoreSpec(), default_embedder())
    assert parts.episodes is not None
    store = CommittedEpisodeStore(parts.episodes, parts.ledger)
    store.add("t1", [_episode(0, "The user drinks green tea."), _episode(1, "A dog.")])
    before = store.search("t1", "green tea", top_k=5, max_distance=2.0)
    assert [e.id for e, _ in before][:1] == ["e0"]
    assert store.remove("t1", ["e0", "missing"]) == 1
    assert [e.id for e in store.get("t1")] == ["e1"] and store.count("t1") == 1
    assert [e.id for e in parts.episodes.get("t1")] == ["e1"]
    hits = store.search("t1", "green tea", top_k=5, max_distance=2.0)
    assert [e.id for e, _ in hits] == ["e1"]
    store.drop("t1")
    assert store.get("t1") == [] and parts.episodes.count("t1") == 0
    parts.close()
