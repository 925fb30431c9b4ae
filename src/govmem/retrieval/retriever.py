"""Hybrid retrieval over a store: BM25 and dense candidates fused by RRF.

The dense index is loaded lazily from the store's vectors and kept in step with
this process's writes; a commit from another connection triggers a reload.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from govmem.retrieval.dense import DenseIndex
from govmem.retrieval.embedders import Embedder
from govmem.retrieval.hybrid import reciprocal_rank_fusion
from govmem.retrieval.lexical import POSTINGS_BUDGET, or_expression, query_terms, select_terms
from govmem.store.base import Store

DROP_AFTER_RANKING = 0.5
"""Above this share of readable objects, lexical hits are filtered after ranking."""


@dataclass
class Candidate:
    key: int
    scores: dict[str, float] = field(default_factory=dict)


class HybridRetriever:
    def __init__(self, store: Store, embedder: Embedder):
        self.store = store
        self.embedder = embedder
        self._index: DenseIndex | None = None
        self._frequencies: dict[str, int] = {}
        self.postings_budget = POSTINGS_BUDGET

    @property
    def index(self) -> DenseIndex:
        if self._index is None or self.store.changed_elsewhere():
            self._index = self._load()
        return self._index

    def _load(self) -> DenseIndex:
        self._frequencies.clear()
        index = DenseIndex(self.embedder.dim)
        for keys, matrix, kinds, observed, labels in self.store.iter_vectors():
            index.add(keys, matrix, kinds, observed, labels)
        self.store.changed_elsewhere()
        return index

    def reset(self) -> None:
        """Drop the loaded index; the next search reloads it from the store."""
        self._index = None
        self._frequencies.clear()

    def added(
        self,
        keys: Sequence[int],
        vectors: np.ndarray,
        kinds: Sequence[str],
        observed: Sequence[str | None],
        labels: Sequence[int | None],
    ) -> None:
        """Record objects this process committed."""
        if self._in_step():
            self._index.add(keys, vectors, kinds, observed, labels)

    def removed(self, keys: Sequence[int]) -> None:
        if self._in_step():
            self._index.remove(keys)

    def _in_step(self) -> bool:
        """True when the loaded index misses only this process's own commits."""
        self._frequencies.clear()
        if self.store.changed_elsewhere():
            self._index = None
        return self._index is not None

    def lexical_terms(self, query: str) -> list[str]:
        """The query's words that lexical search will use (rare ones on large stores)."""
        terms = query_terms(query)
        missing = [t for t in terms if t not in self._frequencies]
        if missing:
            found = self.store.document_frequencies(missing)
            if found is None:
                return terms
            self._frequencies.update(found)
        return select_terms(terms, self._frequencies, self.postings_budget)

    def search(
        self,
        query: str,
        pool: int,
        kinds: Sequence[str] | None = None,
        as_of: str | None = None,
        labels: frozenset[int] | None = None,
    ) -> list[Candidate]:
        """Candidates best first, each with its lexical, dense and fused scores.

        ``labels``, when given, restricts ranking to objects with these label keys.
        """
        if labels is not None and not labels:
            return []
        index = self.index
        mask = index.candidate_mask(kinds, as_of, labels)
        lexical: list[tuple[int, float]] = []
        match = or_expression(self.lexical_terms(query))
        if match is not None:
            if labels is None:
                lexical = self.store.lexical_search(match, pool, kinds, as_of)
            else:
                lexical = self._lexical_within(index, match, pool, kinds, as_of, labels)
        dense = index.search(self.embedder.embed_query(query), pool, mask)
        fused = reciprocal_rank_fusion(
            {"lexical": [key for key, _ in lexical], "dense": [key for key, _ in dense]}
        )
        by_key = {key: Candidate(key) for key, _ in fused}
        for name, ranking in (("lexical", lexical), ("dense", dense)):
            for key, score in ranking:
                by_key[key].scores[name] = score
        for key, score in fused:
            by_key[key].scores["fused"] = score
        return [by_key[key] for key, _ in fused]

    def _lexical_within(
        self,
        index: DenseIndex,
        match: str,
        pool: int,
        kinds: Sequence[str] | None,
        as_of: str | None,
        labels: frozenset[int],
    ) -> list[tuple[int, float]]:
        """The ``pool`` best lexical matches with one of ``labels``, best first.

        A requester's label set can be as large as the store, too large to pass
        into SQL on every query; the index gives the object keys whose label (the
        same the dense mask uses) is readable. When most objects are readable, a
        few more matches than the pool are ranked and the others dropped; when that
        does not fill the pool, or few objects are readable, the query checks each
        match against the keys before taking the top ``pool``.
        """
        allowed = index.keys_in_labels(labels)
        share = allowed.count(1) / max(len(index), 1)
        if share >= DROP_AFTER_RANKING:
            limit = int(4 * pool / share) + 1
            ranked = self.store.lexical_search(match, limit, kinds, as_of)
            found = [(key, score) for key, score in ranked if key < len(allowed) and allowed[key]]
            if len(found) >= pool or len(ranked) < limit:
                return found[:pool]
        return self.store.lexical_search(match, pool, kinds, as_of, allowed_keys=allowed)
