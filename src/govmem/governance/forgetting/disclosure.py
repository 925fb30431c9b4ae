"""Finding the disclosure: the requester's own turns that state what they ask to forget.

govmem is given only the request and who asks. The disclosure is looked for among
the requester's turns (a person can ask to forget what they said; what others said
about them is the trail, found later), ranked by the request's topic words (IDF
overlap, the words of the act of asking removed: "delete", "please", "everything")
and by meaning (cosine in the episode-projected space), fused by reciprocal rank so
neither scale dominates. First-person statements rank ahead of remarks about
others ("my sister is pregnant" is a look-alike of "I'm pregnant").

The best turn is taken, with any other whose fused score comes within
:data:`MARGIN` of it (a secret said twice), at most :data:`MAX_DISCLOSURES`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from govmem.governance.forgetting.episode import EpisodeView, topic_words

MARGIN = 0.0
MAX_DISCLOSURES = 3
RRF_K = 10
VALUE_BONUS = 1.0
BONUS = {"place": 3.0, "code": 3.0}
"""Reciprocal-rank credit (in units of 1 / RRF_K) for stating the kind of value asked about
(VALUE_BONUS, or BONUS for an address or a code: a turn stating one is rarely not it)."""
VALUE_KINDS = (
    (
        re.compile(
            r"\b(?:address|where\s+(?:i|we|they)\s+(?:live|lived|living|moved|stay)|(?:new|our|my)\s+(?:home|flat|house))\b",
            re.I,
        ),
        "place",
    ),
    (re.compile(r"\b(?:pin|code|password|passcode|number|combination)\b", re.I), "code"),
    (
        re.compile(r"\b(?:how much|debts?|owe|owed|money|spent|losses|salary|paid|price|cost)\b", re.I),
        "amount",
    ),
    (re.compile(r"\b(?:when|date|day|birthday|appointment)\b", re.I), "date"),
)
"""What kind of value a request asks to forget, from its wording: a place, a code, an
amount, a date. The disclosure then states a value of that kind."""
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i’m|i’ve|me|my|mine|we|we're|we’re|our|us)\b", re.I)


STREET_TYPES = frozenset(
    """street st road rd lane ln avenue ave terrace crescent close way drive place row mews
    court square gardens grove hill park walk parade boulevard gate green rise yard wharf""".split()  # noqa: SIM905
)
"""Last words of English street names: with a number in the same turn, an address."""


_FLAT = re.compile(r"\b(?:flat|apartment|apt|unit)\s+\d+", re.I)


def _is_address(text: str, streets: list[str]) -> bool:
    """A street given with its house number ("52 Alder Way") or a flat number beside it."""
    return bool(_FLAT.search(text)) or any(
        re.search(rf"\b\d+[a-z]?,?\s+{re.escape(street)}\b", text, re.I) for street in streets
    )


def states(text: str, keys: list[str], wanted: str) -> bool:
    """Whether a turn (its text and mentions) states a value of the ``wanted`` kind: an
    address (a street named with a number), a code of four digits or more, an amount,
    a day-date."""
    kinds = {k.partition(":")[0] for k in keys}
    if wanted == "place":
        streets = [k[5:] for k in keys if k.startswith("name:") and k.rsplit(" ", 1)[-1] in STREET_TYPES]
        return bool(streets) and _is_address(text, streets)
    if wanted == "code":
        return any(k.startswith("num:") and len(k) >= 8 for k in keys)  # four digits or more
    if wanted == "amount":
        return "amt" in kinds
    return "date" in kinds


@dataclass(frozen=True)
class Disclosure:
    """Positions of the turns taken as the disclosure, with why, best first."""

    turns: tuple[int, ...]
    reasons: dict[int, str]


def find_disclosure(view: EpisodeView, request: str, requester: str) -> Disclosure:
    """The requester's turns that best state what ``request`` asks to forget."""
    own = [i for i in range(len(view)) if view.speaker(i) == requester]
    if not own:
        return Disclosure((), {})
    topic = topic_words(request)
    query = " ".join(topic) or request
    meaning = view.similarity(query)[own]
    lexical = view.lexical(topic)[own]
    first_person = np.array([1.0 if _FIRST_PERSON.search(view.text(i)) else 0.0 for i in own])
    fused = np.zeros(len(own))
    for scores in (meaning, lexical):
        order = np.argsort(-scores, kind="stable")
        ranks = np.empty(len(own))
        ranks[order] = np.arange(1, len(own) + 1)
        fused += np.where(scores > 0, 1.0 / (RRF_K + ranks), 0.0)
    wanted = [kind for pattern, kind in VALUE_KINDS if pattern.search(request)]
    if wanted:
        fused += np.array(
            [
                max(
                    (BONUS.get(w, VALUE_BONUS) for w in wanted if states(view.text(i), view.keys[i], w)),
                    default=0.0,
                )
                / RRF_K
                for i in own
            ]
        )
    fused *= 1.0 + 0.25 * first_person
    order = np.argsort(-fused, kind="stable")
    best = fused[order[0]]
    if best <= 0:
        return Disclosure((), {})
    chosen = [int(r) for r in order[:MAX_DISCLOSURES] if fused[r] >= MARGIN * best]
    turns = tuple(own[r] for r in chosen)
    reasons = {
        own[r]: (
            f"disclosure: the requester's turn ranked {rank} for the request "
            f"(meaning {meaning[r]:.2f}, words {lexical[r]:.2f}, fused {fused[r]:.3f})"
        )
        for rank, r in enumerate(chosen, start=1)
    }
    return Disclosure(turns, reasons)
