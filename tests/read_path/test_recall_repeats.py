"""Recall never hands the same sentences twice: a turn inside a returned window is dropped."""

from __future__ import annotations

from govmem import Memory, Principal, Turn

TURNS = [
    Turn("t1", "ana", "The boiler service is booked for Tuesday at 9 am.", timestamp="2026-05-01T09:00:00"),
    Turn("t2", "bo", "The plumber will bring the spare valve.", timestamp="2026-05-01T09:05:00"),
    Turn("t3", "ana", "The garden gate needs a new latch.", timestamp="2026-05-01T09:10:00"),
]


def test_no_returned_object_is_contained_in_another() -> None:
    with Memory(":memory:", designs=["turn", "session"]) as memory:
        memory.add_principals([Principal("ana", "member"), Principal("bo", "member")])
        memory.ingest_many(TURNS)
        every = memory.recall("ana", "boiler service plumber valve", k=50)
        sources = [set(item.sources) for item in every.items]
        assert any(len(s) > 1 for s in sources)  # the session window is among them
        for i, mine in enumerate(sources):
            assert not any(mine <= other for j, other in enumerate(sources) if j != i), every.items
        window = next(s for s in sources if len(s) > 1)
        assert not any(s < window for s in sources)  # none of its turns beside it
