"""One small seam over the two SQLite drivers govmem can use.

``apsw`` bundles a current SQLite (FTS5 with ``secure-delete``, which forgetting
needs); the standard library's ``sqlite3`` is the fallback. Both are used in
autocommit mode and every write goes through :meth:`Database.transaction`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

try:
    import apsw
except ImportError:  # pragma: no cover - exercised only without apsw installed
    apsw = None

import sqlite3

from govmem.errors import StoreError

Row = tuple[Any, ...]


class Database:
    """A SQLite connection with explicit, nestable transactions."""

    def __init__(self, path: str | os.PathLike[str], driver: str = "auto"):
        if driver == "auto":
            driver = "apsw" if apsw is not None else "sqlite3"
        self.driver = driver
        path = self.path = os.fspath(path)
        try:
            if driver == "apsw":
                if apsw is None:
                    raise StoreError("driver 'apsw' requested but apsw is not installed")
                self._conn = apsw.Connection(path)
                self._conn.set_busy_timeout(10_000)
                self.sqlite_version = apsw.sqlite_lib_version()
            elif driver == "sqlite3":
                self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
                self.sqlite_version = sqlite3.sqlite_version
            else:
                raise StoreError(f"unknown SQLite driver {driver!r} (use 'apsw' or 'sqlite3')")
        except (sqlite3.Error, *(_apsw_errors())) as exc:
            raise StoreError(f"cannot open database {path!r}: {exc}") from exc
        self._depth = 0
        self._lock = threading.RLock()
        self._tokenizers: dict[tuple[str, ...], Callable[[str], list[str]]] = {}

    @property
    def version_tuple(self) -> tuple[int, ...]:
        return tuple(int(p) for p in self.sqlite_version.split("."))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(self._conn.execute(sql, params))

    def executescript(self, sql: str) -> None:
        if self.driver == "apsw":
            self._conn.execute(sql)
        else:
            for statement in _split_statements(sql):
                self._conn.execute(statement)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self.execute(sql, params)
        return rows[0][0] if rows else None

    def iterate(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        yield from self._conn.execute(sql, params)

    def create_function(self, name: str, function: Callable[..., Any], nargs: int) -> None:
        """Register a scalar SQL function (not deterministic: it may read state that changes)."""
        if self.driver == "apsw":
            self._conn.create_scalar_function(name, function, nargs)
        else:
            self._conn.create_function(name, nargs, function)

    def fts5_tokenizer(self, spec: tuple[str, ...]) -> Callable[[str], list[str]] | None:
        """FTS5's tokenizer ``spec`` in query mode, or None on the sqlite3 driver."""
        if self.driver != "apsw":
            return None
        if spec not in self._tokenizers:
            tokenizer = self._conn.fts5_tokenizer(spec[0], list(spec[1:]))

            def tokenize(text: str) -> list[str]:
                found = tokenizer(text.encode("utf-8"), apsw.FTS5_TOKENIZE_QUERY, None)
                return [token for _, _, token, *_ in found]

            self._tokenizers[spec] = tokenize
        return self._tokenizers[spec]

    @contextmanager
    def transaction(self) -> Iterator[Database]:
        """All or nothing: commit on success, roll back on any exception.

        Nested calls become savepoints, so an inner failure can be caught without
        losing the outer transaction's work.
        """
        with self._lock:
            if self._depth == 0:
                self._conn.execute("BEGIN IMMEDIATE")
                begin, commit, rollback = None, "COMMIT", "ROLLBACK"
            else:
                name = f"sp{self._depth}"
                begin = f"SAVEPOINT {name}"
                commit = f"RELEASE {name}"
                rollback = f"ROLLBACK TO {name}; RELEASE {name}"
            if begin:
                self._conn.execute(begin)
            self._depth += 1
            try:
                yield self
            except BaseException:
                self._depth -= 1
                for statement in rollback.split("; "):
                    self._conn.execute(statement)
                raise
            else:
                self._depth -= 1
                try:
                    self._conn.execute(commit)
                except BaseException:
                    for statement in rollback.split("; "):
                        self._conn.execute(statement)
                    raise

    @contextmanager
    def snapshot(self) -> Iterator[Database]:
        """One consistent view for a read made of several statements.

        A deferred transaction: every statement inside sees the database as of the
        first one, so a read's permissions and the memory they govern come from the
        same state (a grant revoked meanwhile is either wholly before or after it).
        Inside an open transaction it simply joins it.
        """
        with self._lock:
            if self._depth:
                yield self
                return
            self._conn.execute("BEGIN")
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
                self._conn.execute("COMMIT")

    @contextmanager
    def atomic(self) -> Iterator[Database]:
        """A transaction of its own, or a part of the one already open.

        Unlike a nested :meth:`transaction`, joining sets no savepoint: FTS5 flushes
        its pending index to a new segment at every savepoint, which made bulk
        ingest markedly slower. A failure inside propagates and the outer
        transaction rolls back as a whole.
        """
        if self._depth:
            yield self
        else:
            with self.transaction():
                yield self

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    def close(self) -> None:
        self._conn.close()


def _apsw_errors() -> tuple[type[BaseException], ...]:
    return (apsw.Error,) if apsw is not None else ()


def driver_errors() -> tuple[type[BaseException], ...]:
    """Exception types either driver raises for SQL errors."""
    return (sqlite3.Error, *_apsw_errors())


def _split_statements(script: str) -> list[str]:
    """Complete statements of ``script`` (semicolons inside strings or triggers kept)."""
    statements, buffer = [], ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \n\t;"):
                statements.append(buffer.strip())
            buffer = ""
    return statements
