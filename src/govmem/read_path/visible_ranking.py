"""Ranking on what the requester can see.

Candidates are found with the stored index, which holds each object's whole text:
a session window is matched by words of a sentence the requester may not read, and
its vector is the mean of all its turns. Once review has cut an object down to its
readable part, its rank must come from that part alone, or the order of the answer
would confirm the hidden sentence. So the shortlist is ranked again: an object keeps
its lexical match only if a query term survives in its readable text, a redacted
object's dense score is that of its readable text, and the two lists are fused as
before. (A third list, recency, was measured on the GateMem development split at 20
objects a read: no better overall, worse in education, and it pushed verbatim matches
down; current state is the revocation layer's job.)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from govmem.governance.authorization import Review
from govmem.retrieval.hybrid import reciprocal_rank_fusion
from govmem.retrieval.retriever import Candidate, HybridRetriever
from govmem.store.base import Store


def rank_on_visible_text(
    store: Store,
    retriever: HybridRetriever,
    query: str,
    reviewed: Sequence[tuple[Candidate, Review]],
) -> list[tuple[Candidate, Review]]:
    """``reviewed`` (visible objects only) in fused order of their readable text.

    The scores handed back are the fused ranks only: raw BM25 scores carry corpus
    statistics of objects the requester cannot see.
    """
    redacted = [i for i, (_, review) in enumerate(reviewed) if review.redacted]
    rescored: dict[int, float] = {}
    terms: set[str] = set()
    texts = [reviewed[i][1].visible.text for i in redacted]
    if redacted:
        terms = set().union(set(), *(store.tokenize(t) for t in retriever.lexical_terms(query)))
        vectors = retriever.embedder.embed_documents(texts)
        rescored = dict(
            zip(redacted, (vectors @ retriever.embedder.embed_query(query)).tolist(), strict=True)
        )

    ids = [review.visible.object_id for _, review in reviewed]
    lexical, dense = [], []
    for i, (candidate, _) in enumerate(reviewed):
        lexical_score = candidate.scores.get("lexical")
        if i in rescored:
            if lexical_score is not None and not terms.isdisjoint(store.tokenize(texts[redacted.index(i)])):
                lexical.append((i, lexical_score))
            dense.append((i, rescored[i]))
        else:
            if lexical_score is not None:
                lexical.append((i, lexical_score))
            if "dense" in candidate.scores:
                dense.append((i, candidate.scores["dense"]))
    fused = reciprocal_rank_fusion(
        {
            "lexical": [i for i, _ in sorted(lexical, key=lambda pair: -pair[1])],
            "dense": [i for i, _ in sorted(dense, key=lambda pair: -pair[1])],
        }
    )
    # Ties are broken by object id, never by the retrieval order the hidden text shaped.
    order = [i for i, _ in sorted(fused, key=lambda pair: (-pair[1], ids[pair[0]]))]
    scores = dict(fused)
    result = []
    for i in order:
        candidate, review = reviewed[i]
        fresh = Candidate(candidate.key, {"fused": float(np.float32(scores[i]))})
        result.append((fresh, review))
    return result
