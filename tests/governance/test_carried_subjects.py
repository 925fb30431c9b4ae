"""What the talk is about carries from turn to turn the same way in one call or many."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from govmem import Memory, Turn
from govmem.models import Principal

PEOPLE = [
    Principal("rina", "primary_resident", "Rina Cho"),
    Principal("lena", "adult_child", "Lena Cho"),
    Principal("derek", "technician", "Derek Lin"),
    Principal("emma", "household_manager", "Emma Cross"),
]
TURNS = [
    Turn("t1", "rina", "Lena's private note remains private.", "e1", "2026-05-12T08:00:00"),
    # a deletion request: erased whole at ingest, so no stored sentence is left of it
    Turn(
        "t2",
        "rina",
        "Please delete Derek's old door code 5532 from active memory.",
        "e1",
        "2026-05-12T08:01:00",
    ),
    Turn(
        "t3", "emma", "Keep service access and private notes from getting mixed.", "e1", "2026-05-12T08:02:00"
    ),
    Turn("t4", "emma", "Separately: the cleaning window is Monday 9:30.", "e1", "2026-05-12T08:03:00"),
]


def facets_by_turn(memory: Memory) -> dict[str, list[frozenset]]:
    keys = memory.store.turn_keys("e1", [t.turn_id for t in TURNS])
    spans = memory.store.turn_spans(list(keys.values()))
    return {
        turn_id: [memory._facets_of([label])[label] for _, _, label in spans[key][2]]
        for turn_id, key in keys.items()
        if key in spans
    }


def ingested(batches: Sequence[Sequence[Turn]], path: str = ":memory:") -> dict[str, list[frozenset]]:
    with Memory(path, policy="household") as memory:
        memory.add_principals(PEOPLE)
        for batch in batches:
            memory.ingest_many(batch)
        return facets_by_turn(memory)


@pytest.mark.parametrize("split", [1, 2, 3])
def test_labels_do_not_depend_on_how_turns_were_batched(split: int) -> None:
    together = ingested([TURNS])
    assert "t2" not in together  # the request is erased whole
    assert ingested([TURNS[:split], TURNS[split:]]) == together
    assert ingested([[t] for t in TURNS]) == together


def test_the_carried_subject_survives_reopening_the_store(tmp_path) -> None:
    path = str(tmp_path / "home.db")
    with Memory(path, policy="household") as memory:
        memory.add_principals(PEOPLE)
        memory.ingest_many(TURNS[:2])
    with Memory(path, policy="household") as memory:
        memory.ingest_many(TURNS[2:])
        reopened = facets_by_turn(memory)
    assert reopened == ingested([TURNS])
