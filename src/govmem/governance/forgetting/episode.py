"""One episode's turns as the planner sees them: texts, speakers, words, mentions, vectors.

The planner works over a whole episode rather than over a retrieval pool: MemCut
shows that a pool of the request's nearest neighbours holds about half of a
secret's evidence, and that widening it helps more than choosing better inside
it. An episode of a few thousand turns is small enough to score every turn
(embedding 1,500 turns with the default embedder takes about 0.1 s).

Vectors are the store's embedder's, centred on the episode's mean with the
dominant direction removed ("all-but-the-top", Mu and Viswanath 2018): averaged
token embeddings share a large common component that makes every turn look
alike; removing it lets topic words decide similarity.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from govmem.governance.forgetting.mentions import CaseProfile, mentions
from govmem.models import StoredTurn
from govmem.retrieval.embedders import Embedder
from govmem.retrieval.lexical import STOP_WORDS
from govmem.retrieval.pooling import unit_rows

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
REQUEST_WORDS = frozenset(
    [
        "delete",
        "deleted",
        "deleting",
        "remove",
        "removed",
        "removing",
        "erase",
        "erased",
        "erasing",
        "forget",
        "forgot",
        "forgotten",
        "forgetting",
        "purge",
        "scrub",
        "wipe",
        "wiped",
        "drop",
        "dropped",
        "clear",
        "record",
        "records",
        "memory",
        "memories",
        "remember",
        "keep",
        "kept",
        "anything",
        "everything",
        "something",
        "bit",
        "part",
        "said",
        "told",
        "mentioned",
        "mention",
        "stored",
        "store",
        "gone",
        "want",
        "wanted",
        "like",
        "would",
        "could",
        "please",
        "mean",
        "completely",
        "entirely",
        "whole",
        "thing",
        "things",
        "stuff",
        "anymore",
        "shouldn't",
        "should",
        "don't",
        "do",
        "not",
        "asking",
        "ask",
        "let",
        "stop",
        "also",
        "really",
        "just",
        "okay",
        "ok",
        "thanks",
        "thank",
    ]
)
"""Words of the act of asking for deletion, not of what is to be deleted."""


def content_words(text: str) -> list[str]:
    """Lower-cased words of ``text`` without stop words, crudely singularised.

    (Stemming by truncation to five or six letters was measured and dropped: it
    matched "pregnancy" to "pregnant" but joined unrelated words more often.)"""
    words = []
    for raw in _WORD.findall(text.lower()):
        word = raw.replace("’", "'")
        if word.endswith("'s"):
            word = word[:-2]
        if "'" in word and word.split("'")[0] in STOP_WORDS | {"i", "don", "can", "won", "isn", "didn"}:
            continue  # "i'm", "we're", "don't": pronouns and auxiliaries, not topics
        if len(word) < 3 or word in STOP_WORDS:
            continue
        if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        words.append(word)
    return words


def topic_words(text: str) -> list[str]:
    """The content words of a request that name its topic (not "delete", "please", ...)."""
    return [w for w in content_words(text) if w not in REQUEST_WORDS]


@dataclass
class EpisodeView:
    """Everything the planner reads about one episode, indexed by position."""

    episode_id: str
    turns: list[StoredTurn]
    words: list[list[str]]
    keys: list[list[str]]
    vectors: np.ndarray
    embedder: Embedder
    word_df: Counter[str] = field(default_factory=Counter)
    key_df: Counter[str] = field(default_factory=Counter)
    profile: CaseProfile | None = None
    _projection: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def load(cls, turns: Sequence[StoredTurn], embedder: Embedder, episode_id: str) -> EpisodeView:
        texts = [t.turn.text for t in turns]
        profile = CaseProfile(texts)
        words = [content_words(text) for text in texts]
        keys = [mentions(text, profile) for text in texts]
        raw = (
            np.asarray(embedder.embed_documents(texts), dtype=np.float32)
            if texts
            else np.zeros((0, embedder.dim), dtype=np.float32)
        )
        view = cls(episode_id, list(turns), words, keys, raw, embedder, profile=profile)
        view.word_df = Counter(w for ws in words for w in set(ws))
        view.key_df = Counter(k for ks in keys for k in set(ks))
        view._projection = _top_direction(raw)
        view.vectors = view.project(raw)
        return view

    def without(self, turn_ids: set[str]) -> EpisodeView:
        """The same view without some turns (deleted ones); vectors are not recomputed."""
        keep = [i for i in range(len(self)) if self.turn_id(i) not in turn_ids]
        view = EpisodeView(
            self.episode_id,
            [self.turns[i] for i in keep],
            [self.words[i] for i in keep],
            [self.keys[i] for i in keep],
            self.vectors[keep],
            self.embedder,
            profile=self.profile,
            _projection=self._projection,
        )
        view.word_df = Counter(w for ws in view.words for w in set(ws))
        view.key_df = Counter(k for ks in view.keys for k in set(ks))
        return view

    def __len__(self) -> int:
        return len(self.turns)

    def project(self, raw: np.ndarray) -> np.ndarray:
        """Centre on the episode mean, drop the dominant direction, scale to unit length."""
        if self._projection is None:
            return unit_rows(raw)
        mean, direction = self._projection
        centred = np.atleast_2d(raw) - mean
        centred = centred - np.outer(centred @ direction, direction)
        return unit_rows(centred)

    def embed(self, text: str) -> np.ndarray:
        return self.project(np.asarray(self.embedder.embed_documents([text]), dtype=np.float32))[0]

    def similarity(self, text: str) -> np.ndarray:
        """Cosine of every turn to ``text`` in the projected space."""
        if not len(self):
            return np.zeros(0)
        return self.vectors @ self.embed(text)

    def mentions_of(self, text: str) -> list[str]:
        return mentions(text, self.profile or CaseProfile([text]))

    def idf(self, word: str) -> float:
        return math.log((len(self) + 1) / (self.word_df.get(word, 0) + 0.5))

    def key_idf(self, key: str) -> float:
        return math.log((len(self) + 1) / (self.key_df.get(key, 0) + 0.5))

    def lexical(self, words: Sequence[str]) -> np.ndarray:
        """IDF-weighted overlap of every turn with ``words`` (each word counted once)."""
        wanted = {w: self.idf(w) for w in set(words)}
        scores = np.zeros(len(self))
        for i, turn_words in enumerate(self.words):
            scores[i] = sum(wanted.get(w, 0.0) for w in set(turn_words))
        return scores

    def speaker(self, i: int) -> str:
        return self.turns[i].turn.speaker

    def turn_id(self, i: int) -> str:
        return self.turns[i].turn.turn_id

    def text(self, i: int) -> str:
        return self.turns[i].turn.text


def _top_direction(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    if len(raw) < 3:
        return None
    mean = raw.mean(axis=0)
    centred = raw - mean
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    return mean, vt[0]
