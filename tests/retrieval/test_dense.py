"""DenseIndex, and the in-memory index staying equal to the store's vectors table."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govmem import Memory, Turn
from govmem.retrieval.dense import UNDATED, DenseIndex, epoch_seconds

EPISODE = "demo_maple_clinic"
DIM = 8


def unit_rows(seeds: list[int]) -> np.ndarray:
    rows = np.stack([np.random.default_rng(seed).normal(size=DIM) for seed in seeds]).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_epoch_seconds() -> None:
    seconds = epoch_seconds(["1970-01-01T00:01:00", None, "", "2026-03-09T08:00:00"])
    assert seconds.tolist() == [60, UNDATED, UNDATED, 1773043200]
    assert epoch_seconds([]).tolist() == []


def test_add_search_remove() -> None:
    index = DenseIndex(DIM, capacity=2)
    rows = unit_rows([1, 2, 3, 4, 5])
    index.add([10, 20, 30], rows[:3], ["turn", "session", "turn"], [None, "2026-01-01T00:00:00", None])
    index.add([40, 50], rows[3:], ["turn", "turn"], ["2026-02-01T00:00:00", None])  # grows past capacity
    assert len(index) == 5
    assert index.keys.tolist() == [10, 20, 30, 40, 50]
    np.testing.assert_array_equal(index.vectors, rows)

    top = index.search(rows[2], 2)
    assert top[0][0] == 30
    assert top[0][1] == pytest.approx(1.0, abs=1e-5)
    assert len(top) == 2
    assert len(index.search(rows[0], 99)) == 5
    assert index.search(rows[0], 0) == []

    assert index.remove([20, 99]) == 1
    assert sorted(index.keys.tolist()) == [10, 30, 40, 50]
    assert index.remove([]) == 0
    for key, row in zip(index.keys.tolist(), index.vectors, strict=True):
        np.testing.assert_array_equal(row, rows[[10, 20, 30, 40, 50].index(key)])
    assert index.remove([10, 30, 40, 50]) == 4
    assert len(index) == 0
    assert index.search(rows[0], 3) == []
    assert index.remove([10]) == 0


def test_add_checks_the_shape() -> None:
    index = DenseIndex(DIM)
    with pytest.raises(ValueError, match="expected vectors of shape"):
        index.add([1, 2], unit_rows([1]), ["turn", "turn"], [None, None])


def test_candidate_mask() -> None:
    index = DenseIndex(DIM)
    index.add(
        [1, 2, 3, 4],
        unit_rows([1, 2, 3, 4]),
        ["turn", "session", "turn", "session"],
        ["2026-01-01T00:00:00", None, "2026-03-01T00:00:00", "2026-02-01T12:00:00"],
        [7, 8, 9, 9],
    )
    assert index.candidate_mask() is None
    assert index.candidate_mask(kinds=["turn"]).tolist() == [True, False, True, False]
    assert index.candidate_mask(kinds=["profile"]).tolist() == [False] * 4
    assert index.candidate_mask(as_of="2026-02-01T12:00:00").tolist() == [True, True, False, True]
    assert index.candidate_mask(labels=frozenset({9, 99})).tolist() == [False, False, True, True]
    assert index.candidate_mask(labels=frozenset()).tolist() == [False] * 4
    mask = index.candidate_mask(kinds=["session"], as_of="2026-02-01T00:00:00", labels=frozenset({8, 9}))
    assert mask.tolist() == [False, True, False, False]
    query = unit_rows([4])[0]
    assert [key for key, _ in index.search(query, 5, mask)] == [2]
    assert index.search(query, 5, index.candidate_mask(kinds=["profile"])) == []


# property: DenseIndex against a dict model

KINDS = ["turn", "session"]
STAMPS = [None, "2026-01-01T00:00:00", "2026-02-01T00:00:00", "2026-03-01T00:00:00"]

operation = st.one_of(
    st.tuples(
        st.just("add"),
        st.lists(
            st.tuples(
                st.integers(0, 40),
                st.integers(0, 10_000),
                st.sampled_from(KINDS),
                st.sampled_from(STAMPS),
            ),
            min_size=0,
            max_size=6,
            unique_by=lambda item: item[0],
        ),
    ),
    st.tuples(st.just("remove"), st.lists(st.integers(0, 40), max_size=8)),
)
query_strategy = st.tuples(
    st.integers(0, 10_000),
    st.integers(1, 12),
    st.none() | st.sampled_from(KINDS),
    st.none() | st.sampled_from(STAMPS[1:]),
)


def brute_force(model: dict, query: np.ndarray, k: int, kind: str | None, as_of: str | None) -> list[float]:
    cutoff = epoch_seconds([as_of])[0] if as_of else None
    scores = [
        float(vector @ query)
        for vector, row_kind, stamp in model.values()
        if (kind is None or row_kind == kind) and (cutoff is None or epoch_seconds([stamp])[0] <= cutoff)
    ]
    return sorted(scores, reverse=True)[:k]


@settings(max_examples=150, deadline=None, database=None)
@given(operations=st.lists(operation, min_size=1, max_size=25), queries=st.lists(query_strategy, max_size=3))
def test_dense_index_matches_a_dict_model(operations, queries) -> None:
    index = DenseIndex(DIM, capacity=4)
    model: dict[int, tuple[np.ndarray, str, str | None]] = {}
    for name, payload in operations:
        if name == "add":
            fresh = [item for item in payload if item[0] not in model]  # keys are unique in the index
            if not fresh:
                continue
            rows = unit_rows([seed for _, seed, _, _ in fresh])
            index.add([k for k, *_ in fresh], rows, [kind for *_, kind, _ in fresh], [s for *_, s in fresh])
            for (key, _, kind, stamp), row in zip(fresh, rows, strict=True):
                model[key] = (row, kind, stamp)
        else:
            present = len(set(payload) & model.keys())
            assert index.remove(payload) == present
            for key in payload:
                model.pop(key, None)

        assert sorted(index.keys.tolist()) == sorted(model)
        assert len(index) == len(model)
        for key, row in zip(index.keys.tolist(), index.vectors, strict=True):
            np.testing.assert_array_equal(row, model[key][0])

        for seed, k, kind, as_of in queries:
            query = unit_rows([seed])[0]
            mask = index.candidate_mask([kind] if kind else None, as_of)
            found = index.search(query, k, mask)
            expected = brute_force(model, query, k, kind, as_of)
            assert [score for _, score in found] == pytest.approx(expected, abs=1e-5)
            for key, score in found:
                assert score == pytest.approx(float(model[key][0] @ query), abs=1e-5)
                assert kind is None or model[key][1] == kind
            assert len({key for key, _ in found}) == len(found)


# the index a Memory keeps, against the store's vectors table


def assert_index_matches_store(memory: Memory) -> None:
    index = memory.retriever.index
    stored = dict(memory.store.db.execute("SELECT object_key, embedding FROM vectors"))
    keys = index.keys.tolist()
    assert len(keys) == len(set(keys))
    assert set(keys) == set(stored)
    for key, row in zip(keys, index.vectors, strict=True):
        np.testing.assert_array_equal(row, np.frombuffer(stored[key], dtype=np.float32))


def test_loaded_index_matches_store(memory: Memory) -> None:
    assert_index_matches_store(memory)


@pytest.mark.parametrize(
    "turn_ids",
    [
        ["t037"],
        ["t017", "t018"],
        ["t001", "t022", "t046"],
        pytest.param(["t063"], id="last-session-t063"),
        pytest.param(["t050"], id="last-session-t050"),
    ],
)
def test_index_stays_consistent_after_delete(memory: Memory, turn_ids: list[str]) -> None:
    index = memory.retriever.index  # loaded before the delete: the incremental path is tested
    before = set(index.keys.tolist())
    turn_keys = memory.store.turn_keys(EPISODE, turn_ids).values()
    deleted_objects = {key for key, _, _ in memory.store.objects_derived_from(turn_keys)}

    memory.delete_turns(turn_ids, EPISODE)

    assert memory.retriever.index is index
    assert_index_matches_store(memory)
    assert not (deleted_objects & set(index.keys.tolist()))
    assert before - set(index.keys.tolist()) >= deleted_objects
    for turn_id in turn_ids:
        text = next(t.text for t in _demo_turns() if t.turn_id == turn_id)
        hits = index.search(memory.embedder.embed_query(text), len(index))
        assert not ({key for key, _ in hits} & deleted_objects)
        result = memory.recall("nurse_quinn", text, k=20)
        assert all(turn_id not in item.sources for item in result.items)


def _demo_turns():
    from govmem import read_episodes
    from govmem.api.demo import demo_episode_path

    return read_episodes(demo_episode_path())[0].turns


def test_index_stays_consistent_after_ingest(memory: Memory) -> None:
    memory.retriever.index  # noqa: B018 - load it first
    memory.ingest_many(
        [
            Turn(
                "n1",
                "nurse_quinn",
                "The sterilizer on floor two is out of order.",
                timestamp="2026-03-12T11:00",
            ),
            Turn("n2", "nurse_quinn", "Walter asked for decaf coffee.", timestamp="2026-03-12T11:05"),
        ],
    )
    assert_index_matches_store(memory)


def test_session_only_store_keeps_appended_windows(db_path: str) -> None:
    with Memory(db_path, designs=["session"]) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest(Turn("a1", "ana", "The sterilizer is broken.", session_id="s"))
        memory.retriever.index  # noqa: B018
        report = memory.ingest(Turn("a2", "ana", "The courier comes at noon.", session_id="s"))
        assert report.objects_added == 1
        assert_index_matches_store(memory)


def test_second_memory_sees_deletes(memory: Memory, db_path: str) -> None:
    """The reload path: another connection's commit changes PRAGMA data_version."""
    with Memory(db_path) as other:
        query = "full-day validation voucher number for the garage exit"
        assert "t037" in {item.sources[0] for item in other.recall("nurse_quinn", query, design="turn").items}
        memory.retriever.index  # noqa: B018
        memory.delete_turns(["t037"], EPISODE)
        for design in ("turn", "session", None):
            result = other.recall("nurse_quinn", query, k=50, design=design)
            assert all("t037" not in item.sources for item in result.items)
            assert all("V-2207" not in item.text for item in result.items)
        assert_index_matches_store(other)
        assert_index_matches_store(memory)


def test_second_memory_sees_deletes_after_its_own_write(memory: Memory, db_path: str) -> None:
    with Memory(db_path) as other:
        other.retriever.index  # noqa: B018 - loaded
        memory.delete_turns(["t037"], EPISODE)
        memory.ingest(
            Turn("n1", "nurse_quinn", "The lab fridge alarm went off.", timestamp="2026-03-12T11:00")
        )
        other.ingest(Turn("n2", "nurse_quinn", "Restock gauze in room 2.", timestamp="2026-03-12T11:05"))
        assert_index_matches_store(other)


@pytest.mark.parametrize("share", [0.002, 0.05, 0.3, 0.7])
def test_masked_search_scores_exactly_the_masked_rows(share: float) -> None:
    """A requester may rank a small share of a large store: the answer is the exact
    top-k of those rows, whether the index is exact or approximate."""
    rng = np.random.default_rng(11)
    n = 3000
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for threshold in (None, 500):  # exact index; approximate index (IVF) above 500 rows
        index = DenseIndex(DIM, ann_threshold=threshold)
        index.add(np.arange(1, n + 1), vectors, ["turn"] * n, [None] * n)
        mask = rng.random(n) < share
        query = vectors[int(np.flatnonzero(mask)[0])]
        found = [key for key, _ in index.search(query, 10, mask)]
        scores = np.where(mask, vectors @ query, -np.inf)
        expected = [int(row) + 1 for row in np.argsort(-scores, kind="stable")[: min(10, int(mask.sum()))]]
        if threshold is None or share * n <= threshold:
            assert found == expected
        else:  # approximate: the best masked row is found, and nothing outside the mask
            assert found[0] == expected[0]
            assert all(mask[key - 1] for key in found)
            assert len(found) == 10
