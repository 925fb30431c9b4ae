"""SQLiteStore: governance state, turns, objects with provenance, FTS and vectors."""

from __future__ import annotations

import numpy as np
import pytest

from govmem import DuplicateTurn, Memory, Principal, Relationship, StoreError, Turn, UnknownPrincipal
from govmem.models import ObjectDraft
from govmem.store.sqlite_engine import SQLiteStore

DIM = 4


@pytest.fixture
def store(db_path: str):
    store = SQLiteStore(db_path)
    store.put_principals([Principal("ana", "nurse", "Ana"), Principal("bo", "patient")])
    yield store
    store.close()


def vectors(n: int, seed: int = 0) -> np.ndarray:
    matrix = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def turn(turn_id: str, text: str, speaker: str = "ana", episode: str = "e1", **extra) -> Turn:
    return Turn(turn_id, speaker, text, episode_id=episode, **extra)


def draft(kind: str, group: str, text: str, sources: tuple[int, ...], observed: str | None = None):
    return ObjectDraft(kind, group, "e1", text, sources, observed)


def test_file_store_uses_wal_and_foreign_keys(store: SQLiteStore) -> None:
    assert store.db.scalar("PRAGMA journal_mode") == "wal"
    assert store.db.scalar("PRAGMA foreign_keys") == 1


def test_meta_round_trip_and_overwrite(store: SQLiteStore) -> None:
    assert store.get_meta("colour") is None
    store.set_meta("colour", "red")
    store.set_meta("colour", "blue")
    assert store.get_meta("colour") == "blue"


def test_principals_upsert(store: SQLiteStore) -> None:
    store.put_principals([Principal("ana", "clinician", "Dr. Ana")])
    assert store.get_principal("ana") == Principal("ana", "clinician", "Dr. Ana")
    assert store.get_principal("nobody") is None
    assert [p.principal_id for p in store.principals()] == ["ana", "bo"]


def test_relationships_round_trip_and_filter(store: SQLiteStore) -> None:
    store.put_principals([Principal("cy", "family_member")])
    store.put_relationships(
        [
            Relationship("assigned", "ana", "bo", {"scope": ["labs"], "until": "2026-04-01"}),
            Relationship("family", "cy", "bo"),
        ]
    )
    store.put_relationships([Relationship("assigned", "ana", "bo", {"scope": []})])  # upsert
    assert store.relationships() == [
        Relationship("assigned", "ana", "bo", {"scope": []}),
        Relationship("family", "cy", "bo", {}),
    ]
    assert [r.type for r in store.relationships("cy")] == ["family"]
    assert len(store.relationships("bo")) == 2  # as a target
    assert store.relationships("nobody") == []


def test_relationship_with_unknown_principal_stores_nothing(store: SQLiteStore) -> None:
    with pytest.raises(UnknownPrincipal, match="'ghost'") as info:
        store.put_relationships(
            [Relationship("assigned", "ana", "bo"), Relationship("family", "ghost", "bo")]
        )
    assert info.value.principal_id == "ghost"
    assert store.relationships() == []


def test_insert_turns_assigns_keys_in_order(store: SQLiteStore) -> None:
    first = store.insert_turns([turn("a", "one"), turn("b", "two")], ["s", "s"])
    second = store.insert_turns([turn("c", "three", speaker="bo")], ["s2"])
    assert [s.turn_key for s in first + second] == [1, 2, 3]
    assert store.turn_keys("e1", ["a", "c", "zzz"]) == {"a": 1, "c": 3}
    assert store.turn_keys("other", ["a"]) == {}
    stored = store.turns_by_keys([3, 1])
    assert [(s.turn_key, s.turn.turn_id, s.session_id, s.turn.speaker) for s in stored] == [
        (1, "a", "s", "ana"),
        (3, "c", "s2", "bo"),
    ]
    assert store.turn_keys_in_sessions([("e1", "s")]) == [1, 2]
    assert store.turn_keys_in_sessions([("e1", "s2"), ("e1", "s")]) == [1, 2, 3]
    assert store.turn_keys_in_sessions([("e2", "s")]) == []


def test_insert_turns_unknown_speaker_stores_nothing(store: SQLiteStore) -> None:
    with pytest.raises(UnknownPrincipal, match=r"'ghost' \(speaker of turn 'b'\)"):
        store.insert_turns([turn("a", "one"), turn("b", "two", speaker="ghost")], ["s", "s"])
    assert store.counts()["turns"] == 0


def test_insert_turns_duplicates(store: SQLiteStore) -> None:
    store.insert_turns([turn("a", "one")], ["s"])
    with pytest.raises(DuplicateTurn):
        store.insert_turns([turn("b", "two"), turn("a", "again")], ["s", "s"])
    assert store.turn_keys("e1", ["a", "b"]) == {"a": 1}
    with pytest.raises(DuplicateTurn) as info:
        store.insert_turns([turn("c", "x"), turn("c", "y")], ["s", "s"])
    assert info.value.turn_id == "c"
    # the same id in another episode is a different turn
    store.insert_turns([turn("a", "one", episode="e2")], ["s"])
    assert store.counts()["turns"] == 2
    assert store.counts()["episodes"] == 2


def test_duplicate_turn_names_the_duplicate(store: SQLiteStore) -> None:
    store.insert_turns([turn("a", "one")], ["s"])
    with pytest.raises(DuplicateTurn) as info:
        store.insert_turns([turn("b", "two"), turn("a", "again")], ["s", "s"])
    assert (info.value.episode_id, info.value.turn_id) == ("e1", "a")


def test_objects_sources_vectors_and_fts(store: SQLiteStore) -> None:
    store.insert_turns([turn("a", "aspirin daily"), turn("b", "blood clots")], ["s", "s"])
    matrix = vectors(3)
    keys = store.insert_objects(
        [
            draft("turn", "1", "aspirin daily", (1,), "2026-01-01T00:00:00"),
            draft("turn", "2", "blood clots", (2,), "2026-02-01T00:00:00"),
            draft("session", "g", "aspirin daily\nblood clots", (1, 2, 2)),
        ],
        matrix,
    )
    assert keys == [1, 2, 3]
    blobs = dict(store.db.execute("SELECT object_key, embedding FROM vectors"))
    for key, row in zip(keys, matrix, strict=True):
        np.testing.assert_array_equal(np.frombuffer(blobs[key], dtype=np.float32), row)
    objects = store.get_objects([3, 1, 99])
    assert set(objects) == {1, 3}
    assert objects[3].sources == ("a", "b")
    assert objects[3].object_id == "session-3"
    assert objects[1].observed_at == "2026-01-01T00:00:00"
    assert store.objects_in_groups("session", ["g"]) == [(3, "g", "aspirin daily\nblood clots", (1, 2))]
    assert store.objects_in_groups("turn", ["g"]) == []

    # porter stemming: "clot" finds "clots"; kinds, as_of and labels narrow
    assert {k for k, _ in store.lexical_search('"clot"', 10)} == {2, 3}
    assert [k for k, _ in store.lexical_search('"clot"', 10, ["turn"])] == [2]
    assert {k for k, _ in store.lexical_search('"clot"', 10, None, "2026-01-15T00:00:00")} == {3}
    (label,) = store.intern_labels([frozenset({("bo", "clinical")})])
    store.db.execute("UPDATE objects SET label_key = ? WHERE object_key = 3", (label,))
    assert [k for k, _ in store.lexical_search('"clot"', 10, None, None, [label])] == [3]
    assert [k for k, _ in store.lexical_search('"clot"', 10, None, None, [0])] == [2]  # unlabelled is 0
    assert store.lexical_search('"clot"', 10, None, None, []) == []
    assert all(score > 0 for _, score in store.lexical_search('"aspirin" OR "clot"', 10))

    batches = list(store.iter_vectors(batch=2))
    assert [b[0].tolist() for b in batches] == [[1, 2], [3]]
    assert batches[0][2] == ["turn", "turn"]
    assert batches[1][3] == [None]
    np.testing.assert_array_equal(np.concatenate([b[1] for b in batches]), matrix)

    with pytest.raises(StoreError, match="delete the objects derived"):
        store.delete_turns([1])
    store.delete_objects([3, 1])
    assert store.counts() == {
        "principals": 2,
        "relationships": 0,
        "turns": 2,
        "objects": 1,
        "vectors": 1,
        "objects.turn": 1,
        "episodes": 1,
    }
    assert store.db.scalar("SELECT count(*) FROM object_sources") == 1
    assert store.lexical_search('"aspirin"', 10) == []
    fts_is_consistent(store)
    store.delete_turns([1])
    assert store.turn_keys("e1", ["a", "b"]) == {"b": 2}


def fts_is_consistent(store: SQLiteStore) -> None:
    store.db.execute("INSERT INTO objects_fts(objects_fts, rank) VALUES ('integrity-check', 1)")


def test_text_of_objects_inserted_in_a_transaction_is_indexed_at_commit(store: SQLiteStore) -> None:
    store.insert_turns([turn("a", "aspirin daily"), turn("b", "blood clots")], ["s", "s"])
    with store.transaction():
        keys = store.insert_objects(
            [draft("turn", "1", "aspirin daily", (1,)), draft("turn", "2", "blood clots", (2,))], vectors(2)
        )
        assert store.db.scalar("SELECT count(*) FROM objects_fts WHERE objects_fts MATCH 'blood'") == 0
        store.delete_objects([keys[0]])  # before its text was indexed
        assert [k for k, _ in store.lexical_search('"clot"', 10)] == [keys[1]]  # a search indexes first
        store.insert_objects([draft("turn", "1", "aspirin again", (1,))], vectors(1))
    assert {k for k, _ in store.lexical_search('"aspirin"', 10)} == {keys[1] + 1}
    fts_is_consistent(store)


def test_rolled_back_objects_leave_nothing_to_index(store: SQLiteStore) -> None:
    store.insert_turns([turn("a", "aspirin daily")], ["s"])
    with pytest.raises(RuntimeError), store.transaction():
        store.insert_objects([draft("turn", "1", "aspirin daily", (1,))], vectors(1))
        raise RuntimeError("abandon")
    with store.transaction():
        (key,) = store.insert_objects([draft("turn", "1", "blood clots", (1,))], vectors(1))
    assert store.lexical_search('"aspirin"', 10) == []
    assert [k for k, _ in store.lexical_search('"clot"', 10)] == [key]
    fts_is_consistent(store)


def test_insert_objects_needs_one_vector_per_draft(store: SQLiteStore) -> None:
    store.insert_turns([turn("a", "x")], ["s"])
    with pytest.raises(ValueError, match="one vector and one label per object draft"):
        store.insert_objects([draft("turn", "1", "x", (1,))], vectors(2))
    with pytest.raises(ValueError, match="one vector and one label per object draft"):
        store.insert_objects([draft("turn", "1", "x", (1,))], vectors(1), [None, None])
    assert store.counts_of("objects") == 0


def test_changed_elsewhere_sees_other_connections_only(db_path: str, store: SQLiteStore) -> None:
    assert store.changed_elsewhere() is False
    store.set_meta("mine", "1")
    assert store.changed_elsewhere() is False
    other = SQLiteStore(db_path)
    try:
        other.set_meta("theirs", "1")
    finally:
        other.close()
    assert store.changed_elsewhere() is True
    assert store.changed_elsewhere() is False


# provenance: objects_derived_from on a multi-episode store


def brute_force_derived(memory: Memory, turn_keys: set[int]) -> list[tuple[int, str, str]]:
    db = memory.store.db
    kinds = {
        key: (kind, group)
        for key, kind, group in db.execute("SELECT object_key, kind, group_id FROM objects")
    }
    keys = {
        obj
        for obj, source in db.execute("SELECT object_key, turn_key FROM object_sources")
        if source in turn_keys
    }
    return sorted((key, *kinds[key]) for key in keys)


def test_objects_derived_from_is_one_query_on_the_turn_index(two_episodes: Memory, monkeypatch) -> None:
    store = two_episodes.store
    keys = [
        *store.turn_keys("demo_maple_clinic", ["t018"]).values(),
        *store.turn_keys("demo_copy", ["t050"]).values(),
    ]
    executed: list[tuple[str, tuple]] = []
    real_execute = store.db.execute

    def recording_execute(sql, params=()):
        executed.append((sql, tuple(params)))
        return real_execute(sql, params)

    monkeypatch.setattr(store.db, "execute", recording_execute)
    store.objects_derived_from(keys)
    monkeypatch.undo()

    assert len(executed) == 1
    sql, params = executed[0]
    plan = [row[-1] for row in store.db.execute("EXPLAIN QUERY PLAN " + sql, params)]
    assert any("object_sources_by_turn" in step for step in plan), plan
    assert not any(step.startswith("SCAN") for step in plan), plan


@pytest.mark.parametrize(
    "picks",
    [
        [("demo_maple_clinic", "t018")],
        [("demo_copy", "t018")],
        [("demo_maple_clinic", "t001"), ("demo_copy", "t063"), ("demo_copy", "t030")],
        [("demo_maple_clinic", f"t{i:03d}") for i in range(1, 64)],
    ],
)
def test_objects_derived_from_is_exact(two_episodes: Memory, picks) -> None:
    store = two_episodes.store
    keys = {key for episode, turn_id in picks for key in store.turn_keys(episode, [turn_id]).values()}
    assert len(keys) == len(picks)
    derived = store.objects_derived_from(keys)
    assert derived == brute_force_derived(two_episodes, keys)
    objects = store.get_objects([key for key, _, _ in derived])
    episodes = {episode for episode, _ in picks}
    assert {obj.episode_id for obj in objects.values()} == episodes
    # one turn object per picked turn, sessions for the rest
    assert sum(kind == "turn" for _, kind, _ in derived) == len(picks)


def test_objects_derived_from_nothing(two_episodes: Memory) -> None:
    assert two_episodes.store.objects_derived_from([]) == []
    assert two_episodes.store.objects_derived_from([10_000]) == []


def test_counts_on_two_episodes(two_episodes: Memory) -> None:
    assert two_episodes.stats()["counts"] == {
        "principals": 9,
        "relationships": 3,
        "turns": 126,
        "objects": 140,
        "vectors": 140,
        "objects.session": 14,
        "objects.turn": 126,
        "episodes": 2,
    }
