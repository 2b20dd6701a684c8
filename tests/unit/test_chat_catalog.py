"""The chat catalog: titles, order, search, trash, restore, and bad requests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory_lab.chats import ChatCatalog, ChatError, UnknownChatError
from memory_lab.chats.catalog import (
    MAX_QUERY_CHARS,
    MAX_TITLE_CHARS,
    auto_title,
    retitle_after_purge,
)
from memory_lab.clock import ManualClock
from memory_lab.engine import MemoryEngine
from memory_lab.stores.sqlite_db import SqliteDatabase

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def engine(tmp_path: Path):
    eng = MemoryEngine(tmp_path / "data", clock=ManualClock(T0))
    yield eng
    eng.close()


def _say(engine: MemoryEngine, thread: str, text: str) -> None:
    engine.chat("ana", text, thread=thread, session=thread)
    engine.clock.advance(timedelta(minutes=1))


@pytest.mark.slow
def test_a_chat_takes_its_title_from_its_first_question(engine) -> None:
    chat = engine.chats.create("ana", engine.clock.now())
    assert chat.title == "New chat" and chat.titled_by == "none"
    _say(engine, chat.thread, "Which flight did I book for the Lisbon conference?")
    _say(engine, chat.thread, "And the hotel?")
    titled = engine.chats.get("ana", chat.thread)
    assert titled.title == "Which flight did I book for the Lisbon…"
    assert titled.titled_by == "first question"


def test_chats_list_newest_first_and_keep_apart_by_tenant(engine) -> None:
    first = engine.chats.create("ana", engine.clock.now())
    engine.clock.advance(timedelta(hours=1))
    second = engine.chats.create("ana", engine.clock.now())
    engine.chats.create("bo", engine.clock.now())
    assert [c.thread for c in engine.chats.chats("ana")] == [
        second.thread,
        first.thread,
    ]
    with pytest.raises(UnknownChatError):
        engine.chats.get("bo", first.thread)
    with pytest.raises(UnknownChatError):
        engine.chats.rename("bo", first.thread, "mine now")
    assert engine.chats.get("ana", first.thread).title == "New chat"


@pytest.mark.slow
def test_threads_from_before_the_catalog_are_listed_by_their_first_turn(
    engine,
) -> None:
    engine.chat("ana", "Remind me what we decided about the budget")
    [chat] = engine.chats.chats("ana")
    assert chat.thread == "main"
    assert chat.title == "Remind me what we decided about the budget"


def test_rename_refuses_blank_and_overlong_titles_and_keeps_the_old_one(
    engine,
) -> None:
    chat = engine.chats.create("ana", engine.clock.now(), title="Trip")
    for bad in ("", "   ", "x" * (MAX_TITLE_CHARS + 1)):
        with pytest.raises(ChatError, match="Chat title"):
            engine.chats.rename("ana", chat.thread, bad)
    assert engine.chats.get("ana", chat.thread).title == "Trip"
    renamed = engine.chats.rename("ana", chat.thread, "  Lisbon   trip ")
    assert renamed.title == "Lisbon trip" and renamed.titled_by == "user"
    _say(engine, chat.thread, "A first question does not replace a given title")
    assert engine.chats.get("ana", chat.thread).title == "Lisbon trip"


def test_search_finds_every_word_across_chats_but_not_in_the_trash(engine) -> None:
    a = engine.chats.create("ana", engine.clock.now())
    b = engine.chats.create("ana", engine.clock.now())
    _say(engine, a.thread, "The invoice from Kestrel Print is overdue")
    _say(engine, b.thread, "Kestrel Print sent a new quote today")
    hits = engine.chats.search("ana", "kestrel  PRINT")
    assert {h.thread for h in hits if h.role == "user"} == {a.thread, b.thread}
    assert [h.thread for h in engine.chats.search("ana", "kestrel overdue")] == [
        a.thread
    ]
    assert engine.chats.search("ana", "nowhere-said") == []
    engine.chats.trash("ana", a.thread, engine.clock.now())
    assert a.thread not in {h.thread for h in engine.chats.search("ana", "kestrel")}
    assert engine.chats.search("bo", "kestrel") == []


@pytest.mark.parametrize("query", ["", "   ", "k" * 10_000])
def test_search_refuses_blank_and_overlong_queries(engine, query: str) -> None:
    with pytest.raises(ChatError, match="Search"):
        engine.chats.search("ana", query)
    assert len("k" * 10_000) > MAX_QUERY_CHARS


def test_trash_hides_a_chat_and_restore_brings_it_back_whole(engine) -> None:
    chat = engine.chats.create("ana", engine.clock.now())
    _say(engine, chat.thread, "My locker code is 4471")
    before = engine.transcript.messages("ana", chat.thread)
    moved = engine.chats.trash("ana", chat.thread, engine.clock.now())
    assert chat.thread not in [c.thread for c in engine.chats.chats("ana")]
    assert [c.thread for c in engine.chats.chats("ana", trashed=True)] == [chat.thread]
    assert moved.restorable_until(timedelta(days=30)) == moved.trashed_at + timedelta(
        days=30
    )
    back = engine.chats.restore("ana", chat.thread)
    assert back.trashed_at is None and back.title == moved.title
    assert engine.transcript.messages("ana", chat.thread) == before
    with pytest.raises(ChatError, match="not in the trash"):
        engine.chats.restore("ana", chat.thread)
    with pytest.raises(UnknownChatError, match="No chat with id"):
        engine.chats.trash("ana", "chat-nope", engine.clock.now())


def test_chats_are_due_for_purge_only_after_the_trash_window(engine) -> None:
    chat = engine.chats.create("ana", engine.clock.now())
    engine.chats.trash("ana", chat.thread, engine.clock.now())
    keep = timedelta(days=30)
    assert engine.chats.due("ana", engine.clock.now() + keep - timedelta(1), keep) == []
    [due] = engine.chats.due("ana", engine.clock.now() + keep, keep)
    assert due.thread == chat.thread


def test_the_catalog_survives_a_reopen(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with MemoryEngine(folder, clock=ManualClock(T0)) as engine:
        chat = engine.chats.create("ana", T0, title="Kept")
        engine.chats.trash("ana", chat.thread, T0)
    with MemoryEngine(folder, clock=ManualClock(T0)) as engine:
        [held] = engine.chats.chats("ana", trashed=True)
        assert (held.title, held.trashed_at) == ("Kept", T0)


def test_a_purge_retitles_from_what_is_left_and_drops_emptied_chats(
    engine,
) -> None:
    kept = engine.chats.create("ana", engine.clock.now())
    emptied = engine.chats.create("ana", engine.clock.now())
    named = engine.chats.create("ana", engine.clock.now(), title="Mine")
    _say(engine, kept.thread, "secret plan alpha")
    _say(engine, kept.thread, "second question stays")
    _say(engine, emptied.thread, "gone entirely")
    db: SqliteDatabase = engine.jobs.db
    with db.write() as conn:
        conn.execute(
            "DELETE FROM messages WHERE tenant = 'ana' AND (content = ? OR thread = ?)",
            ("secret plan alpha", emptied.thread),
        )
        changed = retitle_after_purge(conn, "ana", everything=False)
    assert changed == 2
    titles = {c.thread: c.title for c in engine.chats.chats("ana")}
    assert titles[kept.thread] == "second question stays"
    assert emptied.thread not in titles and titles[named.thread] == "Mine"
    with db.write() as conn:
        conn.execute("DELETE FROM messages WHERE tenant = 'ana'")
        assert retitle_after_purge(conn, "ana", everything=True) == 2
    assert engine.chats.chats("ana") == []


def test_auto_titles_cut_at_a_word() -> None:
    assert auto_title("  short   one ") == "short one"
    long = "word " * 30
    title = auto_title(long)
    assert title.endswith("…") and len(title) <= 49 and "  " not in title
    assert auto_title("") == "New chat"


def test_a_catalog_alone_opens_on_a_fresh_database(tmp_path: Path) -> None:
    from memory_lab.jobs.ledger import JobLedger
    from memory_lab.stores.memory import InMemoryTranscriptStore

    ledger = JobLedger(tmp_path / "m.sqlite3")
    catalog = ChatCatalog(ledger.db, InMemoryTranscriptStore())
    assert catalog.chats("ana") == []
