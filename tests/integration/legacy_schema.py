"""The DDL the stores ran before `memory_lab.stores.schema` held it, verbatim.

Fixtures for the upgrade tests: `OLD_SQLITE` is what each SQLite store made in
its own file (every table at its newest shape, `CREATE ... IF NOT EXISTS`, no
version table); `OLD_POSTGRES_STEPS` the numbered Postgres migrations 1-8.
Never edit: they stand for databases already written.
"""

OLD_SQLITE = (
    (
        "CREATE TABLE IF NOT EXISTS messages (\n"
        "    tenant    TEXT    NOT NULL,\n"
        "    seq       INTEGER NOT NULL,\n"
        "    id        TEXT    NOT NULL,\n"
        "    thread    TEXT    NOT NULL,\n"
        "    session   TEXT    NOT NULL,\n"
        "    role      TEXT    NOT NULL,\n"
        "    content   TEXT    NOT NULL,\n"
        "    timestamp TEXT    NOT NULL,\n"
        "    speaker   TEXT    NOT NULL,\n"
        "    restated  TEXT    NOT NULL DEFAULT '[]',\n"
        "    PRIMARY KEY (tenant, seq),\n"
        "    UNIQUE (tenant, id)\n"
        ")"
    ),
    "CREATE INDEX IF NOT EXISTS messages_thread ON messages (tenant, thread, seq)",
    (
        "CREATE TABLE IF NOT EXISTS facts (\n"
        "    tenant            TEXT    NOT NULL,\n"
        "    id                TEXT    NOT NULL,\n"
        "    subject           TEXT    NOT NULL,\n"
        "    category          TEXT    NOT NULL,\n"
        "    key               TEXT    NOT NULL,\n"
        "    value             TEXT    NOT NULL,\n"
        "    confidence        REAL    NOT NULL,\n"
        "    importance        REAL    NOT NULL,\n"
        "    source            TEXT    NOT NULL,\n"
        "    session           TEXT    NOT NULL,\n"
        "    turn_ids          TEXT    NOT NULL,\n"
        "    evidence          TEXT    NOT NULL,\n"
        "    body              TEXT    NOT NULL DEFAULT '',\n"
        "    valid_from        TEXT    NOT NULL,\n"
        "    valid_until       TEXT,\n"
        "    superseded_by     TEXT,\n"
        "    expires_at        TEXT,\n"
        "    last_confirmed_at TEXT    NOT NULL,\n"
        "    created_at        TEXT    NOT NULL,\n"
        "    created_key       INTEGER NOT NULL,\n"
        "    status            TEXT    NOT NULL,\n"
        "    conflicts_with    TEXT,\n"
        "    ended_at          TEXT,\n"
        "    PRIMARY KEY (tenant, id)\n"
        ")"
    ),
    "CREATE INDEX IF NOT EXISTS facts_lookup ON facts (tenant, subject, category, key)",
    (
        "CREATE TABLE IF NOT EXISTS events (\n"
        "    pos    INTEGER PRIMARY KEY AUTOINCREMENT,\n"
        "    tenant TEXT    NOT NULL,\n"
        "    id     TEXT    NOT NULL,\n"
        "    at     TEXT    NOT NULL,\n"
        "    at_key INTEGER NOT NULL,\n"
        "    kind   TEXT    NOT NULL,\n"
        "    detail TEXT    NOT NULL,\n"
        "    refs   TEXT    NOT NULL,\n"
        "    undo   TEXT,\n"
        "    UNIQUE (tenant, id)\n"
        ")"
    ),
    "CREATE INDEX IF NOT EXISTS events_time ON events (tenant, at_key, pos)",
    (
        "CREATE TABLE IF NOT EXISTS memory_threads (\n"
        "    tenant               TEXT    NOT NULL,\n"
        "    thread               TEXT    NOT NULL,\n"
        "    decided_upto         INTEGER NOT NULL,\n"
        "    planned_upto         INTEGER NOT NULL,\n"
        "    compressed_upto      INTEGER NOT NULL,\n"
        "    extract_planned_upto INTEGER NOT NULL,\n"
        "    extracted_upto       INTEGER NOT NULL,\n"
        "    summary              TEXT    NOT NULL,\n"
        "    session              TEXT    NOT NULL,\n"
        "    PRIMARY KEY (tenant, thread)\n"
        ")"
    ),
    (
        "CREATE TABLE IF NOT EXISTS memory_jobs (\n"
        "    id        INTEGER PRIMARY KEY AUTOINCREMENT,\n"
        "    tenant    TEXT    NOT NULL,\n"
        "    thread    TEXT    NOT NULL,\n"
        "    kind      TEXT    NOT NULL,\n"
        "    first_seq INTEGER NOT NULL,\n"
        "    last_seq  INTEGER NOT NULL,\n"
        "    trigger   TEXT    NOT NULL,\n"
        "    asked_at  TEXT    NOT NULL,\n"
        "    status    TEXT    NOT NULL,\n"
        "    attempts  INTEGER NOT NULL DEFAULT 0,\n"
        "    error     TEXT,\n"
        "    owner     TEXT    NOT NULL DEFAULT '',\n"
        "    UNIQUE (tenant, thread, kind, first_seq)\n"
        ")"
    ),
    "CREATE INDEX IF NOT EXISTS memory_jobs_open ON memory_jobs (status, owner, id)",
    (
        "CREATE TABLE IF NOT EXISTS memory_episodes (\n"
        "    tenant    TEXT    NOT NULL,\n"
        "    id        TEXT    NOT NULL,\n"
        "    thread    TEXT    NOT NULL,\n"
        "    first_seq INTEGER NOT NULL,\n"
        "    last_seq  INTEGER NOT NULL,\n"
        "    record    TEXT    NOT NULL,\n"
        "    PRIMARY KEY (tenant, id)\n"
        ")"
    ),
    "CREATE INDEX IF NOT EXISTS memory_episodes_seq "
    "ON memory_episodes (tenant, first_seq)",
    (
        "CREATE TABLE IF NOT EXISTS chats (\n"
        "    tenant     TEXT NOT NULL,\n"
        "    thread     TEXT NOT NULL,\n"
        "    title      TEXT NOT NULL,\n"
        "    titled_by  TEXT NOT NULL,\n"
        "    created_at TEXT NOT NULL,\n"
        "    trashed_at TEXT,\n"
        "    PRIMARY KEY (tenant, thread)\n"
        ")"
    ),
    (
        "CREATE TABLE IF NOT EXISTS fact_links (\n"
        "    tenant      TEXT    NOT NULL,\n"
        "    id          TEXT    NOT NULL,\n"
        "    type        TEXT    NOT NULL,\n"
        "    source      TEXT    NOT NULL,\n"
        "    target      TEXT    NOT NULL,\n"
        "    origin      TEXT    NOT NULL,\n"
        "    created_at  TEXT    NOT NULL,\n"
        "    created_key INTEGER NOT NULL,\n"
        "    ended_at    TEXT,\n"
        "    PRIMARY KEY (tenant, id)\n"
        ")"
    ),
    "CREATE INDEX IF NOT EXISTS fact_links_source ON fact_links (tenant, source)",
    "CREATE INDEX IF NOT EXISTS fact_links_target ON fact_links (tenant, target)",
    (
        "CREATE TABLE IF NOT EXISTS trash (\n"
        "    tenant     TEXT NOT NULL,\n"
        "    kind       TEXT NOT NULL,\n"
        "    item       TEXT NOT NULL,\n"
        "    label      TEXT NOT NULL,\n"
        "    trashed_at TEXT NOT NULL,\n"
        "    PRIMARY KEY (tenant, kind, item)\n"
        ")"
    ),
    (
        "CREATE TABLE IF NOT EXISTS purges (\n"
        "    id           INTEGER PRIMARY KEY AUTOINCREMENT,\n"
        "    tenant       TEXT    NOT NULL,\n"
        "    selection    TEXT    NOT NULL,\n"
        "    requested_by TEXT    NOT NULL,\n"
        "    asked_at     TEXT    NOT NULL,\n"
        "    finished_at  TEXT,\n"
        "    status       TEXT    NOT NULL,\n"
        "    counts       TEXT    NOT NULL,\n"
        "    plan         TEXT,\n"
        "    cache_path   TEXT\n"
        ")"
    ),
    (
        "CREATE TABLE IF NOT EXISTS memory_sessions (\n"
        "    tenant       TEXT NOT NULL,\n"
        "    thread       TEXT NOT NULL,\n"
        "    session      TEXT NOT NULL,\n"
        "    state        TEXT NOT NULL,\n"
        "    opened_at    TEXT NOT NULL,\n"
        "    last_turn_at TEXT NOT NULL,\n"
        "    since        TEXT NOT NULL,\n"
        "    closed_at    TEXT,\n"
        "    reason       TEXT NOT NULL,\n"
        "    PRIMARY KEY (tenant, thread)\n"
        ")"
    ),
)
OLD_POSTGRES_STEPS = (
    (
        (
            "CREATE TABLE messages (\n"
            "    tenant    TEXT   NOT NULL,\n"
            "    seq       BIGINT NOT NULL,\n"
            "    id        TEXT   NOT NULL,\n"
            "    thread    TEXT   NOT NULL,\n"
            "    session   TEXT   NOT NULL,\n"
            "    role      TEXT   NOT NULL,\n"
            "    content   TEXT   NOT NULL,\n"
            "    timestamp TEXT   NOT NULL,\n"
            "    speaker   TEXT   NOT NULL,\n"
            "    PRIMARY KEY (tenant, seq),\n"
            "    UNIQUE (tenant, id)\n"
            ")"
        ),
        "CREATE INDEX messages_thread ON messages (tenant, thread, seq)",
        (
            "CREATE TABLE facts (\n"
            "    tenant            TEXT             NOT NULL,\n"
            "    id                TEXT             NOT NULL,\n"
            "    subject           TEXT             NOT NULL,\n"
            "    category          TEXT             NOT NULL,\n"
            "    key               TEXT             NOT NULL,\n"
            "    value             TEXT             NOT NULL,\n"
            "    confidence        DOUBLE PRECISION NOT NULL,\n"
            "    importance        DOUBLE PRECISION NOT NULL,\n"
            "    source            TEXT             NOT NULL,\n"
            "    session           TEXT             NOT NULL,\n"
            "    turn_ids          TEXT             NOT NULL,\n"
            "    evidence          TEXT             NOT NULL,\n"
            "    valid_from        TEXT             NOT NULL,\n"
            "    valid_until       TEXT,\n"
            "    superseded_by     TEXT,\n"
            "    expires_at        TEXT,\n"
            "    last_confirmed_at TEXT             NOT NULL,\n"
            "    created_at        TEXT             NOT NULL,\n"
            "    created_key       BIGINT           NOT NULL,\n"
            "    status            TEXT             NOT NULL,\n"
            "    conflicts_with    TEXT,\n"
            "    PRIMARY KEY (tenant, id)\n"
            ")"
        ),
        "CREATE INDEX facts_lookup ON facts (tenant, subject, category, key)",
        (
            "CREATE TABLE events (\n"
            "    pos    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
            "    tenant TEXT   NOT NULL,\n"
            "    id     TEXT   NOT NULL,\n"
            "    at     TEXT   NOT NULL,\n"
            "    at_key BIGINT NOT NULL,\n"
            "    kind   TEXT   NOT NULL,\n"
            "    detail TEXT   NOT NULL,\n"
            "    refs   TEXT   NOT NULL,\n"
            "    undo   TEXT,\n"
            "    UNIQUE (tenant, id)\n"
            ")"
        ),
        "CREATE INDEX events_time ON events (tenant, at_key, pos)",
        (
            "CREATE TABLE memory_threads (\n"
            "    tenant               TEXT   NOT NULL,\n"
            "    thread               TEXT   NOT NULL,\n"
            "    decided_upto         BIGINT NOT NULL,\n"
            "    planned_upto         BIGINT NOT NULL,\n"
            "    compressed_upto      BIGINT NOT NULL,\n"
            "    extract_planned_upto BIGINT NOT NULL,\n"
            "    extracted_upto       BIGINT NOT NULL,\n"
            "    summary              TEXT   NOT NULL,\n"
            "    session              TEXT   NOT NULL,\n"
            "    PRIMARY KEY (tenant, thread)\n"
            ")"
        ),
        (
            "CREATE TABLE memory_jobs (\n"
            "    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
            "    tenant    TEXT    NOT NULL,\n"
            "    thread    TEXT    NOT NULL,\n"
            "    kind      TEXT    NOT NULL,\n"
            "    first_seq BIGINT  NOT NULL,\n"
            "    last_seq  BIGINT  NOT NULL,\n"
            "    trigger   TEXT    NOT NULL,\n"
            "    asked_at  TEXT    NOT NULL,\n"
            "    status    TEXT    NOT NULL,\n"
            "    attempts  INTEGER NOT NULL DEFAULT 0,\n"
            "    error     TEXT,\n"
            "    owner     TEXT    NOT NULL DEFAULT '',\n"
            "    UNIQUE (tenant, thread, kind, first_seq)\n"
            ")"
        ),
        "CREATE INDEX memory_jobs_open ON memory_jobs (status, owner, id)",
        (
            "CREATE TABLE memory_episodes (\n"
            "    tenant    TEXT   NOT NULL,\n"
            "    id        TEXT   NOT NULL,\n"
            "    thread    TEXT   NOT NULL,\n"
            "    first_seq BIGINT NOT NULL,\n"
            "    last_seq  BIGINT NOT NULL,\n"
            "    record    TEXT   NOT NULL,\n"
            "    PRIMARY KEY (tenant, id)\n"
            ")"
        ),
        "CREATE INDEX memory_episodes_seq ON memory_episodes (tenant, first_seq)",
    ),
    (
        "ALTER TABLE facts ADD COLUMN ended_at TEXT",
        "UPDATE facts SET ended_at = valid_until WHERE status != 'active'",
    ),
    (
        (
            "CREATE TABLE chats (\n"
            "    tenant     TEXT NOT NULL,\n"
            "    thread     TEXT NOT NULL,\n"
            "    title      TEXT NOT NULL,\n"
            "    titled_by  TEXT NOT NULL,\n"
            "    created_at TEXT NOT NULL,\n"
            "    trashed_at TEXT,\n"
            "    PRIMARY KEY (tenant, thread)\n"
            ")"
        ),
    ),
    ("ALTER TABLE messages ADD COLUMN restated TEXT NOT NULL DEFAULT '[]'",),
    (
        "ALTER TABLE facts ADD COLUMN body TEXT NOT NULL DEFAULT ''",
        (
            "CREATE TABLE fact_links (\n"
            "    tenant      TEXT   NOT NULL,\n"
            "    id          TEXT   NOT NULL,\n"
            "    type        TEXT   NOT NULL,\n"
            "    source      TEXT   NOT NULL,\n"
            "    target      TEXT   NOT NULL,\n"
            "    origin      TEXT   NOT NULL,\n"
            "    created_at  TEXT   NOT NULL,\n"
            "    created_key BIGINT NOT NULL,\n"
            "    ended_at    TEXT,\n"
            "    PRIMARY KEY (tenant, id)\n"
            ")"
        ),
        "CREATE INDEX fact_links_source ON fact_links (tenant, source)",
        "CREATE INDEX fact_links_target ON fact_links (tenant, target)",
    ),
    (
        (
            "CREATE TABLE trash (\n"
            "    tenant     TEXT NOT NULL,\n"
            "    kind       TEXT NOT NULL,\n"
            "    item       TEXT NOT NULL,\n"
            "    label      TEXT NOT NULL,\n"
            "    trashed_at TEXT NOT NULL,\n"
            "    PRIMARY KEY (tenant, kind, item)\n"
            ")"
        ),
    ),
    (
        (
            "CREATE TABLE purges (\n"
            "    id           BIGSERIAL PRIMARY KEY,\n"
            "    tenant       TEXT NOT NULL,\n"
            "    selection    TEXT NOT NULL,\n"
            "    requested_by TEXT NOT NULL,\n"
            "    asked_at     TEXT NOT NULL,\n"
            "    finished_at  TEXT,\n"
            "    status       TEXT NOT NULL,\n"
            "    counts       TEXT NOT NULL,\n"
            "    plan         TEXT,\n"
            "    cache_path   TEXT\n"
            ")"
        ),
    ),
    (
        (
            "CREATE TABLE memory_sessions (\n"
            "    tenant       TEXT NOT NULL,\n"
            "    thread       TEXT NOT NULL,\n"
            "    session      TEXT NOT NULL,\n"
            "    state        TEXT NOT NULL,\n"
            "    opened_at    TEXT NOT NULL,\n"
            "    last_turn_at TEXT NOT NULL,\n"
            "    since        TEXT NOT NULL,\n"
            "    closed_at    TEXT,\n"
            "    reason       TEXT NOT NULL,\n"
            "    PRIMARY KEY (tenant, thread)\n"
            ")"
        ),
    ),
)
