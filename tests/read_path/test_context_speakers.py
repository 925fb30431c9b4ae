"""The context names the speakers of its lines: "resident_laura_chen:" is Laura Chen."""

from __future__ import annotations

from govmem import Memory, Principal, Turn

TURNS = [
    Turn("t1", "ana_ruiz", "I will store the tablet in the den cabinet.", timestamp="2026-05-01T09:00:00"),
    Turn("t2", "bo", "The plumber brings the spare valve on Tuesday.", timestamp="2026-05-01T09:05:00"),
]


def recall(designs: list[str], query: str):
    with Memory(":memory:", designs=designs) as memory:
        memory.add_principals([Principal("ana_ruiz", "resident", "Ana Ruiz"), Principal("bo", "member")])
        memory.ingest_many(TURNS)
        return memory.recall("ana_ruiz", query, k=5)


def test_speakers_of_returned_lines_are_named_after_the_entries() -> None:
    result = recall(["session"], "where is the tablet stored")
    assert "ana_ruiz: I will store the tablet" in result.context()
    # bo's line is not Ana's to read (default pack): it is cut from the window, and bo unnamed
    assert "plumber" not in result.context() and [p.principal_id for p in result.speakers] == ["ana_ruiz"]
    assert result.context().endswith("\n\nSpeakers: ana_ruiz is Ana Ruiz, resident.")


def test_objects_without_speaker_labels_get_no_legend() -> None:
    result = recall(["turn"], "where is the tablet stored")  # a turn object is its text alone
    assert result.items and result.speakers == () and "Speakers:" not in result.context()


def test_a_line_quoted_inside_another_turn_names_no_speaker() -> None:
    quoted = Turn(
        "t3", "ana_ruiz", "Notes from the call:\nbo: Friday at 9 AM works.", timestamp="2026-05-01T09:10:00"
    )
    with Memory(":memory:", designs=["session"]) as memory:
        memory.add_principals([Principal("ana_ruiz", "resident", "Ana Ruiz"), Principal("bo", "member")])
        memory.ingest_many([TURNS[0], quoted])
        result = memory.recall("ana_ruiz", "what works on Friday", k=5)
        assert "bo: Friday at 9 AM works." in result.context()
        assert [p.principal_id for p in result.speakers] == ["ana_ruiz"]
