"""Hybrid ranking by reciprocal rank fusion (Cormack et al., 2009).

RRF needs no score calibration between BM25 and cosine similarity, which live on
unrelated scales; each list contributes ``1 / (k0 + rank)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K0 = 60


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[int]], k0: int = RRF_K0
) -> list[tuple[int, float]]:
    """Fuse named rankings of keys (best first) into one list of (key, fused score)."""
    fused: dict[int, float] = {}
    for ranking in rankings.values():
        for rank, key in enumerate(ranking, start=1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k0 + rank)
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))
