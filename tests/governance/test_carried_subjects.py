"""What the talk is about does not pass through a deletion request or a turn erased whole."""

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
AT = "2026-05-12T08:0{}:00"
TURNS = [
    Turn("t1", "rina", "Lena's private note remains private.", "e1", AT.format(0)),
    Turn("t2", "rina", "Please delete Derek's old door code 5532 from active memory.", "e1", AT.format(1)),
    Turn("t3", "rina", "The new side door code is 8841.", "e1", AT.format(2)),
    Turn(
        "t4", "emma", "The old code 5532 is gone, Derek.", "e1", AT.format(3)
    ),  # erased whole: 5532 is forgotten
    Turn("t5", "emma", "Keep service access and private notes from getting mixed.", "e1", AT.format(4)),
]


def facets_by_turn(memory: Memory) -> dict[str, list[frozenset]]:
    keys = memory.store.turn_keys("e1", [t.turn_id for t in TURNS])
    spans = memory.store.turn_spans(list(keys.values()))
    return {
        turn_id: [memory._facets_of([label])[label] for _, _, label in spans[key][2]]
        for turn_id, key in keys.items()
        if key in spans
    }


def ingested(batches: Sequence[Sequence[Turn]]) -> tuple[dict[str, list[frozenset]], Memory]:
    memory = Memory(":memory:", policy="household")
    memory.add_principals(PEOPLE)
    for batch in batches:
        memory.ingest_many(batch)
    return facets_by_turn(memory), memory


def test_whom_a_deletion_request_names_does_not_own_the_next_sentence() -> None:
    labels, memory = ingested([TURNS])
    assert "t2" not in labels and "t4" not in labels  # erased whole at ingest
    assert all("derek" not in {s for s, _ in facets} for facets in labels["t3"])
    result = memory.recall("derek", "What is the side door code?", as_of="2026-05-13T00:00:00")
    assert "8841" not in result.context()
    memory.close()


@pytest.mark.parametrize("split", [1, 2, 3, 4])
def test_labels_do_not_depend_on_how_turns_were_batched(split: int) -> None:
    together, memory = ingested([TURNS])
    memory.close()
    apart, memory = ingested([TURNS[:split], TURNS[split:]])
    memory.close()
    one_by_one, memory = ingested([[t] for t in TURNS])
    memory.close()
    assert apart == together and one_by_one == together
