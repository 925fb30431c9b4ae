"""After forgetting or deleting, the erased text is in no byte of the store's files,
write-ahead log included, even while the store stays open.

The files are read whole, so free pages are scanned too; this holds for every design,
for text that had reached the database file and text still only in the log, and, once
it is done, for a reader that held an older snapshot meanwhile. A process killed between
an erasure's commit and its checkpoint is covered in ``test_killed_deletion.py``.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from govmem import Memory, Principal, Turn

SECRET = "ZQX-4417-KESTREL"


def files_holding(path: Path, needles: list[bytes]) -> dict[str, list[bytes]]:
    found: dict[str, list[bytes]] = {}
    for file in path.parent.glob(path.name + "*"):
        data = file.read_bytes()
        hits = [n for n in needles if n in data]
        if hits:
            found[file.name] = hits
    return found


def filler(n: int) -> list[Turn]:
    return [
        Turn(
            f"t{i}",
            "ana",
            f"Routine note {i} about the garden and the bins.",
            "home",
            f"2026-05-01T09:{i:02d}",
        )
        for i in range(n)
    ]


def needles(secret: str) -> list[bytes]:
    return [secret.encode(), secret.lower().encode(), secret.split("-")[-1].lower().encode()]


def test_forget_leaves_the_secret_in_no_file_of_an_open_store(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(str(path), designs=["turn", "session", "summary", "fact"]) as memory:
        memory.add_principals([Principal("ana", "member")])
        memory.ingest_many([*filler(30), Turn("s1", "ana", f"The gate code is {SECRET}. Keep it.", "home")])
        assert files_holding(path, needles(SECRET))  # the check can see it before
        memory.forget([SECRET], "home", "ana")
        assert files_holding(path, needles(SECRET)) == {}
        memory.ingest_many([Turn("s2", "ana", f"Reminder: {SECRET} opens the gate.", "home")])
        assert files_holding(path, needles(SECRET)) == {}  # the tombstone keeps it out


def test_delete_turns_leaves_the_text_in_no_file_of_an_open_store(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(str(path)) as memory:
        memory.add_principals([Principal("ana", "member")])
        memory.ingest_many([*filler(30), Turn("s1", "ana", f"The gate code is {SECRET}.", "home")])
        memory.delete_turns(["s1"], "home")
        assert files_holding(path, needles(SECRET)) == {}


# every design, the secret both in the database file and in the log, free pages included

DESIGNS = ["turn", "session", "summary", "narrative", "fact"]
VAULT = "ZQUORBLAX-5831-WINTERMOTH"
EARLIER = Turn("v1", "ana", f"My vault phrase is {VAULT}. " * 3, "home", "2026-05-01T08:00", session_id="a")
LATER = Turn(
    "v2", "ana", f"Bring the vault phrase {VAULT} on Friday. The boiler is fixed.", "home", "2026-05-02T08:00"
)
LONG = Turn(  # large enough to fill pages of its own, which go to the free list when it goes
    "v3",
    "ana",
    " ".join(f"Line {i}: the vault phrase is {VAULT}." for i in range(600)),
    "home",
    "2026-05-02T09:00",
)


def vault_needles(memory: Memory) -> list[bytes]:
    """The phrase as written and in lower case, and the terms the full-text index keeps of it."""
    terms = [t for t in memory.store.tokenize(VAULT) if len(t) >= 6]
    assert terms  # "zquorblax", "wintermoth" (after stemming)
    return [VAULT.encode(), VAULT.lower().encode(), *(t.encode() for t in terms)]


def derived_holding(memory: Memory, needle: str) -> set[str]:
    """The kinds of the objects whose text holds ``needle``."""
    rows = memory.store.db.execute("SELECT kind FROM objects WHERE instr(lower(text), ?)", (needle.lower(),))
    return {kind for (kind,) in rows}


@pytest.mark.parametrize("operation", ["forget", "delete_turns"])
@pytest.mark.parametrize("design", DESIGNS)
def test_no_byte_of_the_files_holds_an_erased_text_in_any_design(
    tmp_path: Path, design: str, operation: str
) -> None:
    path = tmp_path / "m.db"
    with Memory(str(path), designs=[design]) as memory:
        memory.add_principals([Principal("ana", "member")])
        memory.ingest_many([*filler(20), EARLIER])
        assert memory.store.checkpoint()  # the earlier disclosure is in the database file
        memory.ingest_many([LATER, LONG])  # the later ones only in the log
        needles = vault_needles(memory)
        assert design in derived_holding(memory, "wintermoth")  # the design kept it
        held = files_holding(path, needles)
        assert set(held) == {"m.db", "m.db-wal"}, held

        if operation == "forget":
            memory.forget([VAULT], "home", "ana")
        else:
            memory.delete_turns(["v1", "v2", "v3"], "home")
        assert memory.store.db.scalar("PRAGMA freelist_count") > 0  # free pages, scanned too
        assert files_holding(path, needles) == {}  # open, log and all
        assert derived_holding(memory, "wintermoth") == set()
        kept = memory.store.turn_keys("home", [t.turn_id for t in filler(20)])
        assert len(kept) == 20  # the rest is still there
    assert files_holding(path, needles) == {}  # closed


def test_a_reader_holding_an_old_snapshot_delays_erasure_but_not_the_forget(tmp_path: Path) -> None:
    """Another connection reading while a forget commits keeps the old pages (it is entitled
    to them) and so the log cannot be emptied; the forget does not wait for it (it used to
    wait out the ten-second busy timeout and then leave the old pages on disk for as long
    as the store stayed open). Once the reader is done, the next read empties the log."""
    apsw = pytest.importorskip("apsw")
    path = tmp_path / "m.db"
    with Memory(str(path), driver="apsw") as memory:
        memory.add_principals([Principal("ana", "member")])
        memory.ingest_many([*filler(20), EARLIER, LATER])
        memory.store.checkpoint()
        needles = vault_needles(memory)
        reader = apsw.Connection(str(path))
        try:
            reader.execute("BEGIN")
            assert reader.execute("SELECT count(*) FROM turns").fetchall() == [(22,)]
            start = time.perf_counter()
            memory.forget([VAULT], "home", "ana")
            assert time.perf_counter() - start < 5  # did not wait for the reader
            assert reader.execute("SELECT count(*) FROM turns").fetchall() == [(22,)]  # its snapshot
            assert files_holding(path, needles)  # the pages its snapshot reads
            reader.execute("COMMIT")
        finally:
            reader.close()
        memory.recall("ana", "garden")  # any read or write of this store finishes the erasure
        assert files_holding(path, needles) == {}
    assert files_holding(path, needles) == {}


@pytest.mark.xfail(
    sqlite3.sqlite_version_info < (3, 44),
    reason="FTS5 before SQLite 3.44 has no secure-delete: the stdlib driver's index keeps the "
    "erased terms in its segments until they are merged (apsw bundles a current SQLite)",
    strict=True,
)
def test_the_sqlite3_driver_leaves_no_term_in_the_files(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(str(path), designs=["turn", "session"], driver="sqlite3") as memory:
        memory.add_principals([Principal("ana", "member")])
        memory.ingest_many([*filler(20), EARLIER, LATER])
        memory.store.checkpoint()
        memory.forget([VAULT], "home", "ana")
        leftover = files_holding(path, [b"zquorblax", b"wintermoth"])
    assert leftover == {}
