"""The entity graph of an episode and multi-hop expansion over it.

Turns and what they mention (names, numbers, amounts, dates: see
:mod:`~govmem.governance.forgetting.mentions`) form a bipartite graph. From the seed
turns (the disclosure, and turns that resemble it), activation spreads turn -> key
-> turn for a few hops, decaying at each: a relation chain "Dr. Kaur" -> "Juniper
Mental Health Centre" -> "only sees people with mood disorders" is reached in two
hops although its last turn shares no word with the request.

Weights keep hubs from flooding the graph, without any list of names:

- a key's specificity is its inverse document frequency in the episode, scaled by
  its kind (a clock time links less than a name); keys in more than
  :data:`MAX_SHARE` of the turns (the people who talk all the time) do not spread;
- a key's activation is the sum over the active turns mentioning it divided by
  the square root of its document frequency: a name seen with the clinic in two of
  its three turns is strongly linked, one seen once in forty turns is not.

Every reached turn keeps the path that reached it best, for the plan's reasons.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from govmem.governance.forgetting.episode import EpisodeView
from govmem.governance.forgetting.mentions import kind, label

KIND_WEIGHT = {
    "name": 1.0,
    "amt": 1.0,
    "date": 1.0,
    "num": 0.8,
    "month": 0.5,
    "word": 0.4,
    "time": 0.3,
}
MAX_SHARE = 0.01
"""Keys mentioned in more than this share of the episode's turns do not spread."""
MIN_DF_CAP = 8
"""... but a key in at most this many turns always may (small episodes)."""
MAX_WORD_DF = 5
"""A word of a longer name links only when it is rare: "Harrowgate" joins "Harrowgate Renal
Unit", while "Road" or "Centre" would join every road and centre."""
DECAY = 0.5
HOPS = 3
CHAIN_HOPS = 2
CHAIN_DECAY = 0.7


@dataclass(frozen=True)
class Path:
    """How a turn was reached: through ``key``, ``hop`` hops from a seed (from ``via``)."""

    key: str
    hop: int
    via: str | None  # the key one hop earlier, if any

    def describe(self) -> str:
        where = "the disclosure" if self.hop == 1 else f"{self.hop} hops from the disclosure"
        text = f"mentions {kind(self.key)} '{label(self.key)}' ({where}"
        return text + (f", via '{label(self.via)}')" if self.via else ")")


class EntityGraph:
    """The turn x key incidence of one episode with key weights."""

    def __init__(self, view: EpisodeView):
        self.view = view
        self.keys = sorted(view.key_df)
        self.index = {k: j for j, k in enumerate(self.keys)}
        rows, cols = [], []
        for i, turn_keys in enumerate(view.keys):
            for key in set(turn_keys):
                rows.append(i)
                cols.append(self.index[key])
        n, m = len(view), len(self.keys)
        self.incidence = sparse.csr_matrix((np.ones(len(rows), dtype=np.float64), (rows, cols)), shape=(n, m))
        df = np.array([view.key_df[k] for k in self.keys], dtype=np.float64)
        cap = max(MIN_DF_CAP, MAX_SHARE * n)
        self.df = df
        self._contexts: tuple[list[int], np.ndarray] | None = None
        self.weight = np.array(
            [
                KIND_WEIGHT.get(kind(k), 0.5) * max(0.0, math.log((n + 1) / (d + 0.5)))
                if d <= (min(cap, MAX_WORD_DF) if kind(k) == "word" else cap)
                else 0.0
                for k, d in zip(self.keys, df, strict=True)
            ]
        )

    def key_weight(self, key: str) -> float:
        j = self.index.get(key)
        return float(self.weight[j]) if j is not None else 0.0

    def names(self) -> list[int]:
        """Indices of the keys that are names and may spread."""
        return [j for j, k in enumerate(self.keys) if kind(k) == "name" and self.weight[j] > 0]

    def related_names(self, query: np.ndarray, top: int) -> list[tuple[str, float]]:
        """The ``top`` names whose context is most like ``query`` (a projected vector).

        A name's context is the mean of the vectors of the turns that mention it plus
        the vector of the name itself: "Birch Maternity Unit", said in turns about
        babies, resembles a disclosure of a pregnancy although no turn about it uses
        the word. Only names that may spread are considered; scores are cosines.
        """
        names = self.names()
        if not names or top <= 0:
            return []
        if self._contexts is None or len(self._contexts[0]) != len(names):
            context = np.zeros((len(names), self.view.vectors.shape[1]), dtype=np.float64)
            for row, j in enumerate(names):
                context[row] = self.view.vectors[self.incidence[:, j].nonzero()[0]].mean(axis=0)
            own = self.view.project(
                np.asarray(self.view.embedder.embed_documents([label(self.keys[j]) for j in names]))
            )
            both = context / np.maximum(np.linalg.norm(context, axis=1, keepdims=True), 1e-12) + own
            both /= np.maximum(np.linalg.norm(both, axis=1, keepdims=True), 1e-12)
            self._contexts = (names, both)
        names, both = self._contexts
        scores = both @ query
        order = sorted(range(len(names)), key=lambda r: (-scores[r], r))[:top]
        return [(self.keys[names[r]], float(scores[r])) for r in order]

    def chain(self, anchors: Mapping[str, float], hops: int = CHAIN_HOPS) -> dict[str, float]:
        """Names linked to ``anchors`` (name -> strength) by being said together, up to
        ``hops`` links away, each link keeping :data:`CHAIN_DECAY` of the strength: the
        specialist named in a disclosure, the practice they have rooms at, the street
        the practice is on. Only names that may spread take part."""
        strength = {k: s for k, s in anchors.items() if kind(k) == "name" and self.key_weight(k) > 0}
        frontier = dict(strength)
        for _ in range(hops):
            reached: dict[str, float] = {}
            for key, s in frontier.items():
                for i in self.incidence[:, self.index[key]].nonzero()[0]:
                    for other in self.view.keys[i]:
                        if kind(other) == "name" and other not in strength and self.key_weight(other) > 0:
                            reached[other] = max(reached.get(other, 0.0), s * CHAIN_DECAY)
            strength.update(reached)
            frontier = reached
        return strength

    def spread(
        self,
        seeds: Mapping[int, float],
        hops: int = HOPS,
        exclude: frozenset[int] = frozenset(),
        seed_keys: Mapping[str, float] | None = None,
    ) -> tuple[np.ndarray, dict[int, Path]]:
        """Activation of every turn after ``hops`` hops from ``seeds`` (turn -> strength)
        and ``seed_keys`` (key -> strength, spreading from the first hop), and the best
        path to each reached turn. Turns in ``exclude`` (the disclosure candidates) pass
        activation on but score 0."""
        n = len(self.view)
        scores = np.zeros(n)
        paths: dict[int, Path] = {}
        if (not seeds and not seed_keys) or not len(self.keys):
            return scores, paths
        active = np.zeros(n)
        for i, strength in seeds.items():
            active[i] = strength
        key_parent: dict[int, int | None] = {}  # key index -> key index one hop earlier
        turn_parent: dict[int, int] = {}  # turn -> the key that activated it best
        seen_keys: set[int] = set()
        sqrt_df = np.sqrt(np.maximum(self.df, 1.0))
        for hop in range(1, hops + 1):
            key_act = (self.incidence.T @ active) * self.weight / sqrt_df
            if hop == 1:
                top = key_act.max() if len(key_act) else 0.0
                key_act = key_act / top if top > 0 else key_act
                for key, strength in (seed_keys or {}).items():
                    j = self.index.get(key)
                    if j is not None and self.weight[j] > 0:
                        key_act[j] = max(key_act[j], strength)
                        key_parent.setdefault(j, None)
            key_act[list(seen_keys)] = 0.0  # each key spreads once, at its first hop
            live = np.flatnonzero(key_act > 1e-12)
            if not len(live):
                break
            for j in live:
                if j not in key_parent or (hop == 1 and key_parent[j] is None):
                    holders = self.incidence[:, j].nonzero()[0]
                    parent = max(holders, key=lambda i: (active[i], -i))
                    key_parent[j] = turn_parent.get(int(parent))
            seen_keys.update(int(j) for j in live)
            contribution = self.incidence[:, live].multiply(key_act[live]).tocsr()
            turn_act = np.asarray(contribution.sum(axis=1)).ravel()
            best = np.asarray(contribution.argmax(axis=1)).ravel()
            factor = DECAY ** (hop - 1)
            turn_act[[i for i in seeds if seeds[i] >= 1.0]] = 0.0  # a full seed spread already
            top = turn_act.max()
            if top <= 1e-12:
                break
            turn_act = turn_act / top
            for i in np.flatnonzero(turn_act > 1e-12):
                if i in exclude:
                    continue  # spreads further, scores nothing
                gain = factor * turn_act[i]
                if i not in paths or gain > scores[i]:
                    j = int(live[best[i]])
                    via = key_parent.get(j)
                    paths[int(i)] = Path(self.keys[j], hop, self.keys[via] if via is not None else None)
                    turn_parent.setdefault(int(i), j)
                scores[i] += gain
            active = turn_act
        return scores, paths
