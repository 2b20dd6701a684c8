"""Databases written before the one schema source open with every row, and new
ones get the layout the old code made, on SQLite and on Postgres."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import pytest

from memory_lab.jobs.ledger import JobLedger
from memory_lab.owner.tombstones import PurgeLog
from memory_lab.sessions.store import SqlSessionStore
from memory_lab.stores.postgres_db import PostgresDatabase
from memory_lab.stores.schema import LATEST, STEPS, TABLES, CreateTable
from memory_lab.stores.sql_events import SqlEventLog
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.sql_transcript import SqlTranscriptStore
from memory_lab.stores.sqlite_db import SqliteDatabase
from tests.helpers import T0
from tests.integration.legacy_schema import OLD_POSTGRES_STEPS, OLD_SQLITE

AT = T0.isoformat()

# The layout the old code made: the steps it ran. Steps since add tables of
# their own, which an old database gains when it is opened.
OLD_VERSION = 8
OLD_TABLES = tuple(
    op.table.name
    for step in STEPS[:OLD_VERSION]
    for op in step
    if isinstance(op, CreateTable)
)

# One row in each table, as the stores before wrote them.
ROWS = (
    "INSERT INTO messages (tenant, seq, id, thread, session, role, content,"
    " timestamp, speaker) VALUES ('ana', 0, 'm0', 'main', 's1', 'user', 'hello',"
    f" '{AT}', '')",
    "INSERT INTO facts (tenant, id, subject, category, key, value, confidence,"
    " importance, source, session, turn_ids, evidence, valid_from, valid_until,"
    " last_confirmed_at, created_at, created_key, status)"
    " VALUES ('ana', 'f1', 'user', 'location', 'city', 'Porto', 0.9, 0.5,"
    f" 'extracted', 's1', '[]', 'I live in Porto', '{AT}', '{AT}', '{AT}', '{AT}',"
    " 0, 'superseded')",
    "INSERT INTO events (tenant, id, at, at_key, kind, detail, refs)"
    f" VALUES ('ana', 'e1', '{AT}', 0, 'fact_added', 'city', '[]')",
    "INSERT INTO fact_links (tenant, id, type, source, target, origin, created_at,"
    f" created_key) VALUES ('ana', 'l1', 'relates_to', 'f1', 'f2', 'user', '{AT}', 0)",
    "INSERT INTO memory_threads VALUES ('ana', 'main', 0, 0, -1, -1, -1, '', 's1')",
    "INSERT INTO memory_jobs (tenant, thread, kind, first_seq, last_seq, trigger,"
    f" asked_at, status) VALUES ('ana', 'main', 'compress', 0, 0, 'A', '{AT}',"
    " 'pending')",
    "INSERT INTO memory_episodes VALUES ('ana', 'ep1', 'main', 0, 0, '{}')",
    f"INSERT INTO chats VALUES ('ana', 'main', 'Porto', 'auto', '{AT}', NULL)",
    f"INSERT INTO trash VALUES ('ana', 'fact', 'f9', 'old fact', '{AT}')",
    "INSERT INTO purges (tenant, selection, requested_by, asked_at, status, counts)"
    f" VALUES ('ana', '{{\"fact\": \"f8\"}}', 'owner', '{AT}', 'done', '{{}}')",
    "INSERT INTO memory_sessions VALUES ('ana', 'main', 's1', 'open',"
    f" '{AT}', '{AT}', '{AT}', NULL, '')",
)

# The layout of messages and facts before replies were marked and facts had an
# end of belief or a body: their columns were added to files like this one.
OLDEST_SQLITE = (
    "CREATE TABLE messages (tenant TEXT NOT NULL, seq INTEGER NOT NULL,"
    " id TEXT NOT NULL, thread TEXT NOT NULL, session TEXT NOT NULL,"
    " role TEXT NOT NULL, content TEXT NOT NULL, timestamp TEXT NOT NULL,"
    " speaker TEXT NOT NULL, PRIMARY KEY (tenant, seq), UNIQUE (tenant, id))",
    "CREATE TABLE facts (tenant TEXT NOT NULL, id TEXT NOT NULL,"
    " subject TEXT NOT NULL, category TEXT NOT NULL, key TEXT NOT NULL,"
    " value TEXT NOT NULL, confidence REAL NOT NULL, importance REAL NOT NULL,"
    " source TEXT NOT NULL, session TEXT NOT NULL, turn_ids TEXT NOT NULL,"
    " evidence TEXT NOT NULL, valid_from TEXT NOT NULL, valid_until TEXT,"
    " superseded_by TEXT, expires_at TEXT, last_confirmed_at TEXT NOT NULL,"
    " created_at TEXT NOT NULL, created_key INTEGER NOT NULL, status TEXT NOT NULL,"
    " conflicts_with TEXT, PRIMARY KEY (tenant, id))",
)


def _old_sqlite_file(path: Path, ddl=OLD_SQLITE, rows=ROWS) -> None:
    with sqlite3.connect(path) as conn:
        for statement in (*ddl, *rows):
            conn.execute(statement)
    conn.close()


def _counts(conn) -> dict[str, int]:
    return {
        name: conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
        for name in OLD_TABLES
    }


def _read_back(db) -> None:
    """Every store reads the rows the old code wrote."""
    [message] = SqlTranscriptStore(db).messages("ana")
    assert message.content == "hello" and message.restated == []
    fact = SqlFactStore(db).get("ana", "f1")
    assert fact is not None and fact.value == "Porto" and fact.status == "superseded"
    assert [e.id for e in SqlEventLog(db).events("ana")] == ["e1"]
    assert [k.id for k in SqlFactLinkStore(db).links("ana", "f1")] == ["l1"]
    ledger = JobLedger(db)
    assert ledger.marks("ana", "main").decided_upto == 0
    assert [j.kind for j in ledger.pending()] == ["compress"]
    assert SqlSessionStore(db).get("ana", "main").session == "s1"
    assert [t.status for t in PurgeLog(db).tombstones("ana")] == ["done"]


# --- SQLite ---------------------------------------------------------------------


def test_a_sqlite_file_of_the_old_stores_opens_with_every_row(tmp_path):
    path = tmp_path / "memory.sqlite3"
    _old_sqlite_file(path)
    db = SqliteDatabase(path)
    with db.read() as conn:
        assert set(_counts(conn).values()) == {1}
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_version")]
    assert versions == list(range(1, LATEST + 1))
    _read_back(db)
    db.close()
    # Opened again, it is at the latest version and nothing runs twice.
    again = SqliteDatabase(path)
    with again.read() as conn:
        assert (
            conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == LATEST
        )
    again.close()


def test_an_older_sqlite_file_gets_the_columns_added_since(tmp_path):
    path = tmp_path / "memory.sqlite3"
    _old_sqlite_file(path, OLDEST_SQLITE, ROWS[:2])
    SqliteDatabase(path).close()
    fact = SqlFactStore(path).get("ana", "f1")
    assert fact is not None and fact.body == "" and fact.detail == "I live in Porto"
    # Ended before record-time ends existed: ended on the one axis it had.
    assert fact.ended_at == fact.valid_until == T0
    [message] = SqlTranscriptStore(path).messages("ana")
    assert message.restated == []


def _sqlite_layout(
    path: Path, names: tuple[str, ...] = OLD_TABLES
) -> dict[str, object]:
    """Each table's columns, keys and indexes, as SQLite reports them."""
    layout: dict[str, object] = {}
    with sqlite3.connect(path) as conn:
        for name in names:
            columns = [tuple(r[1:]) for r in conn.execute(f"PRAGMA table_info({name})")]
            indexes = sorted(
                (
                    r[1],
                    r[2],
                    r[3],
                    tuple(i[2] for i in conn.execute(f"PRAGMA index_info('{r[1]}')")),
                )
                for r in conn.execute(f"PRAGMA index_list({name})")
            )
            layout[name] = (columns, indexes)
    conn.close()
    return layout


def test_a_new_sqlite_file_has_the_layout_the_old_stores_made(tmp_path):
    old, new = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    _old_sqlite_file(old, rows=())
    SqliteDatabase(new).close()
    before, after = _sqlite_layout(old), _sqlite_layout(new)
    assert set(before) == set(after)
    for table in before:
        (old_columns, old_indexes), (new_columns, new_indexes) = (
            before[table],
            after[table],
        )
        assert new_indexes == old_indexes, table
        if table == "facts":
            # Replayed, `body` comes after `ended_at`, as in every file made
            # before bodies; no statement depends on a column's position.
            assert sorted(new_columns) == sorted(old_columns)
        else:
            assert new_columns == old_columns, table
    # An upgraded old file ends up with the same layout as a new one.
    SqliteDatabase(old).close()
    names = tuple(t.name for t in TABLES)
    upgraded, fresh = _sqlite_layout(old, names), _sqlite_layout(new, names)
    assert {k: v for k, v in upgraded.items() if k != "facts"} == {
        k: v for k, v in fresh.items() if k != "facts"
    }


# --- Postgres -------------------------------------------------------------------


def _old_namespace(url: str, rows=ROWS) -> str:
    """A namespace the old code migrated to version 8, with `rows` in it."""
    import psycopg

    from memory_lab.stores.locations import namespace_key, store_url

    schema = namespace_key(f"pg_{uuid.uuid4().hex[:12]}")
    with psycopg.connect(store_url(url), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path TO "{schema}"')
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for version, step in enumerate(OLD_POSTGRES_STEPS, 1):
            for statement in step:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (%s)", (version,))
        for statement in rows:
            conn.execute(statement.replace("%", "%%"))
    return schema


def _postgres_layout(db: PostgresDatabase) -> dict[str, list]:
    """Columns, constraints and indexes of the namespace, its name left out."""
    queries = {
        "columns": "SELECT table_name, ordinal_position, column_name, data_type,"
        " is_nullable, column_default, is_identity, identity_generation"
        " FROM information_schema.columns WHERE table_schema = ?"
        " ORDER BY table_name, ordinal_position",
        "constraints": "SELECT c.conrelid::regclass::text, c.conname,"
        " pg_get_constraintdef(c.oid) FROM pg_constraint c"
        " JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = ?"
        " ORDER BY 1, 2",
        "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes"
        " WHERE schemaname = ? ORDER BY 1, 2",
    }
    with db.read() as conn:
        return {
            name: [
                tuple(str(v).replace(db.schema, "<ns>") for v in row)
                for row in conn.execute(sql, (db.schema,)).fetchall()
            ]
            for name, sql in queries.items()
        }


pg = pytest.mark.xdist_group("servers")


@pg
def test_a_postgres_namespace_at_version_8_keeps_working(postgres_url):
    schema = _old_namespace(postgres_url)
    db = PostgresDatabase(postgres_url, schema)
    try:
        assert db.version() == LATEST
        with db.read() as conn:
            assert set(_counts(conn).values()) == {1}
            assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0]
        _read_back(db)
    finally:
        db.close()


@pg
def test_a_new_postgres_namespace_has_the_layout_the_old_migrations_made(
    postgres_url,
):
    old = PostgresDatabase(postgres_url, _old_namespace(postgres_url, rows=()))
    new = PostgresDatabase(postgres_url, f"pg_{uuid.uuid4().hex[:12]}")
    try:
        before, after = _postgres_layout(old), _postgres_layout(new)
        assert before["columns"] and after == before
    finally:
        old.close()
        new.close()
