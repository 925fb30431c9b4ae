"""Replaying a deleted or erased source turn (the same id and text again, as an upstream
log would) does not bring its secret back on any read surface, in any design.

``forget`` leaves tombstones (digests of the items), which erase the secret from turns
ingested later. ``delete_turns`` leaves none, so a replay of a turn it deleted is
stored again: that is marked as an expected failure below, naming the gap.
"""

from __future__ import annotations

import pytest

from designs.derived_checks import rows_with
from govmem import DuplicateTurn, Memory, NotVisible, Principal, Turn
from govmem.errors import InputError

EPISODE = "home"
DESIGNS = ["turn", "session", "summary", "narrative", "fact"]
VAULT = "ZQUORBLAX-5831-WINTERMOTH"
FILLER = [
    Turn(f"t{i}", "bo", f"Routine note {i} about the garden and the bins.", EPISODE, f"2026-05-01T09:{i:02d}")
    for i in range(8)
]
ONLY = Turn("x1", "ana", f"My vault phrase is {VAULT}.", EPISODE, "2026-05-01T10:00")  # erased whole
MIXED = Turn(  # keeps its first sentence
    "x2", "ana", f"The boiler is fixed. The vault phrase is still {VAULT}.", EPISODE, "2026-05-01T10:05"
)


def household(design: str) -> Memory:
    memory = Memory(":memory:", designs=[design])
    memory.add_principals([Principal("ana", "member"), Principal("bo", "member")])
    memory.ingest_many([*FILLER, ONLY, MIXED])
    return memory


def holds(text: str) -> bool:
    return "wintermoth" in text.lower() or "zquorblax" in text.lower()


def surfaces(memory: Memory, object_ids: list[str]) -> list[str]:
    """Where the secret can still be read: recall, export, get of the given ids, provenance."""
    found = []
    for requester in ("ana", "bo"):
        recalled = memory.recall(requester, f"what is the vault phrase {VAULT}?", k=50)
        found += [f"recall {i.object_id}" for i in recalled.items if holds(i.text)]
        found += [f"export {i.object_id}" for i in memory.export(requester) if holds(i.text)]
        for object_id in object_ids:
            try:
                item = memory.get(requester, object_id)
            except NotVisible:
                continue
            if holds(item.text):
                found.append(f"get {object_id}")
    found += [
        f"row of {table}"
        for needle in (VAULT, "WINTERMOTH", "wintermoth")
        for table, _ in rows_with(memory, needle)
    ]
    return found


def holding_ids(memory: Memory) -> list[str]:
    return [item.object_id for item in memory.export("ana") if holds(item.text)]


@pytest.mark.parametrize("design", DESIGNS)
def test_a_replay_after_forget_does_not_resurrect_the_secret(design: str) -> None:
    with household(design) as memory:
        before = holding_ids(memory)
        assert before, "the design should keep the secret"
        memory.forget([VAULT], EPISODE, requested_by="ana")
        assert surfaces(memory, before) == []

        memory.ingest_many([ONLY])  # same id and text as the turn the forget deleted
        assert memory.store.turn_keys(EPISODE, ["x1"]) == {}  # erased whole again: not stored
        with pytest.raises(DuplicateTurn):  # its erased remainder is still stored under this id
            memory.ingest_many([MIXED])
        memory.ingest_many([Turn("x2-again", MIXED.speaker, MIXED.text, EPISODE, MIXED.timestamp)])
        (text,) = memory.store.db.execute("SELECT text FROM turns WHERE turn_id = 'x2-again'")
        assert text == ("The boiler is fixed.",)

        after = [item.object_id for item in memory.export("ana")]
        assert surfaces(memory, before + after) == []
        with pytest.raises(InputError):
            memory.derived_from("ana", "x1", EPISODE)


def test_a_replay_under_new_ids_into_the_reopened_store_stores_no_secret(tmp_path) -> None:
    """The tombstones are in the store file: an upstream log replayed under new ids after
    reopening is stored without the secret's sentences."""
    path = str(tmp_path / "m.db")
    with Memory(path, designs=["session"]) as memory:
        memory.add_principals([Principal("ana", "member"), Principal("bo", "member")])
        memory.ingest_many([*FILLER, ONLY, MIXED])
        memory.forget([VAULT], EPISODE)
    with Memory(path) as reopened:
        replay = [Turn(f"{t.turn_id}-r", t.speaker, t.text, EPISODE, t.timestamp) for t in (ONLY, MIXED)]
        reopened.ingest_many(replay)
        texts = dict(reopened.store.db.execute("SELECT turn_id, text FROM turns WHERE turn_id LIKE 'x%'"))
        assert texts == {"x2": "The boiler is fixed.", "x2-r": "The boiler is fixed."}
        assert surfaces(reopened, []) == []


@pytest.mark.parametrize("design", ["turn", "session"])
def test_a_replay_after_delete_turns_does_not_resurrect_the_turn(design: str) -> None:
    with household(design) as memory:
        before = holding_ids(memory)
        memory.delete_turns(["x1", "x2"], EPISODE)
        assert surfaces(memory, before) == []
        memory.ingest_many([ONLY, MIXED])  # the upstream log, replayed
        after = [item.object_id for item in memory.export("ana")]
        assert surfaces(memory, before + after) == []


def test_a_refused_replay_is_reported_and_a_new_text_under_the_old_id_is_stored() -> None:
    with household("turn") as memory:
        memory.delete_turns(["x1"], EPISODE)
        report = memory.ingest_many([ONLY])
        assert (report.turns, report.replays_refused) == (0, ["x1"])
        fresh = Turn("x1", "ana", "The plumber comes on Tuesday.", EPISODE, "2026-05-02T09:00")
        report = memory.ingest_many([fresh])
        assert (report.turns, report.replays_refused) == (1, [])
        assert [item.text for item in memory.export("ana") if item.sources == ("x1",)] == [fresh.text]


def test_turn_tombstones_survive_reopening(tmp_path) -> None:
    path = tmp_path / "home.db"
    with Memory(path, designs=["turn"]) as memory:
        memory.add_principals([Principal("ana", "member")])
        memory.ingest_many([ONLY])
        memory.delete_turns(["x1"], EPISODE)
    with Memory(path, designs=["turn"]) as memory:
        assert memory.ingest_many([ONLY]).replays_refused == ["x1"]
        assert memory.store.counts()["turns"] == 0
