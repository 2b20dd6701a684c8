"""A tenant's chats: titles, order, search, and a trash with a restore window.

A chat is a thread of the transcript. Memory is per tenant across its chats (a
fact said in one is recalled in any other), so the catalog holds only what a
person needs to find a chat again: its title, when it began, whether it is in
the trash. Threads that exist without a catalog row (a replayed or ingested
conversation, a chat from before the catalog) are listed too, titled from their
first user turn.

Trashing hides a chat from the list and from search; its turns and what memory
learned from them stay until the trash is emptied, so a restore within the
window gives back exactly what was there. Emptying is a purge of the chat
(`memory_lab.owner.purge`), which needs the data folder closed: `due` names the
chats whose window has passed, for the purge to take.

The statements are `stores.sql_chats`'s, and a purge's removal of rows
`stores.sql_erase`'s.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.stores import sql_chats, sql_erase, sql_ledger
from memory_lab.stores.base import TranscriptStore
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import encode_time

MAX_TITLE_CHARS = 80
"""A title longer than this is refused (a list row shows about this much)."""
TITLE_WORDS_CHARS = 48
"""An automatic title is the first user turn cut to about this many characters."""
MAX_QUERY_CHARS = 200
"""A search longer than this is refused: no chat line is found by a paragraph."""
MAX_HITS = 50
"""Search results shown at most, newest first."""
TRASH_DAYS = 30
"""How long a trashed chat can be restored before it is due to be purged."""
UNTITLED = "New chat"


class ChatError(MemoryLabError):
    """A chat request the catalog refuses; the message names what is wrong."""


class UnknownChatError(ChatError):
    """No chat of this tenant has that id (it may belong to another tenant)."""


@dataclass(frozen=True)
class Chat:
    """One chat as the list shows it."""

    thread: str
    title: str
    titled_by: str
    """`user` (renamed), `model` (a model's title), `first question` (its first
    user turn) or `none` (no turn yet)."""
    created_at: datetime
    trashed_at: datetime | None = None

    def restorable_until(self, keep: timedelta) -> datetime | None:
        """When a trashed chat stops being restorable."""
        return None if self.trashed_at is None else self.trashed_at + keep


@dataclass(frozen=True)
class SearchHit:
    """A turn whose text holds the searched words."""

    thread: str
    title: str
    message_id: str
    role: str
    snippet: str
    at: datetime


def auto_title(text: str) -> str:
    """The first line of a turn, cut at a word near `TITLE_WORDS_CHARS`."""
    line = " ".join(text.split())
    if len(line) <= TITLE_WORDS_CHARS:
        return line or UNTITLED
    cut = line[:TITLE_WORDS_CHARS].rsplit(" ", 1)[0] or line[:TITLE_WORDS_CHARS]
    return cut.rstrip(",;:.-") + "…"


def valid_title(title: str | None) -> str:
    """A usable title, its spaces collapsed.

    Raises:
        ChatError: when it is blank or longer than `MAX_TITLE_CHARS`.
    """
    return _one_line(
        title, "Chat title", "enter a name (it cannot be empty)", MAX_TITLE_CHARS
    )


def valid_query(query: str | None) -> str:
    """A usable search, its spaces collapsed.

    Raises:
        ChatError: when it is blank or longer than `MAX_QUERY_CHARS`.
    """
    return _one_line(
        query,
        "Search",
        "enter a word or phrase to look for",
        MAX_QUERY_CHARS,
        "; search for a word or a short phrase",
    )


def _one_line(
    raw: str | None, control: str, blank: str, limit: int, advice: str = ""
) -> str:
    text = " ".join((raw or "").split())
    if not text:
        raise ChatError(f"{control}: {blank}")
    if len(text) > limit:
        raise ChatError(
            f"{control}: at most {limit} characters (got {len(text)}){advice}"
        )
    return text


def new_thread_id() -> str:
    """A fresh chat id, safe in a URL."""
    return "chat-" + secrets.token_hex(4)


class ChatCatalog:
    """The chats of every tenant in one database (SQLite file or Postgres schema).

    `database` is the engine's database, whose `memory_threads` table (the job
    ledger's) names every thread memory has seen; `transcript` gives their turns.
    """

    def __init__(self, database: Any, transcript: TranscriptStore) -> None:
        self._db = database_at(database)
        self._transcript = transcript

    # --- reads ---------------------------------------------------------------

    def chats(self, tenant: str, *, trashed: bool = False) -> list[Chat]:
        """The tenant's chats (or its trash), newest first."""
        tenant = require_tenant(tenant)
        rows = self._rows(tenant)
        for thread in self._threads(tenant):
            if thread not in rows and (found := self._untracked(tenant, thread)):
                rows[thread] = found
        chosen = [c for c in rows.values() if (c.trashed_at is not None) == trashed]
        key = (lambda c: c.trashed_at) if trashed else (lambda c: c.created_at)
        return sorted(chosen, key=lambda c: (key(c), c.thread), reverse=True)

    def get(self, tenant: str, thread: str) -> Chat:
        """One chat, trashed or not.

        Raises:
            UnknownChatError: when the tenant has no chat of that id.
        """
        tenant = require_tenant(tenant)
        chat = self._rows(tenant).get(thread)
        if chat is None and thread in self._threads(tenant):
            chat = self._untracked(tenant, thread)
        if chat is None:
            shown = thread if len(thread) <= 40 else thread[:40] + "…"
            raise UnknownChatError(f"No chat with id {shown!r} in this memory")
        return chat

    def search(self, tenant: str, query: str) -> list[SearchHit]:
        """Turns of the tenant's chats (not the trash) holding every searched word.

        Raises:
            ChatError: for a blank or overlong search.
        """
        words = valid_query(query).casefold().split()
        hits: list[SearchHit] = []
        for chat in self.chats(tenant):
            for msg in self._transcript.messages(tenant, chat.thread):
                text = msg.content.casefold()
                if all(w in text for w in words):
                    hits.append(
                        SearchHit(
                            chat.thread,
                            chat.title,
                            msg.id,
                            msg.role,
                            _snippet(msg.content, words[0]),
                            msg.timestamp,
                        )
                    )
        hits.sort(key=lambda h: (h.at, h.message_id), reverse=True)
        return hits[:MAX_HITS]

    def due(self, tenant: str, now: datetime, keep: timedelta) -> list[Chat]:
        """Trashed chats whose restore window has passed: due to be purged."""
        return [
            c
            for c in self.chats(tenant, trashed=True)
            if c.trashed_at is not None and c.trashed_at + keep <= now
        ]

    # --- writes --------------------------------------------------------------

    def create(self, tenant: str, now: datetime, title: str | None = None) -> Chat:
        """A new, empty chat (titled later from its first question, unless named)."""
        tenant = require_tenant(tenant)
        chat = Chat(
            thread=new_thread_id(),
            title=valid_title(title) if title is not None else UNTITLED,
            titled_by="user" if title is not None else "none",
            created_at=now,
        )
        self._put(tenant, chat)
        return chat

    def note_turn(self, tenant: str, thread: str, text: str, now: datetime) -> Chat:
        """Record a user turn: the chat exists, and an untitled one takes its title."""
        tenant = require_tenant(tenant)
        chat = self._rows(tenant).get(thread)
        if chat is None:
            chat = Chat(thread, auto_title(text), "first question", now)
        elif chat.titled_by == "none":
            chat = Chat(thread, auto_title(text), "first question", chat.created_at)
        else:
            return chat
        self._put(tenant, chat)
        return chat

    def name_by_model(self, tenant: str, thread: str, title: str) -> Chat:
        """A model's title for a chat; a title the user gave is kept.

        Raises:
            ChatError: for a blank or overlong title.
            UnknownChatError: for a chat the tenant does not have.
        """
        name = valid_title(title)
        chat = self.get(tenant, thread)
        if chat.titled_by == "user":
            return chat
        return self._retitle(tenant, chat, name, "model")

    def rename(self, tenant: str, thread: str, title: str) -> Chat:
        """Give a chat a title of the user's.

        Raises:
            ChatError: for a blank or overlong title.
            UnknownChatError: for a chat the tenant does not have.
        """
        name = valid_title(title)
        return self._retitle(tenant, self.get(tenant, thread), name, "user")

    def trash(self, tenant: str, thread: str, now: datetime) -> Chat:
        """Move a chat to the trash (a trashed chat stays where it is)."""
        chat = self.get(tenant, thread)
        if chat.trashed_at is not None:
            return chat
        moved = Chat(thread, chat.title, chat.titled_by, chat.created_at, now)
        self._put(tenant, moved)
        return moved

    def restore(self, tenant: str, thread: str) -> Chat:
        """Bring a chat back from the trash.

        Raises:
            ChatError: when the chat is not in the trash.
            UnknownChatError: for a chat the tenant does not have.
        """
        chat = self.get(tenant, thread)
        if chat.trashed_at is None:
            raise ChatError(f"Chat {chat.title!r} is not in the trash")
        back = Chat(thread, chat.title, chat.titled_by, chat.created_at, None)
        self._put(tenant, back)
        return back

    # --- storage -------------------------------------------------------------

    def _retitle(self, tenant: str, chat: Chat, title: str, by: str) -> Chat:
        """The chat under a new title, stored."""
        renamed = Chat(chat.thread, title, by, chat.created_at, chat.trashed_at)
        self._put(tenant, renamed)
        return renamed

    def _put(self, tenant: str, chat: Chat) -> None:
        row = (
            chat.thread,
            chat.title,
            chat.titled_by,
            encode_time(chat.created_at),
            encode_time(chat.trashed_at),
        )
        with self._db.write() as conn:
            sql_chats.put_chat(conn, tenant, row)

    def _rows(self, tenant: str) -> dict[str, Chat]:
        with self._db.read() as conn:
            rows = sql_chats.chat_rows(conn, tenant)
        return {
            r["thread"]: Chat(
                r["thread"],
                r["title"],
                r["titled_by"],
                datetime.fromisoformat(r["created_at"]),
                datetime.fromisoformat(r["trashed_at"]) if r["trashed_at"] else None,
            )
            for r in rows
        }

    def _threads(self, tenant: str) -> Sequence[str]:
        with self._db.read() as conn:
            return sql_ledger.marked_threads(conn, tenant)

    def _untracked(self, tenant: str, thread: str) -> Chat | None:
        """A thread with turns but no row, titled by its first user turn."""
        turns = self._transcript.messages(tenant, thread)
        if not turns:
            return None
        first = next((m for m in turns if m.role == "user"), turns[0])
        return Chat(
            thread, auto_title(first.content), "first question", turns[0].timestamp
        )


def _snippet(text: str, word: str, width: int = 120) -> str:
    """The part of `text` around the first place `word` occurs."""
    flat = " ".join(text.split())
    at = max(flat.casefold().find(word), 0)
    start = max(at - width // 3, 0)
    piece = flat[start : start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")


def retitle_after_purge(
    conn: Any, tenant: str, *, everything: bool, chat: str | None = None
) -> int:
    """Bring the catalog in line with a purged transcript, in the purge's transaction.

    A title taken from a first question (or made by a model from it) may hold
    that question's words, so it is taken again from the first user turn left,
    and a chat with no turn left is removed; titles the user gave stay, except
    on the purged `chat` itself once it has no turn left. A purge of everything
    removes them all. Returns the rows removed or retitled.
    """
    if everything:
        return sql_erase.delete_chats(conn, tenant)
    changed = 0
    if chat is not None and not sql_chats.has_turns(conn, tenant, chat):
        changed += sql_erase.delete_chats(conn, tenant, chat)
    for row in sql_chats.titled_by(conn, tenant, ("first question", "model")):
        first = sql_chats.first_user_turn(conn, tenant, row["thread"])
        if first is None:
            changed += sql_erase.delete_chats(conn, tenant, row["thread"])
        elif (auto_title(first), "first question") != (
            row["title"],
            row["titled_by"],
        ):
            changed += sql_chats.retitle_chat(
                conn, tenant, row["thread"], auto_title(first), "first question"
            )
    return changed
