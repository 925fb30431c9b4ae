"""The evidence trail of a disclosure: every turn of the episode scored, with reasons.

Five channels, each a score in [0, 1] per turn, each its own reason:

- **entities**: multi-hop spreading over the entity graph from the disclosure and the
  turns most like it (:mod:`.entity_graph`);
- **meaning**: cosine of each turn to the disclosure plus the request's topic words
  (query expansion from the disclosure's own content) in the episode-projected space;
- **words**: IDF-weighted overlap with the same words;
- **values**: numbers, amounts and dates of the disclosure's kind said by the owner
  (a total is assembled from amounts, a code from its pieces) -- the entity channel
  links equal values, this one links values of the same unit;
- **links**: the owner's turns naming a name said together with the disclosure's names,
  with names whose context resembles it, or with names in the turns most like it (the
  owner's link into a relation chain; :func:`_owner_links`).

A turn's score is its best channel, multiplied up when the requester said it or is
named in it: a deletion request covers what its requester disclosed, and the trail
of a personal secret runs mostly through its owner's own turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from govmem.governance.forgetting.entity_graph import EntityGraph
from govmem.governance.forgetting.episode import EpisodeView, topic_words
from govmem.governance.forgetting.mentions import kind, label

RELATED_NAMES = 3
RELATED_SHARE = 0.7
"""... of which those scoring at least this share of the best."""
"""Names whose context resembles the disclosure that seed the entity channel."""
MEANING_SEEDS = 3
"""Turns most like the disclosure (of any speaker) that seed the entity channel."""
OWNER_BOOST = 0.6
"""Multiplier bonus for the requester's own turns and turns naming them."""
CHANNEL_WEIGHT = {"entities": 1.0, "meaning": 0.9, "words": 0.7, "values": 0.8, "links": 1.0}
ANCHOR_TURNS = 5
"""Turns most like the disclosure whose names anchor the chains the owner's links join."""
QUOTA = 1
"""Each channel is scaled so that its QUOTA-th best turn scores 1 (a larger quota, which
puts every channel's best few turns on an equal footing, measured no better)."""
TIE_BREAK = 0.05
"""Weight of the sum of all channels, which orders turns whose best channel ties."""


@dataclass
class Trail:
    """Scores of every turn of the episode and why each scored."""

    scores: np.ndarray
    reasons: dict[int, list[str]] = field(default_factory=dict)
    expansions: list[str] = field(default_factory=list)
    """What the trail was searched with beyond the request: the disclosure's words,
    names and values, the related names (for the audit's probe; never in a receipt)."""
    scale: dict[str, float] = field(default_factory=dict)
    secret: Secret | None = None


def owner_mask(view: EpisodeView, requester: str, names: Sequence[str]) -> np.ndarray:
    """1 for the requester's own turns and turns that name them, else 0."""
    lowered = [n.lower() for n in names if n]
    mask = np.zeros(len(view))
    for i in range(len(view)):
        if view.speaker(i) == requester:
            mask[i] = 1.0
        elif lowered:
            text = view.text(i).lower()
            if any(n in text for n in lowered):
                mask[i] = 1.0
    return mask


def _values(
    view: EpisodeView, disclosure: Sequence[int], owner: np.ndarray, keys: Sequence[str]
) -> np.ndarray:
    """Turns of the owner stating a value of the same unit as one the disclosure states:
    amounts in the same currency, day-dates when it states one."""
    kinds = set()
    for key in keys:
        if kind(key) == "amt":
            kinds.add(("amt", label(key)[0]))
        elif kind(key) == "date":
            kinds.add(("date", ""))
    scores = np.zeros(len(view))
    if not kinds:
        return scores
    for i, keys in enumerate(view.keys):
        if not owner[i] or i in disclosure:
            continue
        for key in keys:
            if (kind(key) == "amt" and ("amt", label(key)[0]) in kinds) or (
                kind(key) == "date" and ("date", "") in kinds
            ):
                scores[i] = 1.0
    return scores


def _owner_links(
    view: EpisodeView,
    graph: EntityGraph,
    owner: np.ndarray,
    disclosure: Sequence[int],
    anchors: dict[str, float],
    similarities: Sequence[np.ndarray],
) -> np.ndarray:
    """The owner's links into a chain: their turns (or turns naming them) that mention a
    name said together with the disclosure's names or with names in the turns most like
    it. Every relation chain about a person runs through such a link ("Mr. Sato wants to
    see me" -> "Mr. Sato has rooms at Vantage Advisory" -> "Vantage Advisory handles
    insolvencies"), so deleting the links cuts the chain wherever its other turns are."""
    anchors = dict(anchors)
    for meaning in similarities:
        ranked = [int(i) for i in np.argsort(-meaning, kind="stable")[: ANCHOR_TURNS + len(disclosure)]]
        for i in ranked:
            if i in disclosure or meaning[i] <= 0:
                continue
            for key in view.keys[i]:
                anchors[key] = max(anchors.get(key, 0.0), float(meaning[i]))
    chain = graph.chain(anchors)
    scores = np.zeros(len(view))
    for i in np.flatnonzero(owner):
        scores[i] = max((chain.get(key, 0.0) for key in view.keys[i]), default=0.0)
    scores[list(disclosure)] = 0.0
    return scores


@dataclass(frozen=True)
class Secret:
    """What the trail is searched from: the disclosure's text, words and mentions.

    Built from the disclosure turns while they exist (:meth:`of`); the audit keeps
    it to probe after they are deleted. Held in memory during the request only.
    """

    text: str
    words: tuple[str, ...]
    keys: tuple[str, ...]
    related: tuple[tuple[str, float], ...] = ()

    @classmethod
    def of(cls, view: EpisodeView, disclosure: Sequence[int], request: str) -> Secret:
        topic = topic_words(request)
        lead = disclosure[:1]  # the best candidate leads; the others only seed the graph
        text = " ".join([*(view.text(i) for i in lead), *topic])
        words = (*topic, *(w for i in lead for w in view.words[i]))
        keys = tuple(dict.fromkeys(k for i in lead for k in view.keys[i]))
        return cls(text, words, keys)


def find_trail(
    view: EpisodeView,
    graph: EntityGraph,
    disclosure: Sequence[int],
    request: str,
    requester: str,
    requester_names: Sequence[str] = (),
    secret: Secret | None = None,
    scale: dict[str, float] | None = None,
) -> Trail:
    """Score every turn of ``view`` as evidence for the secret ``disclosure`` states.

    ``secret`` replaces the disclosure's text when the disclosure is gone (the audit:
    ``disclosure`` is then empty and the disclosure's mentions seed the graph).
    ``scale`` fixes each channel's normaliser (the planner's), so that an audit's
    scores compare with the plan's; without it each channel is scaled to its best turn.
    """
    n = len(view)
    secret = secret or Secret.of(view, disclosure, request)
    words = list(secret.words)
    query = view.embed(secret.text)
    owner = owner_mask(view, requester, requester_names)
    boost = 1.0 + OWNER_BOOST * owner
    fixed = scale is not None
    scale = dict(scale or {})

    def unit(name: str, scores: np.ndarray) -> np.ndarray:
        if name not in scale:
            ranked = np.sort(scores)[::-1]
            scale[name] = float(ranked[min(QUOTA, len(ranked)) - 1]) if len(ranked) else 0.0
            if scale[name] <= 0:
                scale[name] = float(ranked[0]) if len(ranked) else 0.0
        top = scale[name]
        return np.clip(scores / top, 0.0, 1.0) if top > 0 else np.zeros_like(scores)

    meaning = unit("meaning", np.maximum(view.vectors @ query, 0.0)) if n else np.zeros(0)
    lexical = unit("words", view.lexical(words))
    first = np.maximum(meaning, lexical * 0.5)
    first[list(disclosure)] = -1.0
    seeds = {i: 1.0 for i in disclosure[:1]}  # the best candidate leads; the others are only deleted
    if not fixed:
        for i in np.argsort(-first, kind="stable")[:MEANING_SEEDS]:
            if first[i] > 0:
                seeds[int(i)] = 0.5 * float(first[i])
    related = (
        list(secret.related)
        or [
            (key, score)
            for key, score in graph.related_names(query, RELATED_NAMES + len(secret.keys))
            if key not in secret.keys  # the disclosure's own names spread from it already
        ][:RELATED_NAMES]
    )
    best = related[0][1] if related else 0.0
    resembling = {key: score / best for key, score in related if best > 0 and score > RELATED_SHARE * best}
    seed_keys: dict[str, float] = {}
    if not disclosure:  # the audit: the disclosure's own mentions stand in for its turns
        for key in secret.keys:
            seed_keys[key] = max(seed_keys.get(key, 0.0), 1.0)
    spread, paths = graph.spread(seeds, seed_keys=seed_keys, exclude=frozenset(disclosure))
    entities = unit("entities", spread)
    values = _values(view, disclosure, owner, secret.keys)
    topical = (
        np.maximum(view.vectors @ view.embed(" ".join(topic_words(request)) or request), 0.0)
        if n
        else np.zeros(0)
    )
    links = _owner_links(
        view,
        graph,
        owner,
        disclosure,
        {**resembling, **dict.fromkeys(secret.keys, 1.0)},
        (meaning, unit("topical", topical), meaning * owner),
    )

    channels = {
        "entities": entities,
        "meaning": meaning,
        "words": lexical,
        "values": values,
        "links": links,
    }
    combined = np.zeros(n)
    chosen = np.full(n, "", dtype=object)
    for name, scores in channels.items():
        weighted = CHANNEL_WEIGHT[name] * scores
        better = weighted > combined
        combined = np.where(better, weighted, combined)
        chosen = np.where(better, name, chosen)
    combined = (combined + TIE_BREAK * sum(channels.values())) * boost
    combined[list(disclosure)] = 0.0

    trail = Trail(combined, scale=scale)
    trail.secret = Secret(secret.text, secret.words, secret.keys, tuple(related))
    trail.expansions = (
        sorted(set(words)) + [label(k) for k in secret.keys] + [label(k) for k in {**seed_keys, **resembling}]
    )
    for i in np.flatnonzero(combined > 0):
        reasons = []
        for name, scores in channels.items():
            if scores[i] <= 0.05:
                continue
            if name == "entities" and i in paths:
                path = paths[int(i)]
                if path.hop == 1 and path.key in seed_keys and path.via is None:
                    reasons.append(
                        f"mentions {kind(path.key)} '{label(path.key)}', whose context resembles "
                        f"the disclosure (entity {scores[i]:.2f})"
                    )
                else:
                    reasons.append(f"{path.describe()} (entity {scores[i]:.2f})")
            elif name == "meaning":
                reasons.append(
                    f"close in meaning to the disclosure and request (cosine rank score {scores[i]:.2f})"
                )
            elif name == "words":
                shared = sorted(set(view.words[i]) & set(words))[:4]
                reasons.append(f"shares words {shared} with the disclosure and request ({scores[i]:.2f})")
            elif name == "links":
                reasons.append(f"the requester names a name linked to the disclosure ({scores[i]:.2f})")
            elif name == "values":
                reasons.append("the requester states a value of the disclosed kind (amount or date)")
        if owner[i]:
            reasons.append("said by the requester or names them")
        if reasons:
            trail.reasons[int(i)] = reasons
    return trail
