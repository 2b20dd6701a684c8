"""The transcript in SQL: every ingested message, append-only, numbered."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Unpack

from memory_lab.errors import require_tenant
from memory_lab.stores.base import Database, SeqSpan, seq_bounds
from memory_lab.stores.databases import database_at
from memory_lab.stores.sqlite_db import decode_json, encode_json, encode_time
from memory_lab.stores.tenancy import require_owned
from memory_lab.types import Message

_COLUMNS = "tenant, seq, id, session, role, content, timestamp, speaker, restated"
_FIELDS = tuple(_COLUMNS.split(", "))

ROWS_DECODED_KEPT = 16_384
"""Decoded rows remembered per store. Every turn reads the whole window again (to
decide the triggers and to show it); validating each row anew was most of that
read's cost, and grew with the window."""


class SqlTranscriptStore:
    """Append-only transcript; `seq` counts up from 0 within each tenant.

    The (tenant, seq) and (tenant, id) unique keys make a lost race visible as an
    error rather than as a duplicated or renumbered message.
    """

    def __init__(self, path: str | Path | Database) -> None:
        """Open the store in `path` (a file, ":memory:", or a shared database)."""
        self._db = database_at(path)
        # Keyed by every column's stored value, so a row that changed in any way
        # is decoded afresh; a `Message` is frozen, so one can be handed out twice.
        self._decoded = functools.lru_cache(maxsize=ROWS_DECODED_KEPT)(_decode)

    def append(
        self, tenant: str, thread: str, messages: Sequence[Message]
    ) -> list[Message]:
        """Store new messages in order; already stored ids come back as stored."""
        tenant = require_owned(tenant, messages)
        out: list[Message] = []
        with self._db.write() as conn:
            next_seq = conn.execute(
                "SELECT COALESCE(MAX(seq), -1) + 1 FROM messages WHERE tenant = ?",
                (tenant,),
            ).fetchone()[0]
            for message in messages:
                row = conn.execute(
                    f"SELECT {_COLUMNS} FROM messages WHERE tenant = ? AND id = ?",
                    (tenant, message.id),
                ).fetchone()
                if row is not None:
                    out.append(self._decoded(tuple(row)))
                    continue
                stored = message.model_copy(update={"seq": next_seq})
                conn.execute(
                    "INSERT INTO messages (tenant, seq, id, thread, session, role,"
                    " content, timestamp, speaker, restated)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        tenant,
                        next_seq,
                        stored.id,
                        thread,
                        stored.session,
                        stored.role,
                        stored.content,
                        encode_time(stored.timestamp),
                        stored.speaker,
                        encode_json(stored.restated),
                    ),
                )
                next_seq += 1
                out.append(stored)
        return out

    def messages(
        self, tenant: str, thread: str | None = None, **span: Unpack[SeqSpan]
    ) -> list[Message]:
        """One range scan of the (tenant, seq) key, or of (tenant, thread, seq)."""
        tenant = require_tenant(tenant)
        first_seq, last_seq = seq_bounds(span)
        sql = f"SELECT {_COLUMNS} FROM messages WHERE tenant = ? AND seq >= ?"
        params: list[object] = [tenant, first_seq]
        if thread is not None:
            sql += " AND thread = ?"
            params.append(thread)
        if last_seq is not None:
            sql += " AND seq <= ?"
            params.append(last_seq)
        with self._db.read() as conn:
            rows = conn.execute(sql + " ORDER BY seq", params).fetchall()
        return [self._decoded(tuple(row)) for row in rows]

    def count(self, tenant: str, thread: str | None = None) -> int:
        """How many messages the tenant (or one of its threads) has."""
        tenant = require_tenant(tenant)
        sql = "SELECT COUNT(*) FROM messages WHERE tenant = ?"
        params: list[object] = [tenant]
        if thread is not None:
            sql += " AND thread = ?"
            params.append(thread)
        with self._db.read() as conn:
            return int(conn.execute(sql, params).fetchone()[0])

    def close(self) -> None:
        """Release the database connection and forget the decoded rows."""
        self._decoded.cache_clear()
        self._db.close()


def _decode(values: tuple) -> Message:
    """The message a row's values (in `_COLUMNS` order) hold."""
    row = dict(zip(_FIELDS, values, strict=True))
    return Message.model_validate({**row, "restated": decode_json(row["restated"])})
