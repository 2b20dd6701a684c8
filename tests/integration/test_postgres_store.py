"""The Postgres database beneath the SQL stores: migrations, namespaces, tenancy,
and two engines (as two processes would) sharing one namespace."""

from __future__ import annotations

import uuid

import pytest

from memory_lab.clock import ManualClock
from memory_lab.engine import MemoryEngine
from memory_lab.errors import TenantRequiredError
from memory_lab.jobs.ledger import Job, JobLedger
from memory_lab.stores import SqlTranscriptStore
from memory_lab.stores.locations import StoreSpec
from memory_lab.stores.postgres_db import (
    SCHEMA_VERSION,
    PostgresDatabase,
    SchemaVersionError,
)
from tests.helpers import T0, msg

pytestmark = pytest.mark.xdist_group("servers")


def _namespace() -> str:
    return f"pg_{uuid.uuid4().hex[:12]}"


def test_a_new_namespace_is_migrated_once_and_reopened_as_is(postgres_url):
    ns = _namespace()
    first = PostgresDatabase(postgres_url, ns)
    assert first.version() == SCHEMA_VERSION
    SqlTranscriptStore(first).append("a", "t1", [msg(1, tenant="a")])
    second = PostgresDatabase(postgres_url, ns)
    assert second.version() == SCHEMA_VERSION
    assert SqlTranscriptStore(second).count("a") == 1
    with second.read() as conn:
        rows = conn.execute("SELECT version FROM schema_version").fetchall()
    assert [r["version"] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
    first.close()
    second.close()


def test_a_schema_newer_than_the_code_is_refused(postgres_url):
    ns = _namespace()
    db = PostgresDatabase(postgres_url, ns)
    with db.write() as conn:
        conn.execute(
            "INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,)
        )
    db.close()
    with pytest.raises(SchemaVersionError, match="upgrade"):
        PostgresDatabase(postgres_url, ns)


def test_namespaces_keep_their_rows_apart(postgres_url):
    one = SqlTranscriptStore(PostgresDatabase(postgres_url, _namespace()))
    two = SqlTranscriptStore(PostgresDatabase(postgres_url, _namespace()))
    one.append("a", "t1", [msg(1, tenant="a")])
    assert two.count("a") == 0
    one.close()
    two.close()


def test_the_ledger_refuses_a_missing_tenant_before_any_sql(postgres_url):
    db = PostgresDatabase(postgres_url, _namespace())
    ledger = JobLedger(db)
    ghost = Job(0, "", "t1", "compress", 0, 3, "A", T0)
    calls = (
        lambda: ledger.marks("", "t1"),
        lambda: ledger.add_jobs(" ", "t1", [("compress", 0, 3, "A")], T0),
        lambda: ledger.claim(ghost),
        lambda: ledger.finish(ghost),
        lambda: ledger.record_failure(ghost, "boom"),
        lambda: ledger.committed_ids("", ["e1"]),
        lambda: ledger.episodes(""),
    )
    db.close()  # any SQL would now fail with another error
    for call in calls:
        with pytest.raises(TenantRequiredError):
            call()


def test_two_engines_on_one_namespace_share_the_store(postgres_url):
    from memory_lab.embeddings import default_embedder

    spec = StoreSpec(store=postgres_url, namespace=_namespace())
    embedder = default_embedder()
    engines = [
        MemoryEngine(None, clock=ManualClock(T0), stores=spec, embedder=embedder)
        for _ in range(2)
    ]
    try:
        engines[0].ingest("t1", [msg(i) for i in range(3)])
        engines[1].ingest("t1", [msg(i) for i in range(3, 5)])
        for engine in engines:
            engine.flush()
        seqs = [m.seq for m in engines[0].transcript.messages("t1")]
        assert seqs == list(range(5))
        assert engines[1].transcript.count("t1") == 5
    finally:
        for engine in engines:
            engine.close()
