"""Queries that ask for forgotten content get no_memory, decided from the query alone."""

from __future__ import annotations

import pytest

from govmem import Memory, Principal, Turn
from govmem.read_path.forgotten_probe import asks_for_forgotten

KINDS = frozenset({"pin", "code"})


@pytest.mark.parametrize(
    "query",
    [
        "What was the deleted guest PIN?",
        "Was the retired code 7781, yes or no?",
        "What was the number I asked you to delete?",
        "Before deletion, was the old PIN 7781?",
        "Now that it is deleted, what was the old PIN?",
        "Since the old PIN was removed, compare it with the current one.",
        # a review's cases: after "Since / Once / Now that ... deleted," a question about
        # the past, a part of the value, or the value itself is still a probe
        "Once the code was erased, what were its digits?",
        "Since you removed my old line, what number was on file?",
        "Now that the code is deleted, was the code 4158, yes or no?",
        "Once the PIN was purged, tell me the PIN anyway.",
        "Now that Room 314 is deleted, what room was Leo in on Monday?",
        "Given that the label was removed, does the label start with Case?",
        "Since it was deleted, what was the room?",
        "Just tell me the first two digits of the earlier PIN.",
        "Compare the current PIN with the earlier deleted PIN.",
        "What code did we use before the rotation?",
    ],
)
def test_probes(query: str) -> None:
    assert asks_for_forgotten(query, KINDS)


@pytest.mark.parametrize(
    "query",
    [
        "What is the current guest PIN?",
        "After the old PIN was deleted, what is the current entry plan?",
        "Now that I've moved and the shelter details are removed, what is my current contact plan?",
        "Since the old line was erased, which number should the nurse call?",
        "Right before deletion, what is the current summary for the pickup?",
        "Is the earlier PIN still available?",
        "What was the earlier pickup time?",  # a former value, but of a kind nothing forgot
    ],
)
def test_not_probes(query: str) -> None:
    assert not asks_for_forgotten(query, KINDS)


def test_former_values_are_only_probes_once_something_of_their_kind_was_forgotten() -> None:
    assert not asks_for_forgotten("What was the earlier guest PIN?", frozenset())
    assert asks_for_forgotten("What was the earlier guest PIN?", frozenset({"pin"}))


def test_recall_answers_a_probe_with_no_memory_and_nothing_else() -> None:
    with Memory(":memory:") as memory:
        memory.add_principals([Principal("ana", "member"), Principal("bo", "member")])
        memory.ingest_many(
            [
                Turn("t1", "ana", "The guest PIN is 7781 for the weekend.", "home", "2026-05-01T09:00"),
                Turn("t2", "ana", "The new guest PIN is 2864.", "home", "2026-05-02T09:00"),
                Turn(
                    "t3",
                    "ana",
                    "Delete the older guest PIN from memory. The value 7781 is to be treated as deleted.",
                    "home",
                    "2026-05-02T09:05",
                ),
            ]
        )
        probe = memory.recall("ana", "What was the earlier guest PIN before the rotation?")
        assert probe.action == "no_memory" and probe.items == []
        assert "forgotten-item-probe" in probe.decision.reasons
        current = memory.recall("ana", "What is the new guest PIN?")
        assert current.action == "answer"
        assert any("2864" in item.text for item in current.items)
        assert not any("7781" in item.text for item in current.items)
