"""The SQLite schema and its migrations.

The schema version is SQLite's ``user_version``. Each migration moves the file from
version ``i`` to ``i + 1`` inside the opening transaction; a file newer than this
code is refused rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Callable

from govmem.errors import SchemaError
from govmem.store.connection import Database

V1 = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE principals (
    principal_id TEXT PRIMARY KEY,
    role         TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT ''
);
CREATE TABLE relationships (
    relationship_key INTEGER PRIMARY KEY,
    type             TEXT NOT NULL,
    principal_id     TEXT NOT NULL REFERENCES principals(principal_id),
    target_id        TEXT NOT NULL,
    attributes       TEXT NOT NULL DEFAULT '{}',
    UNIQUE (type, principal_id, target_id)
);
CREATE INDEX relationships_by_target ON relationships(target_id);
CREATE TABLE turns (
    turn_key   INTEGER PRIMARY KEY AUTOINCREMENT,
    episode_id TEXT NOT NULL,
    turn_id    TEXT NOT NULL,
    session_id TEXT NOT NULL,
    speaker_id TEXT NOT NULL REFERENCES principals(principal_id),
    timestamp  TEXT,
    kind       TEXT NOT NULL,
    text       TEXT NOT NULL,
    UNIQUE (episode_id, turn_id)
);
CREATE INDEX turns_by_session ON turns(episode_id, session_id);
CREATE TABLE objects (
    object_key  INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL,
    group_id    TEXT NOT NULL,
    episode_id  TEXT NOT NULL,
    text        TEXT NOT NULL,
    observed_at TEXT
);
CREATE INDEX objects_by_group ON objects(kind, group_id);
CREATE TABLE object_sources (
    object_key INTEGER NOT NULL REFERENCES objects(object_key) ON DELETE CASCADE,
    turn_key   INTEGER NOT NULL REFERENCES turns(turn_key),
    PRIMARY KEY (object_key, turn_key)
) WITHOUT ROWID;
CREATE INDEX object_sources_by_turn ON object_sources(turn_key, object_key);
CREATE TABLE vectors (
    object_key INTEGER PRIMARY KEY REFERENCES objects(object_key) ON DELETE CASCADE,
    embedding  BLOB NOT NULL
);
CREATE VIRTUAL TABLE objects_fts USING fts5(
    text,
    content = 'objects',
    content_rowid = 'object_key',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE objects_vocab USING fts5vocab(objects_fts, 'row');
"""


def _v1(db: Database) -> None:
    db.executescript(V1)
    if db.version_tuple >= (3, 44, 0):
        db.execute("INSERT INTO objects_fts(objects_fts, rank) VALUES ('secure-delete', 1)")


V2 = """
CREATE TABLE labels (
    label_key INTEGER PRIMARY KEY,
    facets    TEXT NOT NULL UNIQUE
);
ALTER TABLE turns ADD COLUMN label_key INTEGER REFERENCES labels(label_key);
ALTER TABLE turns ADD COLUMN spans TEXT;
ALTER TABLE objects ADD COLUMN label_key INTEGER REFERENCES labels(label_key);
ALTER TABLE relationships ADD COLUMN valid_from TEXT;
ALTER TABLE relationships ADD COLUMN valid_until TEXT;
CREATE TABLE governance_events (
    event_key       INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT NOT NULL,
    effective_at    TEXT,
    recorded_at     TEXT NOT NULL,
    payload         TEXT NOT NULL,
    source          TEXT NOT NULL,
    source_turn_key INTEGER REFERENCES turns(turn_key) ON DELETE SET NULL
);
CREATE TABLE grants (
    grant_key   INTEGER PRIMARY KEY AUTOINCREMENT,
    grantor_id  TEXT NOT NULL REFERENCES principals(principal_id),
    grantee_id  TEXT NOT NULL REFERENCES principals(principal_id),
    subject_id  TEXT NOT NULL,
    tags        TEXT NOT NULL,
    valid_from  TEXT,
    valid_until TEXT,
    revocable   INTEGER NOT NULL DEFAULT 1,
    revoked_at  TEXT,
    event_key   INTEGER NOT NULL REFERENCES governance_events(event_key)
);
CREATE INDEX grants_by_grantee ON grants(grantee_id);
CREATE TABLE decision_log (
    decision_key INTEGER PRIMARY KEY AUTOINCREMENT,
    decided_at   TEXT NOT NULL,
    requester_id TEXT NOT NULL,
    surface      TEXT NOT NULL,
    query_sha256 TEXT,
    as_of        TEXT,
    action       TEXT NOT NULL,
    returned     TEXT NOT NULL,
    withheld     TEXT NOT NULL,
    rules        TEXT NOT NULL
);
"""


def _v2(db: Database) -> None:
    """Governance state: labels, grants, governance events, the decision log."""
    db.executescript(V2)


V3 = """
CREATE TABLE llm_cache (
    cache_key  TEXT PRIMARY KEY,
    response   TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE llm_cache_sources (
    cache_key TEXT NOT NULL REFERENCES llm_cache(cache_key) ON DELETE CASCADE,
    turn_key  INTEGER NOT NULL REFERENCES turns(turn_key),
    PRIMARY KEY (cache_key, turn_key)
) WITHOUT ROWID;
CREATE INDEX llm_cache_sources_by_turn ON llm_cache_sources(turn_key, cache_key);
"""


def _v3(db: Database) -> None:
    """The LLM response cache; each reply records the turns its prompt drew on."""
    db.executescript(V3)


V4 = """
CREATE TABLE tombstones (
    words       INTEGER NOT NULL,
    digest      TEXT NOT NULL,
    episode_id  TEXT NOT NULL DEFAULT '',
    kinds       TEXT NOT NULL DEFAULT '[]',
    event_key   INTEGER REFERENCES governance_events(event_key),
    PRIMARY KEY (digest, episode_id)
);
"""


def _v4(db: Database) -> None:
    """Tombstones: forgotten items as token counts and SHA-256 digests, never text
    (episode '' = every episode)."""
    db.executescript(V4)


V5 = """
CREATE TABLE receipts (
    receipt_key INTEGER PRIMARY KEY AUTOINCREMENT,
    event_key   INTEGER REFERENCES governance_events(event_key),
    receipt     TEXT NOT NULL
);
"""


def _v5(db: Database) -> None:
    """Receipts: the signed record of each deletion request (digests, never text)."""
    db.executescript(V5)


V6 = """
CREATE TABLE validity (
    turn_key      INTEGER PRIMARY KEY REFERENCES turns(turn_key) ON DELETE CASCADE,
    valid_from    TEXT,
    valid_until   TEXT,
    superseded_at TEXT,
    superseded_by INTEGER REFERENCES turns(turn_key) ON DELETE SET NULL,
    reason        TEXT NOT NULL DEFAULT '',
    event_key     INTEGER REFERENCES governance_events(event_key)
);
CREATE INDEX validity_by_successor ON validity(superseded_by);
CREATE TABLE derivations (
    turn_key        INTEGER NOT NULL REFERENCES turns(turn_key) ON DELETE CASCADE,
    source_turn_key INTEGER NOT NULL REFERENCES turns(turn_key) ON DELETE CASCADE,
    PRIMARY KEY (turn_key, source_turn_key)
) WITHOUT ROWID;
CREATE INDEX derivations_by_source ON derivations(source_turn_key, turn_key);
CREATE TABLE conflicts (
    conflict_key    INTEGER PRIMARY KEY AUTOINCREMENT,
    first_turn_key  INTEGER NOT NULL REFERENCES turns(turn_key) ON DELETE CASCADE,
    second_turn_key INTEGER NOT NULL REFERENCES turns(turn_key) ON DELETE CASCADE,
    reasons         TEXT NOT NULL,
    detected_at     TEXT NOT NULL,
    UNIQUE (first_turn_key, second_turn_key)
);
CREATE TABLE auditors (
    principal_id TEXT PRIMARY KEY REFERENCES principals(principal_id)
);
"""


def _v6(db: Database) -> None:
    """Revocation: validity intervals and supersession of source records, derivations of
    agent notes from the records they drew on, unresolved conflicts (signal names, never
    text), and the principals allowed to read revoked history."""
    db.executescript(V6)


V7 = """
CREATE TABLE deleted_turns (
    episode_id  TEXT NOT NULL,
    turn_id     TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    deleted_at  TEXT NOT NULL,
    PRIMARY KEY (episode_id, turn_id)
) WITHOUT ROWID;
"""


def _v7(db: Database) -> None:
    """Tombstones of deleted source turns (id and a digest of the text, never the text), so
    that a replay of a deleted turn from an upstream log does not bring it back."""
    db.executescript(V7)


V8 = """
CREATE TABLE superseded_statements (
    turn_key      INTEGER NOT NULL REFERENCES turns(turn_key) ON DELETE CASCADE,
    start_char    INTEGER NOT NULL,
    end_char      INTEGER NOT NULL,
    superseded_at TEXT NOT NULL,
    superseded_by INTEGER REFERENCES turns(turn_key) ON DELETE SET NULL,
    reason        TEXT NOT NULL DEFAULT '',
    whole         INTEGER NOT NULL DEFAULT 1,
    event_key     INTEGER REFERENCES governance_events(event_key),
    PRIMARY KEY (turn_key, start_char)
) WITHOUT ROWID;
CREATE INDEX superseded_statements_by_successor ON superseded_statements(superseded_by);
"""


def _v8(db: Database) -> None:
    """Supersession of statements inside turns (a character span of the old turn, from
    when, by which turn; ``whole`` 0 when the statement also says things the new one does
    not restate, so reads mark it rather than cut it): the rest of the turn stays current."""
    db.executescript(V8)


MIGRATIONS: list[Callable[[Database], None]] = [_v1, _v2, _v3, _v4, _v5, _v6, _v7, _v8]
LATEST_VERSION = len(MIGRATIONS)


def schema_version(db: Database) -> int:
    return int(db.scalar("PRAGMA user_version"))


def migrate(db: Database) -> int:
    """Bring the file to ``LATEST_VERSION``; return the version it had before."""
    with db.transaction():
        found = schema_version(db)
        if found > LATEST_VERSION:
            raise SchemaError(
                f"{db.path}: schema version {found} is newer than this govmem supports "
                f"({LATEST_VERSION}); upgrade govmem"
            )
        if found == 0 and db.scalar("SELECT count(*) FROM sqlite_master") > 0:
            raise SchemaError(f"{db.path}: not a govmem database (it has tables but no version)")
        for version in range(found, LATEST_VERSION):
            MIGRATIONS[version](db)
            db.execute(f"PRAGMA user_version = {version + 1}")
    return found
