"""Averaging ragged groups of table rows with one sparse product."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np
from scipy import sparse


def mean_rows(groups: Sequence[Sequence[int]], table: np.ndarray) -> np.ndarray:
    """For each group of row indices, the mean of those rows of ``table`` (zeros if empty)."""
    lengths = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
    indices = np.fromiter(chain.from_iterable(groups), dtype=np.int64, count=int(lengths.sum()))
    if len(indices) and not 0 <= indices.min() <= indices.max() < len(table):
        raise IndexError(f"row index out of range for a table of {len(table)} rows")
    indptr = np.zeros(len(groups) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    weights = np.repeat(1.0 / np.maximum(lengths, 1), lengths).astype(np.float32)
    averaging = sparse.csr_matrix((weights, indices, indptr), shape=(len(groups), len(table)))
    return np.asarray(averaging @ table, dtype=np.float32)


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows stay zero."""
    matrix = np.asarray(matrix, dtype=np.float32)
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
