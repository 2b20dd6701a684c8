"""The app's export download: the same file `memory-lab export` writes, from the
memory the page holds open, and importable as it is."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from app_ui.owner_panel import export_text
from memory_lab import Memory
from memory_lab.clock import ManualClock
from memory_lab.embeddings import default_embedder
from memory_lab.errors import MemoryLabError
from memory_lab.owner.export import NoTenantDataError
from memory_lab.owner.holdings import open_holdings
from memory_lab.owner.records import read_export
from memory_lab.owner.restore import restore_tenant
from memory_lab.stores.locations import StoreSpec

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def test_the_download_is_an_importable_export_of_every_chat(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "a", clock=ManualClock(T0)) as memory:
        with pytest.raises(NoTenantDataError):
            export_text(memory, "ana")
        memory.chat("ana", "I live in Oslo.")
        other = memory.chats.create("ana", title="Books")
        memory.chat("ana", "We use Fortnox for the books.", thread=other.thread)
        memory.close_session("ana")
        memory.flush()
        text = export_text(memory, "ana")
        held = len(memory.turns("ana"))
        snapshot = memory.snapshot("ana")
    export = read_export(text.splitlines())
    assert export.tenant == "ana" and len(export.messages) == held == 4
    assert {c.title for c in export.chats} == {"I live in Oslo.", "Books"}
    assert any(f.value == "Oslo" for f in export.facts)

    target = open_holdings(tmp_path / "b", StoreSpec(), default_embedder(), create=True)
    try:
        restore_tenant(target, export)
    finally:
        target.close()
    with Memory.open(tmp_path / "b", clock=ManualClock(T0)) as restored:
        assert restored.snapshot("ana") == snapshot


def test_a_memory_held_in_the_process_only_has_no_download() -> None:
    with Memory.open(clock=ManualClock(T0)) as memory:
        memory.chat("ana", "hello")
        with pytest.raises(MemoryLabError, match="held in this process only"):
            export_text(memory, "ana")
