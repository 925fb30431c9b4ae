"""Averaging ragged groups of table rows with one sparse product."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np
from scipy import sparse


def mean_rows(groups: Sequence[Sequence[int]], table: np.ndarray) -> np.ndarray:
    """For each group of row indices, the mean of those rows of ``table`` (zeros if empty)."""
    return _pooled(groups, table, mean=True)


def sum_rows(groups: Sequence[Sequence[int]], table: np.ndarray) -> np.ndarray:
    """For each group of row indices, the sum of those rows of ``table`` (zeros if empty)."""
    return _pooled(groups, table, mean=False)


def _pooled(groups: Sequence[Sequence[int]], table: np.ndarray, mean: bool) -> np.ndarray:
    lengths = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
    indices = np.fromiter(chain.from_iterable(groups), dtype=np.int64, count=int(lengths.sum()))
    indptr = np.zeros(len(groups) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    if mean:
        weights = np.repeat(1.0 / np.maximum(lengths, 1), lengths).astype(np.float32)
    else:
        weights = np.ones(len(indices), dtype=np.float32)
    return sparse_rows(weights, indices, indptr, table)


def sparse_rows(
    weights: np.ndarray, indices: np.ndarray, indptr: np.ndarray, table: np.ndarray
) -> np.ndarray:
    """Row i: the sum of ``weights[j] * table[indices[j]]`` for j in ``indptr[i]:indptr[i+1]``
    (a CSR matrix times the table)."""
    if len(indices) and not 0 <= indices.min() <= indices.max() < len(table):
        raise IndexError(f"row index out of range for a table of {len(table)} rows")
    product = sparse.csr_matrix((weights, indices, indptr), shape=(len(indptr) - 1, len(table)))
    return np.asarray(product @ table, dtype=np.float32)


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows stay zero."""
    matrix = np.asarray(matrix, dtype=np.float32)
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
