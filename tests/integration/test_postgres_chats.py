"""The chat catalog on Postgres: the same titles, search and trash as on SQLite."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from memory_lab.chats import ChatCatalog, UnknownChatError
from memory_lab.jobs.ledger import JobLedger
from memory_lab.stores import SqlTranscriptStore
from memory_lab.stores.postgres_db import PostgresDatabase
from tests.helpers import T0, msg

pytestmark = pytest.mark.xdist_group("servers")


def test_chats_round_trip_on_postgres(postgres_url):
    db = PostgresDatabase(postgres_url, f"pg_{uuid.uuid4().hex[:12]}")
    transcript, ledger = SqlTranscriptStore(db), JobLedger(db)
    chats = ChatCatalog(db, transcript)
    chat = chats.create("a", T0)
    turn = msg(1, "Lisbon flight TP 1234", tenant="a")
    transcript.append("a", chat.thread, [turn])
    ledger.save_marks("a", chat.thread, ledger.marks("a", chat.thread))
    chats.note_turn("a", chat.thread, turn.content, T0)

    [listed] = chats.chats("a")
    assert (listed.thread, listed.title) == (chat.thread, "Lisbon flight TP 1234")
    assert [h.thread for h in chats.search("a", "lisbon tp")] == [chat.thread]
    chats.trash("a", chat.thread, T0 + timedelta(hours=1))
    assert chats.chats("a") == [] and chats.search("a", "lisbon") == []
    assert chats.restore("a", chat.thread).trashed_at is None
    with pytest.raises(UnknownChatError):
        chats.get("b", chat.thread)
    db.close()


def test_facts_go_to_the_trash_and_back_on_postgres(postgres_url):
    from memory_lab import ManualClock, MemoryEngine
    from memory_lab.stores.locations import StoreSpec

    spec = StoreSpec(store=postgres_url, namespace=f"pg_{uuid.uuid4().hex[:12]}")
    with MemoryEngine(stores=spec, clock=ManualClock(T0)) as engine:
        engine.chat("a", "Hi! My name is Lena Berg and I live in Oslo.")
        engine.flush()
        fact = engine.facts.active("a")[0]
        engine.trash.trash_fact("a", fact.id)
        [held] = engine.trash.items("a")
        assert (held.kind, held.item) == ("fact", fact.id)
        assert fact.id not in {f.id for f in engine.facts.active("a")}
        engine.trash.restore("a", "fact", fact.id)
        assert engine.trash.items("a") == []
        assert fact.id in {f.id for f in engine.facts.active("a")}
