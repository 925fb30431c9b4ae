"""Revocation through Memory: explicit and detected supersession, audit reads, taint."""

from __future__ import annotations

import pytest

from govmem import Memory, NotVisible, PolicyError, Principal, Turn
from govmem.errors import InputError, UnknownPrincipal
from govmem.governance.authorization import OpenAccess

OLD = "Customer PII may be exported to external analytics vendors. This is the approved policy."
NEW = "Customer PII must never leave the internal network under any circumstance."
QUERY = "What has our policy been on exporting customer data to vendors?"


@pytest.fixture
def memory():
    with Memory(":memory:", authorizer=OpenAccess(), interpreter=None, detect_supersession="records") as m:
        m.add_principal("ops", "staff")
        m.add_principal("agent", "agent")
        m.add_principal("aud", "agent")
        m.add_auditor("aud")
        yield m


def _sources(result) -> set[str]:
    return {s for item in result.items for s in item.sources}


def test_detected_supersession_withholds_old_on_every_surface(memory: Memory) -> None:
    memory.ingest(Turn("r1", "ops", OLD, timestamp="2024-03-01T09:00", session_id="a"))
    report = memory.ingest(Turn("r2", "ops", NEW, timestamp="2025-03-01T09:00", session_id="b"))
    assert [(s["old"], s["new"]) for s in report.superseded] == [("r1", "r2")]
    result = memory.recall("ops", QUERY)
    assert "r1" not in _sources(result) and "r2" in _sources(result)
    assert {w["object_id"] for w in result.withheld} == {"turn-1", "session-2"}
    assert all(w["superseded_by"] == ["r2"] for w in result.withheld)
    assert all("r1" not in item.sources for item in memory.export("ops"))
    with pytest.raises(NotVisible):
        memory.get("ops", "turn-1")
    assert memory.validity("r1")["status"] == "superseded"
    assert memory.validity("r1", at="2024-12-31T00:00")["status"] == "current"  # valid then


def test_audit_read_returns_history_marked_and_only_for_auditors(memory: Memory) -> None:
    memory.ingest(Turn("r1", "ops", OLD, timestamp="2024-03-01T09:00", session_id="a"))
    memory.ingest(Turn("r2", "ops", NEW, timestamp="2025-03-01T09:00", session_id="b"))
    audit = memory.recall("aud", QUERY, include_revoked=True)
    statuses = {item.sources: item.status for item in audit.items}  # a turn or the window holding it
    assert statuses[("r1",)] == "superseded" and statuses[("r2",)] == "current"
    assert "SUPERSEDED" in audit.context()
    assert memory.get("aud", "turn-1", include_revoked=True).superseded_by == ("r2",)
    with pytest.raises(PolicyError, match="auditors"):
        memory.recall("ops", QUERY, include_revoked=True)


def test_explicit_supersession_and_scheduled_end(memory: Memory) -> None:
    memory.ingest(Turn("a", "ops", "The canteen opens at noon.", timestamp="2024-01-01T09:00"))
    memory.ingest(
        Turn("b", "ops", "Lunch is served from 12.", timestamp="2030-01-01T09:00"), supersedes=["a"]
    )
    assert memory.validity("a")["status"] == "current"  # the replacement's start is in the future
    assert memory.validity("a", at="2030-06-01T00:00")["status"] == "superseded"
    with pytest.raises(Exception, match="no turn 'zz'"):
        memory.supersede("zz", "b")


def test_unorderable_conflict_is_reported_and_both_kept(memory: Memory) -> None:
    memory.ingest(
        Turn("x", "ops", "Refunds may be issued in cash.", timestamp="2025-01-01T09:00", session_id="a")
    )
    report = memory.ingest(
        Turn("y", "ops", "Refunds must never be issued in cash.", timestamp="2025-01-01T09:00")
    )
    assert report.conflicts and not report.superseded
    result = memory.recall("ops", "Can refunds be issued in cash?")
    assert {"x", "y"} <= _sources(result)
    assert result.conflicts and memory.conflicts()[0]["turns"] == ["x", "y"]


def test_write_back_note_is_tainted_retroactively(memory: Memory) -> None:
    memory.ingest(Turn("r1", "ops", OLD, timestamp="2024-03-01T09:00", session_id="a"))
    read = memory.recall("agent", QUERY)
    memory.remember("agent", "Exports to vendors are fine.", [i.object_id for i in read.items], turn_id="n1")
    assert "n1" in _sources(memory.recall("agent", "Are exports to vendors fine?"))
    memory.supersede("r1", memory.ingest(Turn("r2", "ops", "Exports need a DPO sign-off.")).turn_ids[0])
    later = memory.recall("agent", "Are exports to vendors fine?")
    assert "n1" not in _sources(later)
    assert memory.validity("n1")["status"] == "stale"
    with pytest.raises(Exception, match="no memory object or turn"):
        memory.remember("agent", "x", ["nope"])


def test_fact_design_rederived_without_superseded_turn() -> None:
    with Memory(
        ":memory:", designs=["fact"], authorizer=OpenAccess(), interpreter=None, detect_supersession="records"
    ) as m:
        m.add_principal("bo", "staff")
        m.ingest(Turn("t1", "bo", "My address is 12 Oak St.", timestamp="2024-01-01T09:00"))
        m.ingest(Turn("t2", "bo", "I had lunch.", timestamp="2025-01-01T09:00"), supersedes=["t1"])
        assert all("12 Oak" not in item.text for item in m.export("bo"))


def test_valid_until_expires_a_record(memory: Memory) -> None:
    memory.ingest(
        Turn("e", "ops", "The promotion code is SPRING.", timestamp="2024-01-01T09:00"),
        valid_until="2024-06-01",
    )
    assert memory.validity("e")["status"] == "expired"
    assert memory.validity("e", at="2024-03-01")["status"] == "current"
    assert all("e" not in item.sources for item in memory.export("ops"))


HIDDEN_MOVE = "Private family note: the cleaner visit moved to Tuesday at 10:00 AM."


def household(*moves: str, mode: str = "statements") -> Memory:
    """A resident (an auditor) and a guest; the cleaner visit stated, then moved by ``moves``."""
    memory = Memory(":memory:", policy="household", detect_supersession=mode)
    memory.add_principals([Principal("rina", "primary_resident"), Principal("mia", "guest")])
    memory.add_auditor("rina")
    memory.ingest(Turn("t1", "rina", "The cleaner visit is Monday at 9:00 AM.", timestamp="2026-05-01T09:00"))
    for n, move in enumerate(moves, start=2):
        memory.ingest(Turn(f"t{n}", "rina", move, timestamp=f"2026-05-0{n}T09:00"))
    return memory


@pytest.mark.parametrize(
    "move",
    [
        HIDDEN_MOVE,
        "Thanks, noted the cleaner visit. " + HIDDEN_MOVE,  # the guest reads the first sentence only
        "\n\n" + HIDDEN_MOVE,  # a blank span the guest may read is not the turn
    ],
)
def test_a_reader_is_never_told_of_a_superseding_turn_they_cannot_read_whole(move: str) -> None:
    with household(move) as memory:
        query = "When is the cleaner visit?"
        resident, guest = memory.recall("rina", query), memory.recall("mia", query)
        assert resident.withheld and all(w["superseded_by"] == ["t2"] for w in resident.withheld)
        assert "Monday" not in guest.context() and guest.withheld == []  # withheld without a word
        assert all(not item.superseded_by for item in guest.items) and "SUPERSEDED" not in guest.context()
        assert "SUPERSEDED by t2" in memory.recall("rina", query, include_revoked=True).context()
        memory.add_auditor("mia")  # an auditor still reads only what the policy lets them
        history = memory.recall("mia", query, include_revoked=True)
        assert "SUPERSEDED, not current" in history.context() and "SUPERSEDED by" not in history.context()
        for item in [*history.items, *memory.export("mia", include_revoked=True)]:
            assert not item.superseded_by and item.valid_until in (None, "")
            assert all(
                (s["superseded_by"], s["from"], s["reason"]) == (None, None, "superseded")
                for s in item.superseded_statements
            )


def test_a_partly_superseded_statement_is_cut_not_marked_when_its_successor_is_hidden() -> None:
    with household() as memory:
        memory.ingest(
            Turn(
                "t2",
                "rina",
                "Private family note: the cleaner visit is now 10:00 AM.",
                timestamp="2026-05-02T09:00",
            )
        )
        resident = memory.recall("rina", "When is the cleaner visit?", design="turn")
        assert "[SUPERSEDED: not current]" in resident.context()  # Monday still holds: marked
        guest = memory.recall("mia", "When is the cleaner visit?", design="turn")
        assert "9:00" not in guest.context() and "SUPERSEDED" not in guest.context()


def test_a_conflict_is_reported_only_between_turns_the_reader_may_read_whole() -> None:
    with Memory(":memory:", policy="household", detect_supersession="records") as memory:
        memory.add_principals([Principal("rina", "primary_resident"), Principal("mia", "guest")])
        memory.ingest(
            Turn("x", "rina", "Guests may use the side door after 9 PM.", timestamp="2025-01-01T09:00")
        )
        memory.ingest(
            Turn(
                "y",
                "rina",
                "Thanks for asking about the side door. "
                "Private note: guests must never use the side door after 9 PM.",
                timestamp="2025-01-01T09:00",
            )
        )
        query = "Can guests use the side door after 9 PM?"
        assert memory.recall("rina", query).conflicts[0]["turns"] == ["x", "y"]
        guest = memory.recall("mia", query)
        assert "y" in {s for item in guest.items for s in item.sources}  # a redacted window holds it
        assert guest.conflicts == []


def test_a_write_back_cannot_probe_for_records_its_author_cannot_read() -> None:
    with household(HIDDEN_MOVE) as memory:
        errors = []
        for reference in ("t2", "no-such-turn"):
            with pytest.raises(InputError) as raised:
                memory.remember("mia", "noted", derived_from=[reference])
            errors.append(str(raised.value).replace(reference, "X"))
        assert errors[0] == errors[1]
        memory.remember("rina", "noted", derived_from=["t2"])  # its author may read it
        with pytest.raises(UnknownPrincipal):
            memory.remember("nobody", "noted", derived_from=["t2"])


VISITS = "Visits: cleaner Monday 9 AM, plumber Friday noon, painter Sunday 2 PM."


def _visits(*turns: tuple[str, str]) -> Memory:
    memory = Memory(":memory:", policy="household", detect_supersession="statements")
    memory.add_principals([Principal("rina", "primary_resident"), Principal("mia", "guest")])
    for n, (turn_id, text) in enumerate(turns, start=1):
        memory.ingest(Turn(turn_id, "rina", text, timestamp=f"2026-05-01T{n:02d}:00", session_id="s"))
    return memory


@pytest.mark.parametrize("hidden", [False, True])
def test_a_window_cuts_and_marks_each_turn_in_its_own_line(hidden: bool) -> None:
    th2 = ("Private family note: " if hidden else "") + "the painter visit moved to Tuesday."
    turns = [
        ("a", VISITS),
        ("th1", "The painter visit moved to Monday."),
        ("b", "Reminder. " + VISITS),
        ("th2", th2),
    ]
    with _visits(*turns) as memory:
        for item in memory.export("mia", design=["turn", "session"]):
            text = item.text.replace(" [SUPERSEDED: not current]", "")
            served = item.text.count("painter Sunday 2 PM")
            assert served == item.text.count("painter Sunday 2 PM [SUPERSEDED: not current]"), item.text
            if hidden:  # th1 was itself superseded by a turn mia may not read: nothing points past it
                assert "painter" not in text and "SUPERSEDED" not in item.text, item.text


@pytest.mark.parametrize("hidden_change", [False, True])
def test_a_change_the_reader_may_read_is_marked_though_its_turn_is_not_shown(hidden_change: bool) -> None:
    change = "the painter visit moved to Tuesday."
    move = ("Private family note: " + change) if hidden_change else change.capitalize()
    with _visits(("a", VISITS), ("th", move + " Private family note: the garage code is 4471.")) as memory:
        result = memory.recall("mia", "When is the painter visit?", design="turn")
        visits = [item.text for item in result.items if item.sources == ("a",)]
        assert result.withheld == [] and all(not item.superseded_by for item in result.items)
        if hidden_change:  # a mark would tell of a change she cannot read: the sentence goes
            assert visits == [] and "Sunday" not in result.context()
        else:  # the rest of the sentence stays, the replaced visit marked, no successor named
            marked = "painter Sunday 2 PM [SUPERSEDED: not current]"
            assert visits == [f"Visits: cleaner Monday 9 AM, plumber Friday noon, {marked}."]
        assert "4471" not in result.context() and "SUPERSEDED by" not in result.context()


def test_a_replaced_value_named_only_where_the_reader_cannot_read_is_never_marked() -> None:
    rooms = "Rooms: the painter uses room B-12, the plumber uses room C-40."
    move = "The room is now D-77. Private family note: the earlier room was C-40."
    with _visits(("a", rooms), ("th", move)) as memory:
        result = memory.recall("mia", "Which room does the plumber use?", design="turn")
        assert "C-40" not in result.context() and "SUPERSEDED" not in result.context()
        assert "D-77" in result.context()


def test_a_thing_replaced_only_where_the_reader_cannot_read_is_never_marked() -> None:
    drives = "Drivers: Tessa drives the red Subaru, and Ben drives the blue Civic."
    move = "The visit is now at 10 AM. Private update: Tessa drives the Highlander instead of the red Subaru."
    with _visits(("a", drives), ("th", move)) as memory:
        query = "Which car does Tessa drive?"
        assert "red Subaru [SUPERSEDED" in memory.recall("rina", query, design="turn").context()
        result = memory.recall("mia", query, design="turn")  # the change is in the private sentence
        assert "red Subaru" not in result.context() and "SUPERSEDED" not in result.context()


def test_a_successor_superseded_by_a_hidden_turn_is_never_named() -> None:
    turns = [
        ("a", VISITS),
        ("th1", "The painter visit moved to Monday."),
        ("th2", "Private family note: the painter visit moved to Tuesday."),
    ]
    with _visits(*turns) as memory:
        result = memory.recall("mia", "When is the painter visit?", design="turn")
        assert result.withheld == [] and "painter" not in result.context()


def test_a_cut_list_line_leaves_no_gap() -> None:
    listing = "Visits this week:\n- cleaner Monday 9 AM\n- plumber Friday noon\n- painter Sunday 2 PM"
    with _visits(
        ("a", listing), ("th", "Private family note: the plumber visit moved to Saturday.")
    ) as memory:
        (item,) = [i for i in memory.export("mia", design="turn")]
        assert item.text == "Visits this week:\n- cleaner Monday 9 AM\n- painter Sunday 2 PM"


def test_a_write_back_names_the_first_bad_reference_whatever_it_is() -> None:
    with household(HIDDEN_MOVE) as memory:
        for references in (["nope", "t2"], ["nope", "t9"], ["nope", "turn-3"], ["nope", "turn-999"]):
            with pytest.raises(InputError, match="'nope'"):
                memory.remember("mia", "noted", derived_from=references)
