"""The embedded default engine: one SQLite file in WAL mode.

Keys are assigned here inside the write transaction (``BEGIN IMMEDIATE`` holds the
write lock), so bulk inserts can use ``executemany`` without a round trip per row.
Full-text search uses an external-content FTS5 table over ``objects.text``, so the
text lives once; ``secure-delete`` is switched on where SQLite supports it.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice

import numpy as np

from govmem.errors import DuplicateTurn, StoreError, UnknownPrincipal
from govmem.models import Grant, MemoryObject, ObjectDraft, Principal, Relationship, StoredTurn, Turn
from govmem.store.connection import Database, driver_errors
from govmem.store.revocation_rows import RevocationRows
from govmem.store.schema import migrate, schema_version

_CHUNK = 500

FTS_TOKENIZER = ("porter", "unicode61", "remove_diacritics", "2")

_TURN_COLUMNS = "turn_key, episode_id, turn_id, session_id, speaker_id, timestamp, kind, text, label_key"


def _chunks(items: Iterable, size: int = _CHUNK) -> Iterator[list]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _runs(keys: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(first, last) of each run of consecutive integers in sorted ``keys``."""
    if not keys:
        return
    first = previous = keys[0]
    for key in keys[1:]:
        if key != previous + 1:
            yield first, previous
            first = key
        previous = key
    yield first, previous


def _placeholders(n: int) -> str:
    return ",".join("?" * n)


def _stored_turn(row: tuple) -> StoredTurn:
    key, episode_id, turn_id, session_id, speaker, timestamp, kind, text, label_key = row
    turn = Turn(
        turn_id=turn_id,
        speaker=speaker,
        text=text,
        episode_id=episode_id,
        timestamp=timestamp,
        kind=kind,
        session_id=session_id,
    )
    return StoredTurn(turn_key=key, turn=turn, session_id=session_id, label_key=label_key)


class SQLiteStore(RevocationRows):
    """A :class:`~govmem.store.base.Store` in one SQLite file."""

    def __init__(self, path: str | os.PathLike[str], driver: str = "auto"):
        self.db = Database(path, driver=driver)
        self.path = self.db.path
        try:
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA secure_delete = ON")
            # Only takes effect while the file is new. 16 KiB pages cut ingest CPU by
            # about a fifth against 4 KiB (rows carry text and 1 KiB vectors).
            self.db.execute("PRAGMA page_size = 16384")
            migrate(self.db)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute("PRAGMA wal_autocheckpoint = 16384")
            self.db.execute("PRAGMA cache_size = -65536")
            # A process killed between an erasure's COMMIT and its checkpoint left the erased
            # text in the old pages of the database file: the next to open the store empties
            # the log (without waiting for other connections; see checkpoint).
            self.checkpoint()
        except driver_errors() as exc:
            self.db.close()
            raise StoreError(f"cannot use {path!r} as a govmem database: {exc}") from exc
        except Exception:
            self.db.close()
            raise
        self._data_version = self.db.scalar("PRAGMA data_version")
        self._allowed: bytes | None = None
        self._allowed_lock = threading.Lock()
        self._allowed_registered = False
        self._unindexed: set[int] = set()

    @contextmanager
    def transaction(self) -> Iterator[Database]:
        """All or nothing; objects' text reaches the full-text index before commit."""
        outermost = not self.db.in_transaction
        try:
            with self.db.transaction() as db:
                yield db
                if outermost:
                    self.index_pending_text()
        except BaseException:
            if outermost:
                self._unindexed.clear()
            raise
        if outermost and self._checkpoint_owed:
            self.checkpoint()

    @property
    def schema_version(self) -> int:
        return schema_version(self.db)

    @contextmanager
    def snapshot(self) -> Iterator[Database]:
        """A consistent view across the statements of one read."""
        with self.db.snapshot() as db:
            yield db
        if self._checkpoint_owed:
            self.checkpoint()

    def close(self) -> None:
        if self._checkpoint_owed:
            self.checkpoint()
        self.db.close()

    def get_meta(self, key: str) -> str | None:
        return self.db.scalar("SELECT value FROM meta WHERE key = ?", (key,))

    def set_meta(self, key: str, value: str) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def changed_elsewhere(self) -> bool:
        version = self.db.scalar("PRAGMA data_version")
        changed = version != self._data_version
        self._data_version = version
        return changed

    # governance state

    def put_principals(self, principals: Sequence[Principal]) -> None:
        with self.db.atomic():
            self._governance_changed()
            self.db.executemany(
                "INSERT INTO principals(principal_id, role, display_name) VALUES (?, ?, ?) "
                "ON CONFLICT(principal_id) DO UPDATE SET role = excluded.role, "
                "display_name = excluded.display_name",
                [(p.principal_id, p.role, p.display_name) for p in principals],
            )

    def get_principal(self, principal_id: str) -> Principal | None:
        rows = self.db.execute(
            "SELECT principal_id, role, display_name FROM principals WHERE principal_id = ?",
            (principal_id,),
        )
        return Principal(*rows[0]) if rows else None

    def principals(self) -> list[Principal]:
        rows = self.db.execute(
            "SELECT principal_id, role, display_name FROM principals ORDER BY principal_id"
        )
        return [Principal(*row) for row in rows]

    def put_relationships(self, relationships: Sequence[Relationship]) -> None:
        with self.db.atomic():
            self._governance_changed()
            known = self._known_principals({r.principal_id for r in relationships})
            for relationship in relationships:
                if relationship.principal_id not in known:
                    raise UnknownPrincipal(
                        relationship.principal_id, f"in a {relationship.type!r} relationship"
                    )
            self.db.executemany(
                "INSERT INTO relationships(type, principal_id, target_id, attributes, valid_from, "
                "valid_until) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(type, principal_id, target_id) "
                "DO UPDATE SET attributes = excluded.attributes, valid_from = excluded.valid_from, "
                "valid_until = excluded.valid_until",
                [
                    (
                        r.type,
                        r.principal_id,
                        r.target_id,
                        json.dumps(r.attributes, sort_keys=True),
                        r.valid_from,
                        r.valid_until,
                    )
                    for r in relationships
                ],
            )

    def relationships(self, principal_id: str | None = None) -> list[Relationship]:
        sql = "SELECT type, principal_id, target_id, attributes, valid_from, valid_until FROM relationships"
        params: tuple = ()
        if principal_id is not None:
            sql += " WHERE principal_id = ? OR target_id = ?"
            params = (principal_id, principal_id)
        rows = self.db.execute(sql + " ORDER BY relationship_key", params)
        return [
            Relationship(kind, principal, target, json.loads(attributes), start, end)
            for kind, principal, target, attributes, start, end in rows
        ]

    def _known_principals(self, ids: Iterable[str]) -> set[str]:
        known: set[str] = set()
        for chunk in _chunks(ids):
            rows = self.db.execute(
                f"SELECT principal_id FROM principals WHERE principal_id IN ({_placeholders(len(chunk))})",
                chunk,
            )
            known.update(row[0] for row in rows)
        return known

    def _next_key(self, table: str) -> int:
        """The first key never used in ``table``: keys of deleted rows are not reused."""
        used = self.db.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        return (used or 0) + 1

    # source turns

    def insert_turns(
        self,
        turns: Sequence[Turn],
        session_ids: Sequence[str],
        labels: Sequence[tuple[int, str]] | None = None,
    ) -> list[StoredTurn]:
        """Insert turns in the current transaction; raise naming the first bad one.

        ``labels`` gives each turn's (label key, spans as JSON) when governed.
        """
        with self.db.atomic():
            speakers = {t.speaker for t in turns}
            missing = speakers - self._known_principals(speakers)
            if missing:
                bad = next(t for t in turns if t.speaker in missing)
                raise UnknownPrincipal(bad.speaker, f"speaker of turn {bad.turn_id!r}")
            first = self._next_key("turns")
            labels = labels or [(None, None)] * len(turns)
            stored = [
                StoredTurn(first + i, turn, session, label[0])
                for i, (turn, session, label) in enumerate(zip(turns, session_ids, labels, strict=True))
            ]
            rows = [
                (
                    s.turn_key,
                    t.episode_id,
                    t.turn_id,
                    s.session_id,
                    t.speaker,
                    t.timestamp,
                    t.kind,
                    t.text,
                    *label,
                )
                for s, label in zip(stored, labels, strict=True)
                for t in (s.turn,)
            ]
            try:
                self.db.executemany(
                    f"INSERT INTO turns({_TURN_COLUMNS}, spans) VALUES (?,?,?,?,?,?,?,?,?,?)", rows
                )
            except driver_errors() as exc:
                if "UNIQUE" in str(exc):
                    raise self._duplicate(turns, first) from None
                raise
        return stored

    def _duplicate(self, turns: Sequence[Turn], first_new_key: int) -> DuplicateTurn:
        """The duplicate behind a failed insert; rows of the failed batch have keys >= ``first_new_key``."""
        seen: set[tuple[str, str]] = set()
        for turn in turns:
            key = (turn.episode_id, turn.turn_id)
            if key in seen:
                return DuplicateTurn(*key)
            seen.add(key)
        for turn in turns:
            stored = self.turn_keys(turn.episode_id, [turn.turn_id])
            if stored and stored[turn.turn_id] < first_new_key:
                return DuplicateTurn(turn.episode_id, turn.turn_id)
        return DuplicateTurn("?", "?")  # pragma: no cover - the constraint named a duplicate

    def turn_keys(self, episode_id: str, turn_ids: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for chunk in _chunks(turn_ids):
            rows = self.db.execute(
                f"SELECT turn_id, turn_key FROM turns WHERE episode_id = ? "
                f"AND turn_id IN ({_placeholders(len(chunk))})",
                (episode_id, *chunk),
            )
            found.update(rows)
        return found

    def turns_by_keys(self, keys: Iterable[int]) -> list[StoredTurn]:
        result = []
        for chunk in _chunks(keys):
            rows = self.db.execute(
                f"SELECT {_TURN_COLUMNS} FROM turns WHERE turn_key IN ({_placeholders(len(chunk))})",
                chunk,
            )
            result.extend(_stored_turn(row) for row in rows)
        return sorted(result, key=lambda s: s.turn_key)

    def turn_keys_in_sessions(self, sessions: Iterable[tuple[str, str]]) -> list[int]:
        """Keys of every turn in these (episode, session) pairs, in ingest order."""
        keys: list[int] = []
        for chunk in _chunks(sessions, 250):
            condition = " OR ".join(["(episode_id = ? AND session_id = ?)"] * len(chunk))
            params = [value for pair in chunk for value in pair]
            keys.extend(
                row[0] for row in self.db.execute(f"SELECT turn_key FROM turns WHERE {condition}", params)
            )
        return sorted(keys)

    def delete_turns(self, keys: Sequence[int]) -> None:
        """Delete turns; every object derived from them must already be gone.

        Cached LLM replies whose prompts drew on them go in the same transaction.
        """
        with self.db.atomic():
            for chunk in _chunks(keys):
                marks = _placeholders(len(chunk))
                if self.db.scalar(f"SELECT count(*) FROM object_sources WHERE turn_key IN ({marks})", chunk):
                    raise StoreError("delete the objects derived from these turns first")
                self.cache_forget_sources(chunk)
                self.db.execute(f"DELETE FROM turns WHERE turn_key IN ({marks})", chunk)

    # LLM response cache

    def cache_get(self, cache_key: str) -> str | None:
        """The cached reply (JSON text) under ``cache_key``, or None."""
        return self.db.scalar("SELECT response FROM llm_cache WHERE cache_key = ?", (cache_key,))

    def cache_put(self, cache_key: str, response: str, sources: Iterable[int], created_at: str) -> bool:
        """Cache a reply with the turns its prompt drew on; False, storing nothing, when any
        of them is gone (deleted while the model was answering: the reply must not outlive it).
        """
        sources = sorted(set(sources))
        with self.db.atomic():
            for chunk in _chunks(sources):
                stored = self.db.scalar(
                    f"SELECT count(*) FROM turns WHERE turn_key IN ({_placeholders(len(chunk))})", chunk
                )
                if stored < len(chunk):
                    return False
            self.db.execute(
                "INSERT INTO llm_cache(cache_key, response, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT(cache_key) DO UPDATE SET response = excluded.response, "
                "created_at = excluded.created_at",
                (cache_key, response, created_at),
            )
            self.db.executemany(
                "INSERT OR IGNORE INTO llm_cache_sources(cache_key, turn_key) VALUES (?, ?)",
                [(cache_key, turn_key) for turn_key in sources],
            )
        return True

    def cache_forget_sources(self, turn_keys: Iterable[int]) -> int:
        """Delete every cached reply with any of these source turns; returns how many."""
        removed = 0
        with self.db.atomic():
            for chunk in _chunks(turn_keys):
                marks = _placeholders(len(chunk))
                doomed = [
                    row[0]
                    for row in self.db.execute(
                        f"SELECT DISTINCT cache_key FROM llm_cache_sources WHERE turn_key IN ({marks})", chunk
                    )
                ]
                for part in _chunks(doomed):
                    self.db.execute(
                        f"DELETE FROM llm_cache WHERE cache_key IN ({_placeholders(len(part))})", part
                    )
                removed += len(doomed)
        return removed

    # memory objects

    def insert_objects(
        self, drafts: Sequence[ObjectDraft], vectors: np.ndarray, labels: Sequence[int | None] | None = None
    ) -> list[int]:
        """Insert objects with their vectors and label keys; returns their keys."""
        labels = labels if labels is not None else [None] * len(drafts)
        if not len(drafts) == len(vectors) == len(labels):
            raise ValueError("one vector and one label per object draft")
        joined = self.db.in_transaction
        with self.db.atomic():
            first = self._next_key("objects")
            keys = list(range(first, first + len(drafts)))
            self.db.executemany(
                "INSERT INTO objects(object_key, kind, group_id, episode_id, text, observed_at, label_key) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (key, d.kind, d.group_id, d.episode_id, d.text, d.observed_at, label)
                    for key, d, label in zip(keys, drafts, labels, strict=True)
                ],
            )
            self.db.executemany(
                "INSERT INTO object_sources(object_key, turn_key) VALUES (?, ?)",
                [(key, source) for key, d in zip(keys, drafts, strict=True) for source in set(d.source_keys)],
            )
            self._unindexed.update(keys)
            matrix = np.ascontiguousarray(vectors, dtype=np.float32)
            self.db.executemany(
                "INSERT INTO vectors(object_key, embedding) VALUES (?, ?)",
                [(key, row.tobytes()) for key, row in zip(keys, matrix, strict=True)],
            )
            if not joined:
                self.index_pending_text()
        return keys

    def objects_in_groups(
        self, kind: str, group_ids: Iterable[str]
    ) -> list[tuple[int, str, str, tuple[int, ...]]]:
        """(object_key, group_id, text, source turn keys) of a kind's objects in these groups."""
        result = []
        for chunk in _chunks(group_ids):
            rows = self.db.execute(
                "SELECT o.object_key, o.group_id, o.text, group_concat(s.turn_key) "
                "FROM objects o JOIN object_sources s ON s.object_key = o.object_key "
                f"WHERE o.kind = ? AND o.group_id IN ({_placeholders(len(chunk))}) "
                "GROUP BY o.object_key",
                (kind, *chunk),
            )
            result.extend(
                (key, group, text, tuple(sorted(int(k) for k in sources.split(","))))
                for key, group, text, sources in rows
            )
        return result

    def objects_derived_from(self, turn_keys: Iterable[int]) -> list[tuple[int, str, str]]:
        result: set[tuple[int, str, str]] = set()
        for chunk in _chunks(turn_keys):
            rows = self.db.execute(
                "SELECT DISTINCT o.object_key, o.kind, o.group_id FROM object_sources s "
                "JOIN objects o ON o.object_key = s.object_key "
                f"WHERE s.turn_key IN ({_placeholders(len(chunk))})",
                chunk,
            )
            result.update(rows)
        return sorted(result)

    def index_pending_text(self) -> None:
        """Put the text of objects inserted in this transaction into the full-text index.

        One ``INSERT ... SELECT`` per run of keys: SQLite tokenizes without calling
        back into Python, so the driver releases the GIL for the whole statement and
        a caller may run this on a thread of its own (never alongside other use of
        this store).
        """
        if not self._unindexed:
            return
        with self.db.atomic():
            for first, last in _runs(sorted(self._unindexed)):
                self.db.execute(
                    "INSERT INTO objects_fts(rowid, text) "
                    "SELECT object_key, text FROM objects WHERE object_key BETWEEN ? AND ?",
                    (first, last),
                )
        self._unindexed.clear()

    def delete_objects(self, keys: Sequence[int]) -> None:
        if not self._unindexed.isdisjoint(keys):
            self.index_pending_text()
        with self.db.atomic():
            for chunk in _chunks(keys):
                marks = _placeholders(len(chunk))
                rows = self.db.execute(
                    f"SELECT object_key, text FROM objects WHERE object_key IN ({marks})", chunk
                )
                self.db.executemany(
                    "INSERT INTO objects_fts(objects_fts, rowid, text) VALUES ('delete', ?, ?)", rows
                )
                self.db.execute(f"DELETE FROM objects WHERE object_key IN ({marks})", chunk)

    def get_objects(self, keys: Sequence[int]) -> dict[int, MemoryObject]:
        """The stored objects among ``keys``, by key."""
        found: dict[int, MemoryObject] = {}
        for chunk in _chunks(keys):
            rows = self.db.execute(
                "SELECT o.object_key, o.kind, o.text, o.episode_id, o.observed_at, o.group_id, "
                "o.label_key, json_group_array(json_array(t.turn_key, t.turn_id)) FROM objects o "
                "JOIN object_sources s ON s.object_key = o.object_key "
                "JOIN turns t ON t.turn_key = s.turn_key "
                f"WHERE o.object_key IN ({_placeholders(len(chunk))}) GROUP BY o.object_key",
                chunk,
            )
            for key, kind, text, episode_id, observed_at, group_id, label_key, sources in rows:
                pairs = sorted(json.loads(sources))
                found[key] = MemoryObject(
                    object_id=f"{kind}-{key}",
                    kind=kind,
                    text=text,
                    episode_id=episode_id,
                    sources=tuple(sorted(turn_id for _, turn_id in pairs)),
                    observed_at=observed_at,
                    group_id=group_id,
                    label_key=label_key,
                    source_keys=tuple(turn_key for turn_key, _ in pairs),
                )
        return found

    # retrieval support

    def lexical_search(
        self,
        match: str,
        limit: int,
        kinds: Sequence[str] | None = None,
        as_of: str | None = None,
        labels: Sequence[int] | None = None,
        allowed_keys: bytes | None = None,
    ) -> list[tuple[int, float]]:
        """BM25 over FTS5: (object_key, score) best first, higher is better.

        ``labels`` restricts the search to objects with these label keys;
        ``allowed_keys`` to the object keys whose byte in it is non-zero. The
        latter is checked per match inside the query, before the top ``limit`` are
        taken, at a cost per match rather than per label or per object.
        """
        self.index_pending_text()
        if allowed_keys is not None:
            with self._allowed_lock:
                self._allowed = allowed_keys
                try:
                    return self._lexical_search(match, limit, kinds, as_of, labels, True)
                finally:
                    self._allowed = None
        return self._lexical_search(match, limit, kinds, as_of, labels, False)

    def _allowed_key(self, key: int) -> int:
        allowed = self._allowed
        return 1 if allowed is not None and 0 <= key < len(allowed) and allowed[key] else 0

    def _lexical_search(
        self,
        match: str,
        limit: int,
        kinds: Sequence[str] | None,
        as_of: str | None,
        labels: Sequence[int] | None,
        by_key: bool,
    ) -> list[tuple[int, float]]:
        joins, conditions, params = "", ["objects_fts MATCH ?"], [match]
        if by_key:
            if not self._allowed_registered:
                self.db.create_function("govmem_allowed_key", self._allowed_key, 1)
                self._allowed_registered = True
            conditions.append("govmem_allowed_key(objects_fts.rowid)")
        if kinds is not None or as_of is not None or labels is not None:
            joins = " JOIN objects o ON o.object_key = objects_fts.rowid"
        if kinds is not None:
            conditions.append(f"o.kind IN ({_placeholders(len(kinds))})")
            params.extend(kinds)
        if as_of is not None:
            conditions.append("(o.observed_at IS NULL OR o.observed_at <= ?)")
            params.append(as_of)
        if labels is not None:
            conditions.append("coalesce(o.label_key, 0) IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(list(labels)))
        rows = self.db.execute(
            f"SELECT objects_fts.rowid, bm25(objects_fts) FROM objects_fts{joins} "
            f"WHERE {' AND '.join(conditions)} ORDER BY bm25(objects_fts) LIMIT ?",
            (*params, limit),
        )
        return [(key, -score) for key, score in rows]

    def tokenize(self, text: str) -> set[str]:
        """The terms lexical search indexes ``text`` under (FTS5's own tokenizer when exposed)."""
        tokenize = self.db.fts5_tokenizer(FTS_TOKENIZER)
        if tokenize is None:
            return set(re.findall(r"\w+", text.lower()))
        return set(tokenize(text))

    def document_frequencies(self, words: Sequence[str]) -> dict[str, int] | None:
        """How many objects each word (as FTS5 tokenizes it) occurs in; None if unknown.

        Needs FTS5's own tokenizer to find the indexed form of a word, which only
        the apsw driver exposes.
        """
        self.index_pending_text()
        tokenize = self.db.fts5_tokenizer(FTS_TOKENIZER)
        if tokenize is None:
            return None
        frequencies = {}
        for word in words:
            tokens = tokenize(word)
            counts = [
                self.db.scalar("SELECT doc FROM objects_vocab WHERE term = ?", (token,)) or 0
                for token in tokens
            ]
            frequencies[word] = min(counts, default=0)
        return frequencies

    def iter_vectors(
        self, batch: int = 65536
    ) -> Iterator[tuple[np.ndarray, np.ndarray, list[str], list[str | None], np.ndarray]]:
        """Batches of (keys, float32 matrix, kinds, observed_at, label keys) for every vector."""
        rows = self.db.iterate(
            "SELECT v.object_key, v.embedding, o.kind, o.observed_at, o.label_key FROM vectors v "
            "JOIN objects o ON o.object_key = v.object_key ORDER BY v.object_key"
        )
        for chunk in _chunks(rows, batch):
            keys = np.fromiter((row[0] for row in chunk), dtype=np.int64, count=len(chunk))
            blob = b"".join(row[1] for row in chunk)
            matrix = np.frombuffer(blob, dtype=np.float32).reshape(len(chunk), -1)
            labels = np.fromiter((row[4] or 0 for row in chunk), dtype=np.int64, count=len(chunk))
            yield keys, matrix, [row[2] for row in chunk], [row[3] for row in chunk], labels

    # labels and governance state

    def intern_labels(self, facet_sets: Sequence[frozenset[tuple[str, str]]]) -> list[int]:
        """The label key of each facet set, adding the new ones."""
        canonical = [json.dumps(sorted(facets), separators=(",", ":")) for facets in facet_sets]
        known = self._label_keys(set(canonical))
        new = sorted(set(canonical) - known.keys())
        if new:
            with self.db.atomic():
                self.db.executemany("INSERT INTO labels(facets) VALUES (?)", [(c,) for c in new])
            known.update(self._label_keys(set(new)))
        return [known[c] for c in canonical]

    def _label_keys(self, canonical: set[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for chunk in _chunks(canonical):
            rows = self.db.execute(
                f"SELECT facets, label_key FROM labels WHERE facets IN ({_placeholders(len(chunk))})", chunk
            )
            found.update(rows)
        return found

    def labels_since(self, after: int) -> list[tuple[int, frozenset[tuple[str, str]]]]:
        """(label key, facets) of every label with a key above ``after``."""
        rows = self.db.execute(
            "SELECT label_key, facets FROM labels WHERE label_key > ? ORDER BY label_key", (after,)
        )
        return [(key, frozenset(tuple(f) for f in json.loads(facets))) for key, facets in rows]

    def turn_spans(self, keys: Iterable[int]) -> dict[int, tuple[str, str, list[tuple[int, int, int]]]]:
        """(speaker, text, [(start, end, label key)]) of each turn, by key."""
        found = {}
        for chunk in _chunks(keys):
            rows = self.db.execute(
                "SELECT turn_key, speaker_id, text, spans, label_key FROM turns "
                f"WHERE turn_key IN ({_placeholders(len(chunk))})",
                chunk,
            )
            for key, speaker, text, spans, label_key in rows:
                parsed = [tuple(s) for s in json.loads(spans)] if spans else [(0, len(text), label_key or 0)]
                found[key] = (speaker, text, parsed)
        return found

    def iter_turns(self, batch: int = 4096) -> Iterator[list[StoredTurn]]:
        """Every turn in ingest order, in batches (safe to update turns between batches)."""
        after = 0
        while rows := self.db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE turn_key > ? ORDER BY turn_key LIMIT ?", (after, batch)
        ):
            yield [_stored_turn(row) for row in rows]
            after = rows[-1][0]

    def episode_turns(self, episode_id: str) -> list[StoredTurn]:
        """Every turn of one episode in ingest order (the ``turns_by_session`` index
        starts with the episode)."""
        rows = self.db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE episode_id = ? ORDER BY turn_key", (episode_id,)
        )
        return [_stored_turn(row) for row in rows]

    def set_turn_labels(self, rows: Sequence[tuple[int, int, str]]) -> None:
        """(turn key, label key, spans JSON) for existing turns."""
        with self.db.atomic():
            self.db.executemany(
                "UPDATE turns SET label_key = ?, spans = ? WHERE turn_key = ?",
                [(label, spans, key) for key, label, spans in rows],
            )

    def rewrite_turns(self, rows: Sequence[tuple[int, str, int | None, str | None]]) -> None:
        """(turn key, new text, label key, spans JSON) for existing turns, whose objects
        the caller derives again; cached LLM replies drawn from the old text go."""
        with self.db.atomic():
            self.db.executemany(
                "UPDATE turns SET text = ?, label_key = ?, spans = ? WHERE turn_key = ?",
                [(text, label, spans, key) for key, text, label, spans in rows],
            )
            self.cache_forget_sources([key for key, *_ in rows])

    def turns_containing(
        self, episode_id: str, needles: Sequence[str], through: int | None = None
    ) -> list[int]:
        """Keys of the episode's turns whose text may hold a needle (case-insensitive), up
        to turn key ``through``; a coarse filter the caller confirms. A needle beyond
        ASCII, which SQLite cannot fold, matches every turn."""
        if not needles:
            return []
        if not all(n.isascii() for n in needles):  # SQLite's lower() folds ASCII only: take them all
            needles = [""]
        condition = " OR ".join(["instr(lower(text), ?) > 0"] * len(needles))
        params: list = [episode_id, *(n.lower() for n in needles)]
        limit = ""
        if through is not None:
            limit, params = " AND turn_key <= ?", [*params, through]
        rows = self.db.execute(
            f"SELECT turn_key FROM turns WHERE episode_id = ? AND ({condition}){limit} ORDER BY turn_key",
            params,
        )
        return [row[0] for row in rows]

    def add_tombstones(
        self, entries: Iterable[tuple[int, str]], episode_id: str | None, kinds: Sequence[str], event_key: int
    ) -> None:
        """Remember forgotten items as (token count, digest), with the kinds of thing they were."""
        with self.db.atomic():
            self._governance_changed()
            self.db.executemany(
                "INSERT INTO tombstones(words, digest, episode_id, kinds, event_key) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(digest, episode_id) DO UPDATE SET kinds = excluded.kinds",
                [
                    (words, digest, episode_id or "", json.dumps(sorted(kinds)), event_key)
                    for words, digest in entries
                ],
            )

    def add_deleted_turns(self, rows: Iterable[tuple[str, str, str]], at: str) -> None:
        """Remember deleted turns as (episode, turn id, sha256 of the text)."""
        with self.db.atomic():
            self.db.executemany(
                "INSERT INTO deleted_turns(episode_id, turn_id, text_sha256, deleted_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(episode_id, turn_id) DO UPDATE SET text_sha256 = excluded.text_sha256, "
                "deleted_at = excluded.deleted_at",
                [(episode_id, turn_id, digest, at) for episode_id, turn_id, digest in rows],
            )

    def deleted_turns(self, episode_id: str, turn_ids: Sequence[str]) -> dict[str, str]:
        """Turn id -> text digest, for the given ids that were deleted from the episode."""
        if not self.db.scalar("SELECT EXISTS (SELECT 1 FROM deleted_turns)"):
            return {}
        found: dict[str, str] = {}
        for chunk in _chunks(turn_ids):
            rows = self.db.execute(
                "SELECT turn_id, text_sha256 FROM deleted_turns "
                f"WHERE episode_id = ? AND turn_id IN ({_placeholders(len(chunk))})",
                (episode_id, *chunk),
            )
            found.update(dict(rows))
        return found

    def tombstones(self, episode_id: str | None = None) -> tuple[frozenset[tuple[int, str]], frozenset[str]]:
        """(token count, digest) of every forgotten item (of one episode, or store-wide ones
        too), and the kinds of thing they were."""
        rows = self.db.execute(
            "SELECT words, digest, kinds FROM tombstones WHERE episode_id IN ('', ?)",
            (episode_id or "",),
        )
        kinds = {kind for _, _, listed in rows for kind in json.loads(listed)}
        return frozenset((words, digest) for words, digest, _ in rows), frozenset(kinds)

    def forgotten_kinds(self) -> frozenset[str]:
        """The kinds of thing any deletion here has forgotten ("pin", "code", ...)."""
        rows = self.db.execute("SELECT DISTINCT kinds FROM tombstones")
        return frozenset(kind for (listed,) in rows for kind in json.loads(listed))

    def checkpoint(self) -> bool:
        """Copy the write-ahead log into the database file and truncate it; False when
        another connection still reads an older snapshot (or writes).

        It does not wait for them (the busy timeout would stall a forget for ten seconds
        behind any open read): the checkpoint is then owed, and tried again after this
        store's next write or read and when it closes. Until then the database file and
        the log still hold the pages as they were, erased text included.
        """
        if self.db.in_transaction:
            self._checkpoint_owed = True
            return False
        timeout = self.db.scalar("PRAGMA busy_timeout")
        self.db.execute("PRAGMA busy_timeout = 0")
        try:
            busy, _, _ = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")[0]
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {int(timeout)}")
        self._checkpoint_owed = busy != 0
        return busy == 0

    def source_labels(self) -> Iterator[tuple[int, list[int]]]:
        """(object key, label keys of its source turns) for every object."""
        rows = self.db.execute(
            "SELECT s.object_key, group_concat(coalesce(t.label_key, 0)) FROM object_sources s "
            "JOIN turns t ON t.turn_key = s.turn_key GROUP BY s.object_key"
        )
        for key, labels in rows:
            yield key, [int(label) for label in str(labels).split(",")]

    def set_object_labels(self, rows: Sequence[tuple[int, int]]) -> None:
        with self.db.atomic():
            self.db.executemany(
                "UPDATE objects SET label_key = ? WHERE object_key = ?", [(label, key) for key, label in rows]
            )

    def last_turn_labels(self, episode_ids: Iterable[str]) -> dict[str, int]:
        """The label key of the last span of each episode's latest governed turn."""
        found = {}
        for episode_id in episode_ids:
            row = self.db.execute(
                "SELECT spans FROM turns WHERE episode_id = ? AND spans IS NOT NULL "
                "ORDER BY turn_key DESC LIMIT 1",
                (episode_id,),
            )
            if row:
                found[episode_id] = json.loads(row[0][0])[-1][2]
        return found

    def record_event(
        self,
        kind: str,
        payload: dict,
        effective_at: str | None,
        recorded_at: str,
        source: str = "api",
        source_turn_key: int | None = None,
    ) -> int:
        with self.db.atomic():
            self._governance_changed()
            self.db.execute(
                "INSERT INTO governance_events(kind, effective_at, recorded_at, payload, source, "
                "source_turn_key) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    effective_at,
                    recorded_at,
                    json.dumps(payload, sort_keys=True),
                    source,
                    source_turn_key,
                ),
            )
            return int(self.db.scalar("SELECT last_insert_rowid()"))

    def events(self) -> list[dict]:
        rows = self.db.execute(
            "SELECT event_key, kind, effective_at, recorded_at, payload, source, source_turn_key "
            "FROM governance_events ORDER BY coalesce(effective_at, recorded_at), event_key"
        )
        names = ("event_key", "kind", "effective_at", "recorded_at", "payload", "source", "source_turn_key")
        return [dict(zip(names, (*row[:4], json.loads(row[4]), *row[5:]), strict=True)) for row in rows]

    def add_receipt(self, receipt: dict, event_key: int | None) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO receipts(event_key, receipt) VALUES (?, ?)",
                (event_key, json.dumps(receipt, sort_keys=True)),
            )

    def receipts(self) -> list[dict]:
        """Every stored receipt, oldest first."""
        rows = self.db.execute("SELECT receipt FROM receipts ORDER BY receipt_key")
        return [json.loads(receipt) for (receipt,) in rows]

    def insert_grant(self, grant: Grant, event_key: int) -> int:
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO grants(grantor_id, grantee_id, subject_id, tags, valid_from, valid_until, "
                "revocable, event_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    grant.grantor,
                    grant.grantee,
                    grant.subject_id,
                    json.dumps(sorted(grant.tags)),
                    grant.valid_from,
                    grant.valid_until,
                    int(grant.revocable),
                    event_key,
                ),
            )
            return int(self.db.scalar("SELECT last_insert_rowid()"))

    def get_grant(self, grant_id: int) -> Grant | None:
        found = self._grants("WHERE grant_key = ?", (grant_id,))
        return found[0] if found else None

    def grants_for(self, grantee: str) -> list[Grant]:
        """Every grant ever made to ``grantee``, revoked and expired ones included."""
        return self._grants("WHERE grantee_id = ?", (grantee,))

    def _grants(self, where: str, params: tuple) -> list[Grant]:
        rows = self.db.execute(
            "SELECT grantor_id, grantee_id, subject_id, tags, valid_from, valid_until, revocable, "
            f"revoked_at, grant_key FROM grants {where} ORDER BY grant_key",
            params,
        )
        return [
            Grant(g, e, s, tuple(json.loads(t)), vf, vu, bool(r), ra, key)
            for g, e, s, t, vf, vu, r, ra, key in rows
        ]

    def revoke_grant(self, grant_id: int, at: str) -> None:
        with self.db.atomic():
            self._governance_changed()
            self.db.execute(
                "UPDATE grants SET revoked_at = ? "
                "WHERE grant_key = ? AND (revoked_at IS NULL OR revoked_at > ?)",
                (at, grant_id, at),
            )

    def log_decision(self, row: dict) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO decision_log(decided_at, requester_id, surface, query_sha256, as_of, action, "
                "returned, withheld, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row["decided_at"],
                    row["requester_id"],
                    row["surface"],
                    row.get("query_sha256"),
                    row.get("as_of"),
                    row["action"],
                    json.dumps(row["returned"]),
                    json.dumps(row["withheld"]),
                    json.dumps(row["rules"]),
                ),
            )

    def decisions(self, limit: int = 100) -> list[dict]:
        rows = self.db.execute(
            "SELECT decision_key, decided_at, requester_id, surface, query_sha256, as_of, action, returned, "
            "withheld, rules FROM decision_log ORDER BY decision_key DESC LIMIT ?",
            (limit,),
        )
        names = ("decision_key", "decided_at", "requester_id", "surface", "query_sha256", "as_of", "action")
        return [
            dict(zip(names, row[:7], strict=True))
            | {"returned": json.loads(row[7]), "withheld": json.loads(row[8]), "rules": json.loads(row[9])}
            for row in rows
        ]

    def governance_version(self) -> int:
        """A number that changes whenever principals, relationships or grants change."""
        return int(self.get_meta("governance_version") or 0)

    def last_label_key(self) -> int:
        """The newest label's key: labels are only ever added (0 when there are none)."""
        return int(self.db.scalar("SELECT coalesce(max(label_key), 0) FROM labels"))

    def _governance_changed(self) -> None:
        self.db.execute(
            "INSERT INTO meta(key, value) VALUES ('governance_version', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def object_keys(self, after: int, limit: int, kinds: Sequence[str] | None = None) -> list[int]:
        """Up to ``limit`` object keys above ``after``, in order (paging for export)."""
        sql, params = "SELECT object_key FROM objects WHERE object_key > ?", [after]
        if kinds is not None:
            sql += f" AND kind IN ({_placeholders(len(kinds))})"
            params.extend(kinds)
        return [row[0] for row in self.db.execute(sql + " ORDER BY object_key LIMIT ?", (*params, limit))]

    def counts_of(self, table: str) -> int:
        if table not in ("principals", "relationships", "turns", "objects", "vectors", "grants"):
            raise ValueError(f"no table {table!r} to count")
        return int(self.db.scalar(f"SELECT count(*) FROM {table}"))

    def counts(self) -> dict[str, int]:
        counts = {
            table: int(self.db.scalar(f"SELECT count(*) FROM {table}"))
            for table in ("principals", "relationships", "turns", "objects", "vectors")
        }
        for kind, n in self.db.execute("SELECT kind, count(*) FROM objects GROUP BY kind"):
            counts[f"objects.{kind}"] = int(n)
        counts["episodes"] = int(self.db.scalar("SELECT count(DISTINCT episode_id) FROM turns"))
        return counts
