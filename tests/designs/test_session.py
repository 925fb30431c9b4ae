"""Session memory: transcript windows of at most ``window`` turns per session."""

from __future__ import annotations

import numpy as np
import pytest
from derived_checks import check_closure

from govmem import Memory, Turn
from govmem.designs import SessionDeriver
from govmem.designs.session import render_line
from govmem.models import StoredTurn

EPISODE = "demo_maple_clinic"


def stored(key: int, text: str, session: str = "s", timestamp: str | None = None, episode: str = "e"):
    turn = Turn(f"t{key}", "ana", text, episode_id=episode, timestamp=timestamp)
    return StoredTurn(key, turn, session)


def session_objects(memory: Memory) -> dict[int, tuple[str, ...]]:
    keys = [
        row[0] for row in memory.store.db.execute("SELECT object_key FROM objects WHERE kind = 'session'")
    ]
    return {key: obj.sources for key, obj in memory.store.get_objects(keys).items()}


def test_window_must_hold_a_turn() -> None:
    with pytest.raises(ValueError, match="at least one turn"):
        SessionDeriver(window=0)


def test_render_line() -> None:
    assert (
        render_line(stored(1, "Hello.", timestamp="2026-01-01T09:00:00"))
        == "[2026-01-01T09:00:00] ana: Hello."
    )
    assert render_line(stored(1, "Hello.")) == "ana: Hello."


def test_groups_are_episode_and_session() -> None:
    deriver = SessionDeriver()
    groups = deriver.groups_of(
        [stored(1, "a"), stored(2, "b"), stored(3, "c", session="other"), stored(4, "d", episode="e2")]
    )
    assert len(groups) == 3


def test_derive_cuts_windows_in_order() -> None:
    turns = [stored(k, f"line {k}", timestamp=f"2026-01-01T09:0{k}:00") for k in range(1, 8)]
    drafts = SessionDeriver(window=3).derive("g", turns)
    assert [d.source_keys for d in drafts] == [(1, 2, 3), (4, 5, 6), (7,)]
    assert drafts[0].text == "\n".join(render_line(t) for t in turns[:3])
    assert [d.observed_at for d in drafts] == [
        "2026-01-01T09:03:00",
        "2026-01-01T09:06:00",
        "2026-01-01T09:07:00",
    ]
    assert {d.kind for d in drafts} == {"session"}
    assert {d.group_id for d in drafts} == {"g"}
    assert SessionDeriver().derive("g", []) == []


def test_demo_sessions_are_days_cut_into_windows_of_twelve(memory: Memory) -> None:
    windows = sorted(session_objects(memory).values())
    sizes = [len(w) for w in windows]
    assert sizes == [12, 9, 12, 12, 1, 12, 5]
    assert windows[0][0] == "t001"
    assert windows[1] == tuple(f"t{i:03d}" for i in range(13, 22))  # the rest of 9 March
    assert windows[4] == ("t046",)
    assert windows[6] == tuple(f"t{i:03d}" for i in range(59, 64))


def test_session_id_wins_over_the_day_and_undated_turns_share_a_session(db_path: str) -> None:
    with Memory(db_path, designs=["session"]) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest_many(
            [
                Turn("a", "ana", "one", timestamp="2026-01-01T09:00"),
                Turn("b", "ana", "two", timestamp="2026-01-02T09:00", session_id="visit-1"),
                Turn("c", "ana", "three", timestamp="2026-01-01T23:00", session_id="visit-1"),
                Turn("d", "ana", "four"),
                Turn("e", "ana", "five"),
            ]
        )
        assert sorted(session_objects(memory).values()) == [("a",), ("b", "c"), ("d", "e")]


def test_appending_changes_only_the_last_window(db_path: str) -> None:
    with Memory(db_path) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest_many([Turn(f"a{i:02d}", "ana", f"note {i}", session_id="s") for i in range(12)])
        (first,) = session_objects(memory)
        memory.ingest(Turn("a12", "ana", "note 12", session_id="s"))
        windows = session_objects(memory)
        assert len(windows) == 2
        assert windows[first] == tuple(f"a{i:02d}" for i in range(12))  # same key, untouched
        memory.ingest(Turn("a13", "ana", "note 13", session_id="s"))
        windows = session_objects(memory)
        assert first in windows
        assert sorted(windows.values())[1] == ("a12", "a13")


def test_window_vector_is_a_unit_vector_near_its_turns(memory: Memory) -> None:
    rows = memory.store.db.execute(
        "SELECT o.object_key, v.embedding FROM objects o JOIN vectors v USING (object_key) "
        "WHERE o.kind = 'session'"
    )
    sources = session_objects(memory)
    turn_vectors = {
        obj.sources[0]: np.frombuffer(blob, dtype=np.float32)
        for (key, blob) in memory.store.db.execute(
            "SELECT o.object_key, v.embedding FROM objects o JOIN vectors v USING (object_key) "
            "WHERE o.kind = 'turn'"
        )
        for obj in memory.store.get_objects([key]).values()
    }
    for key, blob in rows:
        vector = np.frombuffer(blob, dtype=np.float32)
        assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
        inside = np.mean([vector @ turn_vectors[t] for t in sources[key]])
        outside = np.mean([vector @ v for t, v in turn_vectors.items() if t not in sources[key]])
        assert inside > outside


@pytest.mark.parametrize(
    ("episode_id", "session_id"),
    [
        ('["x", "y"]', 'q"z'),
        ("é p", "ß"),
        ("ep", "a\x1fb"),
        pytest.param(
            "a\x1fb",
            "s",
        ),
    ],
)
def test_any_episode_and_session_id_gets_windows(db_path: str, episode_id: str, session_id: str) -> None:
    with Memory(db_path) as memory:
        memory.add_principal("ana", "nurse")
        turns = [
            Turn(f"t{i}", "ana", f"note {i}", episode_id=episode_id, session_id=session_id) for i in range(3)
        ]
        memory.ingest_many(turns)
        assert sorted(session_objects(memory).values()) == [("t0", "t1", "t2")]
        memory.delete_turns(["t1"], episode_id)
        assert sorted(session_objects(memory).values()) == [("t0", "t2")]


def test_deleting_a_secret_leaves_no_trace() -> None:
    check_closure("session")  # the window is cut again from the session's other turns
