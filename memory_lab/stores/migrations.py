"""Bring any SQL database to the layout of `schema.STEPS`, recording each step.

Both dialects keep the steps they ran in `schema_version` (one row per step),
so every process sharing a database agrees on its layout, and a layout newer
than the code is refused rather than misread.

Each operation first looks at what the database holds (a table made, a column
added) and does only what is missing. A SQLite file made before the version
table existed (its tables made by the stores themselves, some columns added
later) is therefore replayed from step 1 and keeps every row; a column's
backfill runs only where the column was just added.
"""

from __future__ import annotations

from typing import Any

from memory_lab.stores.schema import (
    LATEST,
    STEPS,
    AddColumn,
    CreateTable,
    Dialect,
    Operation,
    render,
)


class SchemaVersionError(RuntimeError):
    """The database's schema is newer than this code knows how to use."""


def migrate(conn: Any, dialect: Dialect, where: str, *, target: int = LATEST) -> int:
    """Run the steps `conn`'s database lacks, inside the caller's transaction.

    The caller holds the database's write lock, so two processes opening a new
    database at once cannot both migrate it.

    Args:
        conn: A connection taking `?` placeholders, inside a write transaction.
        dialect: The database's dialect.
        where: The database as named in an error ("schema 'x'", a file).
        target: The version to reach; the latest unless a test wants an older one.

    Returns:
        The version the database was at before.

    Raises:
        SchemaVersionError: when the database is past `target`.
    """
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    current = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    current = current or 0
    if current > target:
        raise SchemaVersionError(
            f"{where} is at version {current}; this code knows up to {target}: "
            "upgrade memory-lab"
        )
    for version in range(current + 1, target + 1):
        for op in STEPS[version - 1]:
            if _missing(conn, dialect, op):
                for statement in render(op, dialect, version):
                    conn.execute(statement)
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
    return current


def _missing(conn: Any, dialect: Dialect, op: Operation) -> bool:
    """Whether the database still lacks what `op` makes."""
    if isinstance(op, CreateTable):
        tables = {row[0] for row in conn.execute(dialect.tables_sql).fetchall()}
        return op.table.name not in tables
    if isinstance(op, AddColumn):
        rows = conn.execute(dialect.columns_sql, (op.table.name,)).fetchall()
        return op.column not in {row[0] for row in rows}
    return True  # indexes are made with IF NOT EXISTS
