"""Turn memory: one object per source turn, its text verbatim."""

from __future__ import annotations

import numpy as np
from derived_checks import check_closure

from govmem import Memory, Turn
from govmem.designs import DESIGNS, TurnDeriver, make_derivers
from govmem.models import StoredTurn
from statement_marks import current

EPISODE = "demo_maple_clinic"


def stored(key: int, turn_id: str, text: str, timestamp: str | None = None) -> StoredTurn:
    return StoredTurn(key, Turn(turn_id, "ana", text, episode_id="e", timestamp=timestamp), "s")


def test_make_derivers() -> None:
    assert {"turn", "session"} <= set(DESIGNS)
    derivers = make_derivers(["session", "turn"])
    assert [d.kind for d in derivers] == ["session", "turn"]


def test_groups_are_turn_keys() -> None:
    deriver = TurnDeriver()
    assert deriver.groups_of([stored(3, "a", "x"), stored(7, "b", "y")]) == {"3", "7"}


def test_derive_is_verbatim() -> None:
    (draft,) = TurnDeriver().derive(
        "3", [stored(3, "a", "  Verbatim text, kept as is.\n", "2026-01-01T00:00:00")]
    )
    assert draft.kind == "turn"
    assert draft.group_id == "3"
    assert draft.episode_id == "e"
    assert draft.text == "  Verbatim text, kept as is.\n"
    assert draft.source_keys == (3,)
    assert draft.observed_at == "2026-01-01T00:00:00"
    assert TurnDeriver().derive("3", []) == []


def test_members_use_known_turns_and_read_the_rest(memory: Memory) -> None:
    deriver = TurnDeriver()
    known = {1: stored(1, "fake", "not read from the store")}
    members = deriver.members(memory.store, {"1", "2", "9999"}, known)
    assert members["1"] == [known[1]]
    assert [t.turn.turn_id for t in members["2"]] == ["t002"]
    assert members["9999"] == []


def test_every_demo_turn_has_one_verbatim_object(memory: Memory) -> None:
    """Verbatim but for what the episode itself revised later: a statement superseded
    whole is left out, one superseded in part is marked (the demo's two dose changes)."""
    turns = memory.store.turns_by_keys(range(1, 64))
    assert len(turns) == 63
    revised = memory.store.superseded_statements(range(1, 64), "9999")
    assert sorted(turn.turn.turn_id for turn in turns if turn.turn_key in revised) == ["t008", "t015"]
    for turn in turns:
        objects = [
            o for o in memory.derived_from("agent_maplecare", turn.turn.turn_id, EPISODE) if o.kind == "turn"
        ]
        assert len(objects) == 1
        (obj,) = objects
        assert obj.text == current(turn.turn.text, revised.get(turn.turn_key, ())).strip()
        assert obj.sources == (turn.turn.turn_id,)
        assert obj.observed_at == turn.turn.timestamp
        assert obj.episode_id == EPISODE


def test_turn_vector_is_the_embedding_of_its_text(memory: Memory) -> None:
    rows = memory.store.db.execute(
        "SELECT o.text, v.embedding FROM objects o JOIN vectors v USING (object_key) WHERE o.kind = 'turn'"
    )
    texts = [text for text, _ in rows]
    stored_vectors = np.stack([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
    expected = memory.embedder.embed_documents(texts)
    np.testing.assert_allclose(stored_vectors, expected, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(stored_vectors, axis=1), 1.0, atol=1e-5)


def test_turn_only_store(db_path: str) -> None:
    with Memory(db_path, designs=["turn"]) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest_many([Turn("a", "ana", "first"), Turn("b", "ana", "second")])
        counts = memory.stats()["counts"]
        assert counts["objects"] == counts["objects.turn"] == 2
        assert "objects.session" not in counts
        report = memory.delete_turns(["a"])
        assert (report.objects_removed, report.objects_added) == (1, 0)
        assert memory.stats()["counts"]["objects"] == 1


def test_deleting_a_secret_leaves_no_trace() -> None:
    check_closure("turn", survivors=False)  # a turn object's only source is its turn
