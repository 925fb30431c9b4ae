"""What the summary, narrative and fact tests share: a small household, and the
closure, batch-size and recall checks every derived design must pass."""

from __future__ import annotations

import re

import numpy as np

import govmem.api.memory as memory_module
from conftest import dump_tables
from govmem import Memory, Principal, Turn
from govmem.bench.synthetic import PRINCIPALS, synthetic_turns
from govmem.models import StoredTurn

EPISODE = "home"
SECRET = "4417"
SECRET_TURN = "t2"

HOME = [
    Turn("t1", "bo", "My address is 12 Oak Street.", EPISODE, "2026-03-09T09:00", session_id="s1"),
    Turn(
        "t2",
        "ana",
        f"The gate code is {SECRET}, please keep it private.",
        EPISODE,
        "2026-03-09T09:05",
        session_id="s1",
    ),
    Turn("t3", "bo", "I moved to Porto last spring.", EPISODE, "2026-03-09T09:10", session_id="s1"),
    Turn(
        "t4",
        "ana",
        "Dinner on Friday is lentil soup; Carla is bringing dessert.",
        EPISODE,
        "2026-03-10T18:00",
        session_id="s2",
    ),
    Turn(
        "t5",
        "bo",
        "My dentist appointment is on Tuesday at 9:30 am.",
        EPISODE,
        "2026-03-10T18:05",
        session_id="s2",
    ),
    Turn("t6", "carla", "My locker number is 2291.", EPISODE, "2026-04-02T10:00", session_id="s3"),
    Turn("t7", "ana", "I prefer the window seat on trains.", EPISODE, "2026-04-02T10:05", session_id="s3"),
]


def household(designs: list[str], turns: list[Turn] = HOME) -> Memory:
    memory = Memory(":memory:", designs=designs)
    memory.add_principals(
        [Principal("ana", "member"), Principal("bo", "member"), Principal("carla", "member")]
    )
    memory.ingest_many(turns)
    return memory


def stored(
    key: int, speaker: str, text: str, timestamp: str | None = None, session: str = "s1"
) -> StoredTurn:
    return StoredTurn(key, Turn(f"t{key}", speaker, text, EPISODE, timestamp, session_id=session), session)


def objects(memory: Memory, kind: str) -> dict[int, tuple[str, str, tuple[str, ...]]]:
    """(group, text, source turn ids) of every object of ``kind``, by key."""
    keys = [
        row[0] for row in memory.store.db.execute("SELECT object_key FROM objects WHERE kind = ?", (kind,))
    ]
    return {key: (o.group_id, o.text, o.sources) for key, o in memory.store.get_objects(keys).items()}


def rows_with(memory: Memory, needle: str) -> list[tuple[str, object]]:
    """Every (table, row) of the database, FTS shadow tables included, holding ``needle``.

    In text the needle must stand alone: a receipt's random key id or hash may hold "4417"
    by chance (it did once in CI), and that is not the secret.
    """
    alone = re.compile(rf"(?<![0-9A-Za-z]){re.escape(needle)}(?![0-9A-Za-z])")
    found = []
    for table, rows in dump_tables(memory).items():
        for row in rows:
            cells = row if isinstance(row, tuple) else (row,)
            for cell in cells:
                if (isinstance(cell, str) and alone.search(cell)) or (
                    isinstance(cell, bytes) and needle.encode() in cell
                ):
                    found.append((table, row))
    return found


def check_closure(kind: str, survivors: bool = True) -> None:
    """Deleting the secret's turn leaves no row holding the secret; other groups keep their objects.

    ``survivors``: whether the secret's groups had other turns, to be derived again without it.
    """
    memory = household([kind])
    before = objects(memory, kind)
    reached = [text for _, text, sources in before.values() if SECRET in text]
    assert reached, "the secret should reach a derived object"
    assert all(SECRET_TURN in sources for _, text, sources in before.values() if SECRET in text)
    touched = {group for group, _, sources in before.values() if SECRET_TURN in sources}
    (secret,) = memory.store.turns_by_keys(memory.store.turn_keys(EPISODE, [SECRET_TURN]).values())

    memory.delete_turns([SECRET_TURN], EPISODE)

    assert rows_with(memory, SECRET) == []
    assert memory.store.lexical_search(f'"{SECRET}"', 10, None, None) == []
    after = objects(memory, kind)
    untouched = {key: obj for key, obj in before.items() if obj[0] not in touched}
    assert untouched and {key: after.get(key) for key in untouched} == untouched  # same keys, texts, sources
    for _, text, sources in after.values():
        assert SECRET_TURN not in sources
        assert SECRET not in text
    assert bool({group for group, _, _ in after.values() if group in touched}) == survivors
    (deriver,) = memory.derivers  # nor does the deriver remember what it read in the turn
    for memo in (getattr(deriver, "_facts", None), getattr(deriver, "_vectors", None)):
        memo = getattr(memo, "memo", memo)
        assert memo is None or memo.get(secret) is None
    memory.close()


def check_batch_size_invariance(kind: str, monkeypatch, n: int = 300) -> None:
    """Whatever the batch size, one ingest call stores the same objects; without supersession
    detection each is written once. With it (the default), a statement superseded by a turn
    of a later batch has its groups derived again, but the objects stored in the end are the
    same, and so are the supersessions found."""
    turns = list(synthetic_turns(n, turns_per_session=12))

    def ingest(batch: int, supersession: str) -> tuple[list, int, list]:
        monkeypatch.setattr(memory_module, "BATCH", batch)
        with Memory(":memory:", designs=[kind], detect_supersession=supersession) as memory:
            memory.add_principals(Principal(p, "member") for p in PRINCIPALS)
            report = memory.ingest_many(turns)
            used = memory.store.db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'objects'")
            found = sorted((s["old"], tuple(s["span"]), s["new"], s["whole"]) for s in report.superseded)
            return sorted(objects(memory, kind).values()), used - report.objects_added, found

    for supersession in ("off", "statements"):
        whole, _, found = ingest(4096, supersession)
        split, rewritten, found_split = ingest(37, supersession)  # groups straddle batches and interleave
        assert split == whole
        assert found_split == found
        if supersession == "off":
            assert rewritten == 0  # no group derived in one batch and replaced in the next
        else:
            assert rewritten == 0 or found  # only a supersession derives a group again

        def in_calls(size: int, supersession: str = supersession) -> list:
            with Memory(":memory:", designs=[kind], detect_supersession=supersession) as memory:
                memory.add_principals(Principal(p, "member") for p in PRINCIPALS)
                for start in range(0, n, size):
                    memory.ingest_many(turns[start : start + size])
                return sorted(objects(memory, kind).values())

        assert in_calls(41) == whole  # and so does ingesting in many calls


def check_recall_by_design(kind: str) -> None:
    """``design=kind`` returns that design's objects only, from a store keeping several."""
    memory = household(["turn", "summary", "narrative", "fact"])
    everything = memory.recall("bo", "address Oak Street Porto dentist", k=40)
    assert len({item.kind for item in everything.items}) > 1  # the same text in two designs comes once
    result = memory.recall("bo", "address Oak Street Porto dentist", k=40, design=kind)
    assert result.items and {item.kind for item in result.items} == {kind}
    memory.close()


def unit(vectors: list[list[float]]) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
