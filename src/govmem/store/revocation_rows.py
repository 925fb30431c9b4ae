"""Revocation state in SQLite (schema v6, v8): validity, supersession of turns and of
statements inside turns, derivations, conflicts, auditors.

A mixin of :class:`~govmem.store.sqlite_engine.SQLiteStore`; every table keys on
turns (the source records) and goes with them when they are deleted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from govmem.store.connection import Database

_CHUNK = 500


def _chunks(items: Iterable, size: int = _CHUNK) -> Iterable[list]:
    chunk: list = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _marks(n: int) -> str:
    return ",".join("?" * n)


class RevocationRows:
    db: Database

    def supersede_turns(self, rows: Sequence[tuple[int, int, str, str, int | None]]) -> None:
        """(old key, new key, from when, reason, event key): the old record stops being
        current at that moment; an earlier supersession already recorded stands."""
        with self.db.atomic():
            self.db.executemany(
                "INSERT INTO validity(turn_key, superseded_by, superseded_at, reason, event_key) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(turn_key) DO UPDATE SET "
                "superseded_at = excluded.superseded_at, superseded_by = excluded.superseded_by, "
                "reason = excluded.reason, event_key = excluded.event_key "
                "WHERE validity.superseded_at IS NULL OR excluded.superseded_at < validity.superseded_at",
                rows,
            )

    def set_valid_until(self, turn_key: int, valid_until: str | None) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO validity(turn_key, valid_until) VALUES (?, ?) "
                "ON CONFLICT(turn_key) DO UPDATE SET valid_until = excluded.valid_until",
                (turn_key, valid_until),
            )

    def validity_rows(self, keys: Iterable[int]) -> dict[int, tuple]:
        """turn key -> (valid_from, valid_until, superseded_at, superseded_by turn id, reason)
        for the turns among ``keys`` that have a row."""
        found: dict[int, tuple] = {}
        for chunk in _chunks(sorted(set(keys))):
            rows = self.db.execute(
                "SELECT v.turn_key, v.valid_from, v.valid_until, v.superseded_at, t.turn_id, v.reason "
                "FROM validity v LEFT JOIN turns t ON t.turn_key = v.superseded_by "
                f"WHERE v.turn_key IN ({_marks(len(chunk))})",
                chunk,
            )
            found.update((row[0], tuple(row[1:])) for row in rows)
        return found

    def superseded_keys(self, keys: Iterable[int], at: str) -> set[int]:
        """The turns among ``keys`` superseded or expired at or before ``at``."""
        found: set[int] = set()
        for chunk in _chunks(sorted(set(keys))):
            rows = self.db.execute(
                f"SELECT turn_key FROM validity WHERE turn_key IN ({_marks(len(chunk))}) AND "
                "(superseded_at <= ? OR valid_until <= ?)",
                (*chunk, at, at),
            )
            found.update(row[0] for row in rows)
        return found

    def has_revocation_state(self) -> bool:
        """False on a store with no supersession, expiry, derivation or conflict (reads skip the check)."""
        return bool(
            self.db.scalar(
                "SELECT EXISTS (SELECT 1 FROM validity) OR EXISTS (SELECT 1 FROM derivations) "
                "OR EXISTS (SELECT 1 FROM conflicts) OR EXISTS (SELECT 1 FROM superseded_statements)"
            )
        )

    def supersede_statements(
        self, rows: Sequence[tuple[int, int, int, str, int, str, bool, int | None]]
    ) -> None:
        """(turn key, start, end, from when, new turn key, reason, whole, event key): the
        statement at start:end of the turn stops being current then; an earlier record stands."""
        with self.db.atomic():
            self.db.executemany(
                "INSERT INTO superseded_statements(turn_key, start_char, end_char, superseded_at, "
                "superseded_by, reason, whole, event_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(turn_key, start_char) DO UPDATE SET end_char = excluded.end_char, "
                "superseded_at = excluded.superseded_at, superseded_by = excluded.superseded_by, "
                "reason = excluded.reason, whole = excluded.whole, event_key = excluded.event_key "
                "WHERE excluded.superseded_at < superseded_statements.superseded_at",
                rows,
            )

    def superseded_statements(
        self, keys: Iterable[int], at: str
    ) -> dict[int, list[tuple[int, int, str | None, str, str, bool]]]:
        """turn key -> [(start, end, superseding turn id, from when, reason, whole)] of the
        statements of ``keys`` superseded at or before ``at``, in text order."""
        found: dict[int, list[tuple[int, int, str | None, str, str, bool]]] = {}
        for chunk in _chunks(sorted(set(keys))):
            rows = self.db.execute(
                "SELECT s.turn_key, s.start_char, s.end_char, t.turn_id, s.superseded_at, s.reason, s.whole "
                "FROM superseded_statements s LEFT JOIN turns t ON t.turn_key = s.superseded_by "
                f"WHERE s.turn_key IN ({_marks(len(chunk))}) AND s.superseded_at <= ? "
                "ORDER BY s.turn_key, s.start_char",
                (*chunk, at),
            )
            for key, *rest in rows:
                found.setdefault(key, []).append((*rest[:5], bool(rest[5])))
        return found

    def move_statements(self, turn_key: int, kept: Sequence[tuple[int, int, int]]) -> None:
        """After a turn's text was rewritten keeping (old start, old end, new start) pieces:
        carry its superseded statements onto the new text; a statement not kept whole goes
        (its words were erased)."""
        with self.db.atomic():
            rows = self.db.execute(
                "SELECT start_char, end_char, superseded_at, superseded_by, reason, whole, event_key "
                "FROM superseded_statements WHERE turn_key = ?",
                (turn_key,),
            )
            self.db.execute("DELETE FROM superseded_statements WHERE turn_key = ?", (turn_key,))
            moved = []
            for start, end, *rest in rows:
                for old_start, old_end, new_start in kept:
                    if old_start <= start and end <= old_end:
                        shift = new_start - old_start
                        moved.append((turn_key, start + shift, end + shift, *rest))
                        break
            self.db.executemany(
                "INSERT OR IGNORE INTO superseded_statements(turn_key, start_char, end_char, superseded_at, "
                "superseded_by, reason, whole, event_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                moved,
            )

    def add_derivations(self, turn_key: int, source_keys: Iterable[int]) -> None:
        with self.db.atomic():
            self.db.executemany(
                "INSERT OR IGNORE INTO derivations(turn_key, source_turn_key) VALUES (?, ?)",
                [(turn_key, source) for source in sorted(set(source_keys)) if source != turn_key],
            )

    def ancestors(self, keys: Iterable[int]) -> dict[int, set[int]]:
        """Every turn each of ``keys`` was derived from, transitively (only keys that have any)."""
        found: dict[int, set[int]] = {}
        for chunk in _chunks(sorted(set(keys))):
            rows = self.db.execute(
                "WITH RECURSIVE up(start, source) AS ("
                f" SELECT turn_key, source_turn_key FROM derivations WHERE turn_key IN ({_marks(len(chunk))})"
                " UNION SELECT up.start, d.source_turn_key FROM up"
                " JOIN derivations d ON d.turn_key = up.source"
                ") SELECT start, source FROM up",
                chunk,
            )
            for start, source in rows:
                found.setdefault(start, set()).add(source)
        return found

    def add_conflicts(self, rows: Sequence[tuple[int, int, Sequence[str], str]]) -> None:
        """(first key, second key, signal names, detected at): a pair that could not be ordered."""
        with self.db.atomic():
            self.db.executemany(
                "INSERT OR IGNORE INTO conflicts(first_turn_key, second_turn_key, reasons, detected_at) "
                "VALUES (?, ?, ?, ?)",
                [(min(a, b), max(a, b), json.dumps(list(reasons)), at) for a, b, reasons, at in rows],
            )

    def conflicts_among(
        self, keys: Iterable[int] | None = None
    ) -> list[tuple[int, int, str, str, list[str]]]:
        """(first key, second key, first turn id, second turn id, reasons) of unresolved
        conflicts, all of them or those touching ``keys``."""
        sql = (
            "SELECT c.first_turn_key, c.second_turn_key, a.turn_id, b.turn_id, c.reasons FROM conflicts c "
            "JOIN turns a ON a.turn_key = c.first_turn_key JOIN turns b ON b.turn_key = c.second_turn_key"
        )
        if keys is None:
            rows = self.db.execute(sql + " ORDER BY c.conflict_key")
        else:
            rows = []
            for chunk in _chunks(sorted(set(keys))):
                marks = _marks(len(chunk))
                rows.extend(
                    self.db.execute(
                        sql + f" WHERE c.first_turn_key IN ({marks}) OR c.second_turn_key IN ({marks})",
                        (*chunk, *chunk),
                    )
                )
        return [(a, b, ta, tb, json.loads(reasons)) for a, b, ta, tb, reasons in rows]

    def episode_turn_texts(
        self, episode_id: str, before: int | None = None, speakers: bool = False
    ) -> list[tuple]:
        """(turn key, timestamp, text) of the episode's turns (below key ``before``), with
        the speaker last when ``speakers``."""
        columns = "turn_key, timestamp, text" + (", speaker_id" if speakers else "")
        sql, params = f"SELECT {columns} FROM turns WHERE episode_id = ?", [episode_id]
        if before is not None:
            sql, params = sql + " AND turn_key < ?", [*params, before]
        return [tuple(row) for row in self.db.execute(sql + " ORDER BY turn_key", params)]

    def add_auditor(self, principal_id: str) -> None:
        with self.db.atomic():
            self.db.execute("INSERT OR IGNORE INTO auditors(principal_id) VALUES (?)", (principal_id,))

    def is_auditor(self, principal_id: str) -> bool:
        return bool(self.db.scalar("SELECT count(*) FROM auditors WHERE principal_id = ?", (principal_id,)))
