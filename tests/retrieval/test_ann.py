"""The approximate path of DenseIndex: candidates from faiss IVF, re-scored exactly."""

from __future__ import annotations

import numpy as np
import pytest

from govmem.retrieval.dense import DenseIndex

CENTRES = np.random.default_rng(0).standard_normal((40, 32)).astype(np.float32)


def _unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    """Clustered unit vectors, as text embeddings are (uniform noise is IVF's worst case)."""
    centres = CENTRES[rng.integers(0, len(CENTRES), n), :dim]
    vectors = centres + 0.35 * rng.standard_normal((n, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@pytest.fixture
def index() -> DenseIndex:
    rng = np.random.default_rng(7)
    dense = DenseIndex(32, ann_threshold=500)
    n = 3000
    kinds = ["turn" if i % 3 else "session" for i in range(n)]
    labels = [i if i in (3, 6, 9) else 1 for i in range(1, n + 1)]  # rows 3, 6 and 9 have labels of their own
    dense.add(np.arange(1, n + 1), _unit(rng, n, 32), kinds, [None] * n, labels)
    return dense


def _recall(index: DenseIndex, queries: np.ndarray, k: int, mask=None) -> float:
    hits = 0
    for query in queries:
        approximate = {key for key, _ in index.search(query, k, mask)}
        exact = {key for key, _ in index.search_exact(query, k, mask)}
        hits += len(approximate & exact)
    return hits / (k * len(queries))


def test_approximate_search_agrees_with_exact(index: DenseIndex) -> None:
    assert index.approximate
    queries = _unit(np.random.default_rng(1), 50, 32)
    assert _recall(index, queries, 10) >= 0.95


def test_scores_are_exact_cosines(index: DenseIndex) -> None:
    query = _unit(np.random.default_rng(2), 1, 32)[0]
    for key, score in index.search(query, 10):
        row = int(np.flatnonzero(index.keys == key)[0])
        assert score == pytest.approx(float(index.vectors[row] @ query), abs=1e-5)


def test_removed_keys_never_come_back(index: DenseIndex) -> None:
    queries = _unit(np.random.default_rng(3), 20, 32)
    removed = {key for query in queries for key, _ in index.search(query, 5)}
    assert index.remove(sorted(removed)) == len(removed)
    for query in queries:
        assert not removed & {key for key, _ in index.search(query, 20)}
    assert _recall(index, queries, 10) >= 0.9


def test_added_keys_are_found(index: DenseIndex) -> None:
    fresh = _unit(np.random.default_rng(4), 5, 32)
    index.search(fresh[0], 1)  # builds the cache before the add
    index.add(np.arange(10_001, 10_006), fresh, ["turn"] * 5, [None] * 5)
    for key, vector in zip(range(10_001, 10_006), fresh, strict=True):
        assert index.search(vector, 1)[0][0] == key


def test_mask_is_respected_and_falls_back_when_too_selective(index: DenseIndex) -> None:
    queries = _unit(np.random.default_rng(5), 20, 32)
    sessions = index.candidate_mask(kinds=["session"])
    assert _recall(index, queries, 10, sessions) >= 0.9
    allowed = [3, 6, 9]
    few = index.candidate_mask(labels=frozenset(allowed))
    for query in queries:
        assert sorted(key for key, _ in index.search(query, 10, few)) == allowed
