"""Dense retrieval: cosine search over every stored vector, in numpy.

The vectors live in the store (and are erased with their rows); this index is a
copy in memory, rebuilt from the store when another process changed it. Rows are
kept in a growable buffer; removal swaps the last row into the hole and zeroes
the freed row, so a deleted vector's bytes do not linger in the buffer.

Search is exact below ``ann_threshold`` rows. Above it, an :class:`AnnCache`
proposes candidates which are filtered by the same row mask and re-scored
exactly, with exact search as the fallback when too few candidates pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from functools import lru_cache

import numpy as np
from threadpoolctl import ThreadpoolController

from govmem.retrieval.ann import AnnCache

UNDATED = np.iinfo(np.int64).min
ANN_THRESHOLD = 200_000
ANN_OVERSAMPLE = 4
GATHER_BELOW = 0.1
"""Below this share of rows in the mask, exact search scores only the masked rows."""
LABEL_LOOKUPS = 64


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    return ThreadpoolController()


def single_threaded_blas() -> AbstractContextManager[object]:
    """One BLAS thread for a matrix-vector product.

    A product with one query is memory-bound; waking OpenBLAS's other threads
    costs more than it saves here (0.4 ms instead of 8 ms at 11k rows).
    """
    return _blas().limit(limits=1, user_api="blas")


def epoch_seconds(timestamps: Sequence[str | None]) -> np.ndarray:
    """ISO timestamps as int64 seconds; None (undated) sorts before every date."""
    values = np.array([t if t else "NaT" for t in timestamps], dtype="datetime64[s]")
    seconds = values.astype(np.int64)
    seconds[np.isnat(values)] = UNDATED
    return seconds


class DenseIndex:
    """Exact top-k by inner product over unit vectors, with per-row kind and time."""

    def __init__(self, dim: int, capacity: int = 1024, ann_threshold: int | None = ANN_THRESHOLD):
        self.dim = dim
        self.ann_threshold = ann_threshold
        self._ann: AnnCache | None = None
        self._row_of_key = np.full(capacity, -1, dtype=np.int64)
        self._vectors = np.zeros((capacity, dim), dtype=np.float32)
        self._keys = np.zeros(capacity, dtype=np.int64)
        self._kinds = np.zeros(capacity, dtype=np.int16)
        self._observed = np.zeros(capacity, dtype=np.int64)
        self._labels = np.zeros(capacity, dtype=np.int64)
        self._label_top = 0
        self._lookups: dict[frozenset[int], np.ndarray] = {}
        self._key_bytes: dict[frozenset[int], bytes] = {}
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
        for name in ("_vectors", "_keys", "_kinds", "_observed", "_labels"):
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
        labels: Sequence[int | None] | np.ndarray | None = None,
    ) -> None:
        n = len(keys)
        if vectors.shape != (n, self.dim):
            raise ValueError(f"expected vectors of shape ({n}, {self.dim}), got {vectors.shape}")
        self._reserve(n)
        self._key_bytes.clear()
        end = self._size + n
        self._vectors[self._size : end] = vectors
        self._keys[self._size : end] = keys
        self._kinds[self._size : end] = [self._kind_code(k) for k in kinds]
        self._observed[self._size : end] = epoch_seconds(observed_at)
        self._labels[self._size : end] = 0 if labels is None else [label or 0 for label in labels]
        if n:
            self._label_top = max(self._label_top, int(self._labels[self._size : end].max()))
        keys_array = np.asarray(keys, dtype=np.int64)
        if n and keys_array.max() >= len(self._row_of_key):
            grown = np.full(max(int(keys_array.max()) + 1, 2 * len(self._row_of_key)), -1, dtype=np.int64)
            grown[: len(self._row_of_key)] = self._row_of_key
            self._row_of_key = grown
        self._row_of_key[keys_array] = np.arange(self._size, end)
        self._size = end
        if self._ann is not None:
            self._ann.add(keys_array, vectors)

    def remove(self, keys: Sequence[int]) -> int:
        """Remove rows by key; returns how many were present."""
        if not len(keys) or not self._size:
            return 0
        self._key_bytes.clear()
        wanted = np.unique(np.asarray(keys, dtype=np.int64))
        wanted = wanted[(wanted >= 0) & (wanted < len(self._row_of_key))]
        rows = self._row_of_key[wanted]
        present = wanted[rows >= 0]
        for row in sorted(rows[rows >= 0].tolist(), reverse=True):
            last = self._size - 1
            self._row_of_key[self._keys[row]] = -1
            if row != last:
                for array in (self._vectors, self._keys, self._kinds, self._observed, self._labels):
                    array[row] = array[last]
                self._row_of_key[self._keys[row]] = row
            self._vectors[last] = 0.0
            self._size = last
        if self._ann is not None:
            self._ann.remove(present)
        return len(present)

    def candidate_mask(
        self,
        kinds: Sequence[str] | None = None,
        as_of: str | None = None,
        labels: frozenset[int] | None = None,
    ) -> np.ndarray | None:
        """Rows that may be ranked (of these kinds, observed by ``as_of``, with one
        of these label keys), or None when every row may."""
        mask = None

        def narrow(condition: np.ndarray) -> None:
            nonlocal mask
            mask = condition if mask is None else mask & condition

        if kinds is not None:
            codes = [self._kind_codes[k] for k in kinds if k in self._kind_codes]
            narrow(np.isin(self._kinds[: self._size], codes))
        if as_of is not None:
            narrow(self._observed[: self._size] <= epoch_seconds([as_of])[0])
        if labels is not None:
            narrow(self._readable_lookup(labels)[self._labels[: self._size]])
        return mask

    def keys_in_labels(self, labels: frozenset[int]) -> bytes:
        """One byte per object key up to the largest indexed: 1 where its row has one
        of ``labels``. Kept per label set until the rows change."""
        if not isinstance(labels, frozenset):
            labels = frozenset(labels)
        found = self._key_bytes.get(labels)
        if found is None:
            by_key = np.zeros(len(self._row_of_key), dtype=np.uint8)
            rows = self._readable_lookup(labels)[self._labels[: self._size]]
            by_key[self._keys[: self._size][rows]] = 1
            found = by_key.tobytes()
            if len(self._key_bytes) >= LABEL_LOOKUPS:
                del self._key_bytes[next(iter(self._key_bytes))]
            self._key_bytes[labels] = found
        return found

    def _readable_lookup(self, labels: frozenset[int]) -> np.ndarray:
        """One bool per label key up to the largest any row has: is it in ``labels``.

        Kept for the last few label sets (a requester's set is the same object from
        query to query), so the mask costs a gather over the rows, not a pass over
        every label.
        """
        if not isinstance(labels, frozenset):
            labels = frozenset(labels)
        found = self._lookups.get(labels)
        if found is None or len(found) <= self._label_top:
            found = np.zeros(max(self._label_top, max(labels, default=0)) + 1, dtype=bool)
            found[np.fromiter(labels, dtype=np.int64, count=len(labels))] = True
            if len(self._lookups) >= LABEL_LOOKUPS:
                del self._lookups[next(iter(self._lookups))]
            self._lookups[labels] = found
        return found

    @property
    def approximate(self) -> bool:
        return self.ann_threshold is not None and self._size >= self.ann_threshold

    def search(self, query: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """(key, cosine) of the ``k`` best rows, best first, among rows where ``mask``.

        A requester under a policy may rank a small share of the store. Then the
        approximate index is asked for proportionally more candidates, and when the
        masked rows are few (or the index still comes up short) exactly those rows
        are scored, so the cost follows what may be ranked, not the store's size.
        """
        if not self._size or k <= 0:
            return []
        query = query.astype(np.float32)
        share = 1.0 if mask is None else float(np.count_nonzero(mask)) / self._size
        if share == 0.0:
            return []
        if self.approximate and share * self._size > self.ann_threshold:
            found = self._search_approximate(query, k, mask, share)
            if found is not None:
                return found
        return self.search_exact(query, k, mask)

    def _search_approximate(
        self, query: np.ndarray, k: int, mask: np.ndarray | None, share: float = 1.0
    ) -> list[tuple[int, float]] | None:
        if self._ann is None:
            self._ann = AnnCache(self.keys, self.vectors)
        keys = self._ann.search(query, int(np.ceil(k * ANN_OVERSAMPLE / share)))
        rows = self._row_of_key[keys[keys < len(self._row_of_key)]]
        rows = rows[rows >= 0]
        if mask is not None:
            rows = rows[mask[rows]]
        if len(rows) < min(k, self._size):
            return None
        scores = self._vectors[rows] @ query
        best = np.argsort(-scores, kind="stable")[:k]
        return [(int(self._keys[rows[i]]), float(scores[i])) for i in best]

    def search_exact(
        self, query: np.ndarray, k: int, mask: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """Exact top-k: the reference the approximate path is measured against."""
        if not self._size or k <= 0:
            return []
        query = query.astype(np.float32)
        if mask is not None and np.count_nonzero(mask) < GATHER_BELOW * self._size:
            rows = np.flatnonzero(mask)
            if not len(rows):
                return []
            with single_threaded_blas():
                scores = self._vectors[rows] @ query
            k = min(k, len(rows))
            top = np.argpartition(-scores, k - 1)[:k]
            top = top[np.argsort(-scores[top], kind="stable")]
            return [(int(self._keys[rows[i]]), float(scores[i])) for i in top]
        with single_threaded_blas():
            scores = self.vectors @ query
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
            k = min(k, int(mask.sum()))
            if k == 0:
                return []
        k = min(k, self._size)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self._keys[row]), float(scores[row])) for row in top]
