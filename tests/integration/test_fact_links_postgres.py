"""Postgres: the migration step that adds fact bodies and links, on a namespace
made by the code before it, keeps the rows and makes links work."""

from __future__ import annotations

import uuid

import pytest

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.facts.memory import FactMemory
from memory_lab.stores import postgres_db
from memory_lab.stores.postgres_db import PostgresDatabase
from memory_lab.stores.sql_events import SqlEventLog
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from tests.helpers import T0, cand

pytestmark = pytest.mark.xdist_group("servers")

STEP = next(
    n
    for n, statements in enumerate(postgres_db.MIGRATIONS, 1)
    if any("CREATE TABLE fact_links" in s for s in statements)
)
"""The version that brings bodies and links."""


def test_a_namespace_from_before_links_is_migrated_and_keeps_its_facts(
    postgres_url, monkeypatch
):
    ns = f"pg_{uuid.uuid4().hex[:12]}"
    with monkeypatch.context() as older:
        older.setattr(postgres_db, "SCHEMA_VERSION", STEP - 1)
        old = PostgresDatabase(postgres_url, ns)
        assert old.version() == STEP - 1
        with old.write() as conn:
            columns = {
                r["column_name"]
                for r in conn.execute(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_schema = ? AND table_name = 'facts'",
                    (old.schema,),
                ).fetchall()
            }
            assert "body" not in columns
            conn.execute(
                "INSERT INTO facts (tenant, id, subject, category, key, value,"
                " confidence, importance, source, session, turn_ids, evidence,"
                " valid_from, last_confirmed_at, created_at, created_key, status)"
                " VALUES ('a', 'old', 'user', 'decision', 'database', 'Postgres',"
                " 0.9, 0.5, 'extracted', 's1', '[]', 'we chose Postgres', ?, ?, ?,"
                " 0, 'active')",
                (T0.isoformat(),) * 3,
            )
        old.close()

    db = PostgresDatabase(postgres_url, ns)
    assert db.version() == postgres_db.SCHEMA_VERSION >= STEP
    store = SqlFactStore(db)
    kept = store.get("a", "old")
    assert kept.body == "" and kept.detail == "we chose Postgres"
    facts = FactMemory(
        store,
        SqlEventLog(db),
        ManualClock(T0),
        FactConfig(),
        links=SqlFactLinkStore(db),
    )
    new = facts.write("a", cand("team_skill", "SQL", turn="m2")).refs[0]
    made = facts.link("a", "caused_by", "old", new)
    assert [k.id for k in facts.links("a", "old")] == [made.refs[0]]
    with pytest.raises(Exception, match="no fact 'old' for tenant 'b'"):
        facts.link("b", "relates_to", "old", new)
    db.close()
