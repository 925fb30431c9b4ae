"""Dense retrieval: exact cosine search over every stored vector, in numpy.

The vectors live in the store (and are erased with their rows); this index is a
copy in memory, rebuilt from the store when another process changed it. Rows are
kept in a growable buffer; removal swaps the last row into the hole, so deleting a
vector is O(1) per row and the buffer never holds a deleted vector's bytes past
the live count.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

UNDATED = np.iinfo(np.int64).min


def epoch_seconds(timestamps: Sequence[str | None]) -> np.ndarray:
    """ISO timestamps as int64 seconds; None (undated) sorts before every date."""
    values = np.array([t if t else "NaT" for t in timestamps], dtype="datetime64[s]")
    seconds = values.astype(np.int64)
    seconds[np.isnat(values)] = UNDATED
    return seconds


class DenseIndex:
    """Exact top-k by inner product over unit vectors, with per-row kind and time."""

    def __init__(self, dim: int, capacity: int = 1024):
        self.dim = dim
        self._vectors = np.zeros((capacity, dim), dtype=np.float32)
        self._keys = np.zeros(capacity, dtype=np.int64)
        self._kinds = np.zeros(capacity, dtype=np.int16)
        self._observed = np.zeros(capacity, dtype=np.int64)
        self._kind_codes: dict[str, int] = {}
        self._size = 0

    def __len__(self) -> int:
        return self._size

    @property
    def keys(self) -> np.ndarray:
        return self._keys[: self._size]

    @property
    def vectors(self) -> np.ndarray:
        return self._vectors[: self._size]

    def _kind_code(self, kind: str) -> int:
        return self._kind_codes.setdefault(kind, len(self._kind_codes))

    def _reserve(self, extra: int) -> None:
        needed = self._size + extra
        capacity = len(self._keys)
        if needed <= capacity:
            return
        capacity = max(needed, capacity * 2)
        for name in ("_vectors", "_keys", "_kinds", "_observed"):
            old = getattr(self, name)
            new = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            new[: self._size] = old[: self._size]
            setattr(self, name, new)

    def add(
        self,
        keys: Sequence[int] | np.ndarray,
        vectors: np.ndarray,
        kinds: Sequence[str],
        observed_at: Sequence[str | None],
    ) -> None:
        n = len(keys)
        if vectors.shape != (n, self.dim):
            raise ValueError(f"expected vectors of shape ({n}, {self.dim}), got {vectors.shape}")
        self._reserve(n)
        end = self._size + n
        self._vectors[self._size : end] = vectors
        self._keys[self._size : end] = keys
        self._kinds[self._size : end] = [self._kind_code(k) for k in kinds]
        self._observed[self._size : end] = epoch_seconds(observed_at)
        self._size = end

    def remove(self, keys: Sequence[int]) -> int:
        """Remove rows by key; returns how many were present."""
        if not len(keys) or not self._size:
            return 0
        rows = np.flatnonzero(np.isin(self.keys, np.asarray(keys, dtype=np.int64)))
        for row in sorted(rows.tolist(), reverse=True):
            last = self._size - 1
            if row != last:
                for array in (self._vectors, self._keys, self._kinds, self._observed):
                    array[row] = array[last]
            self._vectors[last] = 0.0
            self._size = last
        return len(rows)

    def candidate_mask(
        self,
        kinds: Sequence[str] | None = None,
        as_of: str | None = None,
        allowed: Sequence[int] | None = None,
    ) -> np.ndarray | None:
        """Rows that may be ranked, or None when every row may."""
        mask = None

        def narrow(condition: np.ndarray) -> None:
            nonlocal mask
            mask = condition if mask is None else mask & condition

        if kinds is not None:
            codes = [self._kind_codes[k] for k in kinds if k in self._kind_codes]
            narrow(np.isin(self._kinds[: self._size], codes))
        if as_of is not None:
            narrow(self._observed[: self._size] <= epoch_seconds([as_of])[0])
        if allowed is not None:
            narrow(np.isin(self.keys, np.asarray(list(allowed), dtype=np.int64)))
        return mask

    def search(self, query: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """(key, cosine) of the ``k`` best rows, best first, among rows where ``mask``."""
        if not self._size or k <= 0:
            return []
        scores = self.vectors @ query.astype(np.float32)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
            k = min(k, int(mask.sum()))
            if k == 0:
                return []
        k = min(k, self._size)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self._keys[row]), float(scores[row])) for row in top]
