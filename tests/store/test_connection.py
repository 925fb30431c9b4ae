"""Database: the seam over apsw and sqlite3; nested transactions become savepoints."""

from __future__ import annotations

import pytest

from govmem.errors import StoreError
from govmem.store.connection import Database, driver_errors

DRIVERS = ["apsw", "sqlite3"]


class Boom(Exception):
    pass


@pytest.fixture(params=DRIVERS)
def db(request: pytest.FixtureRequest, tmp_path):
    database = Database(str(tmp_path / "t.db"), driver=request.param)
    database.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    yield database
    database.close()


def values(db: Database) -> list[int]:
    return [row[0] for row in db.execute("SELECT x FROM t ORDER BY x")]


def test_driver_is_recorded(db: Database) -> None:
    assert db.driver in DRIVERS
    assert len(db.version_tuple) >= 2
    assert db.version_tuple >= (3, 35)


def test_auto_driver_prefers_apsw(tmp_path) -> None:
    database = Database(str(tmp_path / "a.db"))
    try:
        assert database.driver == "apsw"
    finally:
        database.close()


def test_unknown_driver_is_a_store_error(tmp_path) -> None:
    with pytest.raises(StoreError, match="unknown SQLite driver 'pg'"):
        Database(str(tmp_path / "a.db"), driver="pg")


@pytest.mark.parametrize("driver", DRIVERS)
def test_unopenable_path_is_a_store_error(tmp_path, driver: str) -> None:
    with pytest.raises(StoreError, match="cannot open database"):
        Database(str(tmp_path / "missing-dir" / "a.db"), driver=driver)


def test_commit_on_success(db: Database) -> None:
    with db.transaction():
        assert db.in_transaction
        db.execute("INSERT INTO t VALUES (1)")
    assert not db.in_transaction
    assert values(db) == [1]


def test_rollback_on_exception(db: Database) -> None:
    with pytest.raises(Boom), db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
        raise Boom
    assert not db.in_transaction
    assert values(db) == []


def test_inner_failure_rolls_back_only_the_savepoint(db: Database) -> None:
    with db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(Boom), db.transaction():
            db.execute("INSERT INTO t VALUES (2)")
            raise Boom
        assert db.in_transaction
        db.execute("INSERT INTO t VALUES (3)")
    assert values(db) == [1, 3]


def test_outer_failure_rolls_back_committed_savepoints(db: Database) -> None:
    with pytest.raises(Boom), db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
        with db.transaction():
            db.execute("INSERT INTO t VALUES (2)")
        assert values(db) == [1, 2]
        raise Boom
    assert values(db) == []


def test_three_levels(db: Database) -> None:
    with db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
        with db.transaction():
            db.execute("INSERT INTO t VALUES (2)")
            with pytest.raises(Boom), db.transaction():
                db.execute("INSERT INTO t VALUES (3)")
                raise Boom
            db.execute("INSERT INTO t VALUES (4)")
        with pytest.raises(Boom), db.transaction():
            db.execute("INSERT INTO t VALUES (5)")
            with db.transaction():
                db.execute("INSERT INTO t VALUES (6)")
            raise Boom
        db.execute("INSERT INTO t VALUES (7)")
    assert values(db) == [1, 2, 4, 7]
    # the connection is usable for the next transaction
    with db.transaction():
        db.execute("INSERT INTO t VALUES (8)")
    assert values(db) == [1, 2, 4, 7, 8]


def test_sql_error_inside_savepoint_keeps_outer_work(db: Database) -> None:
    with db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(driver_errors()), db.transaction():
            db.execute("INSERT INTO t VALUES (2)")
            db.execute("INSERT INTO t VALUES (1)")  # primary key violation
        db.execute("INSERT INTO t VALUES (3)")
    assert values(db) == [1, 3]


def test_transaction_holds_the_write_lock(db: Database, tmp_path) -> None:
    """BEGIN IMMEDIATE: a second connection cannot start writing meanwhile."""
    other = Database(db.path, driver=db.driver)
    if db.driver == "apsw":
        other._conn.set_busy_timeout(0)
    else:
        other._conn.execute("PRAGMA busy_timeout = 0")
    try:
        with db.transaction():
            db.execute("INSERT INTO t VALUES (1)")
            with pytest.raises(driver_errors()):
                other.execute("BEGIN IMMEDIATE")
        assert [r[0] for r in other.execute("SELECT x FROM t")] == [1]
    finally:
        other.close()


def test_scalar_iterate_executemany(db: Database) -> None:
    with db.transaction():
        db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(5)])
    assert db.scalar("SELECT count(*) FROM t") == 5
    assert db.scalar("SELECT x FROM t WHERE x > 99") is None
    assert [row[0] for row in db.iterate("SELECT x FROM t ORDER BY x")] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    "driver",
    [
        "apsw",
        pytest.param(
            "sqlite3",
        ),
    ],
)
def test_executescript_runs_statements_sharing_a_line(tmp_path, driver: str) -> None:
    database = Database(str(tmp_path / "s.db"), driver=driver)
    try:
        database.executescript("CREATE TABLE a (x);  CREATE TABLE b (y);\nCREATE TABLE c (z);")
        names = {row[0] for row in database.execute("SELECT name FROM sqlite_master")}
        assert names == {"a", "b", "c"}
    finally:
        database.close()


def test_failed_commit_leaves_the_connection_usable(db: Database) -> None:
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("CREATE TABLE child (x INTEGER REFERENCES t(x))")
    with pytest.raises(driver_errors()), db.transaction():
        db.execute("PRAGMA defer_foreign_keys = ON")
        db.execute("INSERT INTO child VALUES (42)")  # violation detected only at COMMIT
    assert db.execute("SELECT * FROM child") == []
    with db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
    assert values(db) == [1]


def test_snapshot_sees_one_state_across_statements(db: Database) -> None:
    """A write committed by another connection mid-read is invisible until the read ends."""
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("INSERT INTO t VALUES (1)")
    other = Database(db.path, driver=db.driver)
    try:
        with db.snapshot():
            assert values(db) == [1]
            other.execute("INSERT INTO t VALUES (2)")
            assert values(db) == [1]
            with db.snapshot():  # nested: joins the outer one
                assert values(db) == [1]
        assert values(db) == [1, 2]
        assert not db.in_transaction
        with pytest.raises(Boom), db.snapshot():
            raise Boom
        assert not db.in_transaction
        with db.transaction():  # the connection is usable after a failed read
            db.execute("INSERT INTO t VALUES (3)")
        assert values(other) == [1, 2, 3]
    finally:
        other.close()
