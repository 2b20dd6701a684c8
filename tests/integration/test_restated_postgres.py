"""Restated spans of replies on Postgres: kept by the transcript, and added to a
namespace made before they existed by its numbered migration."""

from __future__ import annotations

import uuid

import psycopg
import pytest

from memory_lab.clock import ManualClock
from memory_lab.engine import MemoryEngine
from memory_lab.stores import SqlTranscriptStore
from memory_lab.stores.locations import StoreSpec, namespace_key, store_url
from memory_lab.stores.postgres_db import MIGRATIONS, SCHEMA_VERSION, PostgresDatabase
from memory_lab.types import Message
from tests.helpers import T0, msg

pytestmark = pytest.mark.xdist_group("servers")


def _namespace() -> str:
    return f"pg_{uuid.uuid4().hex[:12]}"


def test_a_chat_reply_keeps_its_marks_in_postgres(postgres_url):
    from memory_lab.embeddings import default_embedder

    spec = StoreSpec(store=postgres_url, namespace=_namespace())
    engine = MemoryEngine(
        None, clock=ManualClock(T0), stores=spec, embedder=default_embedder()
    )
    try:
        engine.chat("ana", "I live in Porto.")
        answered = engine.chat("ana", "Where do I live?").reply
        engine.flush()
        [*_, last] = engine.transcript.messages("ana")
    finally:
        engine.close()
    assert last.role == "assistant" and last.content == answered
    assert "Porto" in answered and last.restated == [(0, len(answered))]
    assert last.memory_text == ""


def test_a_namespace_from_before_the_marks_is_migrated_and_reads_old_rows(
    postgres_url,
):
    adds = next(
        n for n, step in enumerate(MIGRATIONS, 1) if any("restated" in s for s in step)
    )
    ns = _namespace()
    schema = namespace_key(ns)
    # The namespace as the code before the marks left it, with one turn in it.
    with psycopg.connect(store_url(postgres_url), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path TO "{schema}"')
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for version, step in enumerate(MIGRATIONS[: adds - 1], 1):
            for statement in step:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (%s)", (version,))
        conn.execute(
            "INSERT INTO messages (tenant, seq, id, thread, session, role, content,"
            " timestamp, speaker) VALUES ('ana', 0, 'old', 'main', 's1', 'user',"
            " 'hello', %s, '')",
            (T0.isoformat(),),
        )
    db = PostgresDatabase(postgres_url, ns)
    try:
        assert db.version() == SCHEMA_VERSION
        store = SqlTranscriptStore(db)
        reply = Message.model_validate(
            {
                **msg(
                    1, "You live in Porto. Try Serralves.", role="assistant"
                ).model_dump(),
                "tenant": "ana",
                "restated": [(0, 18)],
            }
        )
        store.append("ana", "main", [reply])
        old, new = store.messages("ana")
    finally:
        db.close()
    assert old.content == "hello" and old.restated == []
    assert new.restated == [(0, 18)] and new.memory_text == "Try Serralves."
