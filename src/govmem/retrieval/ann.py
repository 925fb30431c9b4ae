"""An approximate nearest-neighbour cache for large stores (usearch HNSW).

Exact numpy search is the reference; past a size where its latency grows (about
200k vectors here) dense candidates come from this HNSW graph instead and are
then re-scored exactly. The graph is a cache: built from the exact index in
memory, kept in step with its adds and removes, rebuilt whenever the index is,
and never written to disk, because an HNSW file keeps deleted vectors' bytes.
Measurements and the choice of usearch over hnswlib and faiss: DEVELOPERS.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from govmem.errors import GovmemError


class AnnCache:
    """HNSW over unit vectors with inner-product distance, half-precision storage."""

    def __init__(
        self,
        dim: int,
        connectivity: int = 16,
        expansion_add: int = 128,
        expansion_search: int = 256,
        dtype: str = "f16",
    ):
        try:
            from usearch.index import Index
        except ImportError as exc:  # pragma: no cover - usearch is a dependency
            raise GovmemError("the approximate index needs 'usearch' (pip install usearch)") from exc
        self._index = Index(
            ndim=dim,
            metric="ip",
            dtype=dtype,
            connectivity=connectivity,
            expansion_add=expansion_add,
            expansion_search=expansion_search,
        )

    def __len__(self) -> int:
        return len(self._index)

    def add(self, keys: Sequence[int] | np.ndarray, vectors: np.ndarray) -> None:
        if len(keys):
            self._index.add(np.asarray(keys, dtype=np.uint64), np.asarray(vectors, dtype=np.float32))

    def remove(self, keys: Sequence[int] | np.ndarray) -> None:
        if len(keys):
            self._index.remove(np.asarray(keys, dtype=np.uint64))

    def search(self, query: np.ndarray, count: int) -> np.ndarray:
        """Keys of about the ``count`` nearest vectors, nearest first."""
        if not len(self._index):
            return np.zeros(0, dtype=np.int64)
        matches = self._index.search(np.asarray(query, dtype=np.float32), count)
        return np.asarray(matches.keys, dtype=np.int64)
