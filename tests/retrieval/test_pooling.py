from __future__ import annotations

import os

import numpy as np
import pytest

from govmem.retrieval.embedders import load_embedder
from govmem.retrieval.pooling import mean_rows, unit_rows


def test_mean_rows_averages_each_group() -> None:
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    means = mean_rows([[0, 1], [], [3, 3, 2]], table)
    assert np.allclose(means[0], table[[0, 1]].mean(axis=0))
    assert np.allclose(means[1], 0)
    assert np.allclose(means[2], table[[3, 3, 2]].mean(axis=0))


def test_mean_rows_refuses_indices_outside_the_table() -> None:
    with pytest.raises(IndexError):
        mean_rows([[0, 4]], np.zeros((4, 2), dtype=np.float32))


def test_unit_rows_keeps_zero_rows() -> None:
    rows = unit_rows(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert np.allclose(rows, [[0.6, 0.8], [0.0, 0.0]])


def test_wordllama_embedder_matches_wordllama() -> None:
    import wordllama
    from wordllama import WordLlama

    reference = WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)
    texts = ["Start apixaban 5 mg twice daily.", "short", "a much longer text " * 40, "Ünïcode façade"]
    ours = load_embedder("wordllama").embed_documents(texts)
    theirs = reference.embed(texts, norm=True)
    assert ours.shape == (4, 256)
    assert np.allclose(ours, theirs, atol=1e-5)
