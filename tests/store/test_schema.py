"""Schema migrations: user_version is the schema version; foreign or newer files are refused."""

from __future__ import annotations

import sqlite3

import pytest

from govmem import Memory, SchemaError, StoreError, Turn
from govmem.store.connection import Database
from govmem.store.schema import LATEST_VERSION, MIGRATIONS, migrate, schema_version
from govmem.store.sqlite_engine import SQLiteStore

TABLES = {
    "meta",
    "principals",
    "relationships",
    "turns",
    "objects",
    "object_sources",
    "vectors",
    "objects_fts",
    "llm_cache",
    "llm_cache_sources",
}


def user_version(path: str) -> int:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA user_version").fetchone()[0]
    finally:
        connection.close()


def test_latest_version_counts_the_migrations() -> None:
    assert LATEST_VERSION == len(MIGRATIONS) >= 1


def test_fresh_file_gets_the_latest_version(db_path: str) -> None:
    store = SQLiteStore(db_path)
    try:
        assert store.schema_version == LATEST_VERSION
        names = {row[0] for row in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert names >= TABLES
        indexes = {row[0] for row in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {
            "object_sources_by_turn",
            "turns_by_session",
            "objects_by_group",
            "llm_cache_sources_by_turn",
        } <= indexes
    finally:
        store.close()
    assert user_version(db_path) == LATEST_VERSION


def test_migrate_reports_the_version_found(tmp_path) -> None:
    db = Database(str(tmp_path / "m.db"))
    try:
        assert migrate(db) == 0
        assert schema_version(db) == LATEST_VERSION
        assert migrate(db) == LATEST_VERSION  # idempotent
        assert schema_version(db) == LATEST_VERSION
    finally:
        db.close()


def test_version_2_file_gains_the_llm_cache(tmp_path) -> None:
    path = str(tmp_path / "v2.db")
    db = Database(path)
    try:
        with db.transaction():
            for version, step in enumerate(MIGRATIONS[:2]):
                step(db)
                db.execute(f"PRAGMA user_version = {version + 1}")
        db.execute("INSERT INTO principals(principal_id, role) VALUES ('ana', 'nurse')")
    finally:
        db.close()
    store = SQLiteStore(path)
    try:
        assert store.schema_version == LATEST_VERSION >= 3
        assert store.principals()[0].principal_id == "ana"
        assert store.cache_get("k") is None
        plan = " ".join(
            str(row[-1])
            for row in store.db.execute(
                "EXPLAIN QUERY PLAN SELECT cache_key FROM llm_cache_sources WHERE turn_key = 1"
            )
        )
        assert "llm_cache_sources_by_turn" in plan
    finally:
        store.close()


def test_empty_file_is_initialised(tmp_path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    store = SQLiteStore(str(path))
    try:
        assert store.schema_version == LATEST_VERSION
    finally:
        store.close()


def test_newer_schema_is_refused(db_path: str) -> None:
    SQLiteStore(db_path).close()
    connection = sqlite3.connect(db_path)
    connection.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    connection.commit()
    connection.close()
    with pytest.raises(SchemaError, match=r"newer than this govmem") as info:
        Memory(db_path)
    assert db_path in str(info.value)
    assert user_version(db_path) == LATEST_VERSION + 1  # left as found


def foreign_file(path: str) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (body TEXT)")
    connection.execute("INSERT INTO notes VALUES ('keep me')")
    connection.commit()
    connection.close()


@pytest.mark.parametrize("driver", ["apsw", "sqlite3"])
def test_foreign_sqlite_file_is_refused_and_kept(tmp_path, driver: str) -> None:
    path = str(tmp_path / "foreign.db")
    foreign_file(path)
    with pytest.raises(SchemaError, match="not a govmem database"):
        Memory(path, driver=driver)
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert tables == {"notes"}
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 0
    finally:
        connection.close()


def test_refused_foreign_file_keeps_its_journal_mode(tmp_path) -> None:
    path = str(tmp_path / "foreign.db")
    foreign_file(path)
    with pytest.raises(SchemaError):
        Memory(path)
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        connection.close()


def test_not_a_database_is_a_store_error(tmp_path) -> None:
    path = tmp_path / "text.db"
    path.write_bytes(b"this is not a database, just some text " * 200)
    with pytest.raises(StoreError, match="cannot use"):
        Memory(str(path))


def test_reopen_keeps_data_and_version(db_path: str) -> None:
    with Memory(db_path) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest(
            Turn("t1", "ana", "The autoclave in room nine is broken.", timestamp="2026-01-02T03:04")
        )
        before = memory.stats()["counts"]
    with Memory(db_path) as memory:
        assert memory.stats()["counts"] == before
        assert memory.stats()["schema_version"] == LATEST_VERSION
        result = memory.recall("ana", "autoclave broken", design="turn")
        assert [item.sources for item in result.items] == [("t1",)]
        assert result.items[0].observed_at == "2026-01-02T03:04:00"
