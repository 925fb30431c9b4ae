"""After forgetting or deleting, the erased text is in no byte of the store's files,
write-ahead log included, even while the store stays open."""

from __future__ import annotations

from pathlib import Path

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
