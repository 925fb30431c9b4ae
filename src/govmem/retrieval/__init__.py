"""Retrieval: lexical BM25 (FTS5), dense embeddings, hybrid ranking."""

from govmem.retrieval.dense import DenseIndex
from govmem.retrieval.embedders import Embedder, load_embedder
from govmem.retrieval.hybrid import reciprocal_rank_fusion
from govmem.retrieval.retriever import Candidate, HybridRetriever

__all__ = [
    "Candidate",
    "DenseIndex",
    "Embedder",
    "HybridRetriever",
    "load_embedder",
    "reciprocal_rank_fusion",
]
