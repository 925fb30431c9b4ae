"""The forgetting planner: which source turns a deletion request should delete.

``plan_forgetting(memory, request_text, requested_by, episode_id, budget)`` sees the
request, who asks and the store; never annotations. Stages:

1. **disclosure** (:mod:`.disclosure`): the requester's turns that best state what
   the request names; the best :data:`~.disclosure.MAX_DISCLOSURES` are all taken
   (a wrong extra costs one turn, a missed disclosure costs the whole request);
2. **trail** (:mod:`.trail`): every turn of the episode scored as evidence, through
   the entity graph (multi-hop from the disclosure), the owner's links to names said
   with the disclosure's or resembling it, meaning, words and values, each with its reasons;
3. **selection** (:mod:`.selector`): the disclosure plus the best candidates within
   the budget (:data:`DEFAULT_BUDGET` turns in all by default), by score offline or
   by a configured LLM.

The episode is read whole (:class:`.episode.EpisodeView`), not through a retrieval
pool: candidate coverage is what MemCut finds missing in pool-based cleanup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from govmem.errors import InputError
from govmem.governance.forgetting.disclosure import find_disclosure
from govmem.governance.forgetting.entity_graph import EntityGraph
from govmem.governance.forgetting.episode import EpisodeView
from govmem.governance.forgetting.plan import ForgettingPlan
from govmem.governance.forgetting.selector import Candidate, ScoreSelector, Selector
from govmem.governance.forgetting.trail import find_trail
from govmem.read_path.recall import resolve_requester

if TYPE_CHECKING:
    from govmem.api.memory import Memory

DEFAULT_BUDGET = 17
"""Turns a plan deletes at most, disclosure included (the audit may add a few more)."""
SCORE_FLOOR = 0.2
"""Trail turns scoring less are never selected offline, whatever the budget left: on
the hand-made set this halved collateral at the same residual derivability."""
SUPPORT_FLOOR = 0.3
"""The audit's support threshold when the plan chose no trail turn (a share of the best
score a channel gave in the plan)."""
CANDIDATES = 60
"""Best-scored turns kept as candidates (with reasons) beyond those selected."""


def episode_view(memory: Memory, episode_id: str, exclude: frozenset[str] = frozenset()) -> EpisodeView:
    """The episode's surviving turns (minus ``exclude``) as the planner reads them."""
    turns = [t for t in memory.store.episode_turns(episode_id) if t.turn.turn_id not in exclude]
    return EpisodeView.load(turns, memory.embedder, episode_id)


def requester_names(memory: Memory, requested_by: str) -> list[str]:
    """How the requester may be named in others' turns: display name and its first word."""
    principal = memory.store.get_principal(requested_by)
    names = [requested_by]
    if principal is not None and principal.display_name:
        names += [principal.display_name, *principal.display_name.split()]
    return [n for n in dict.fromkeys(names) if len(n) >= 3]


def check_request(memory: Memory, request_text: str, requested_by: str, episode_id: str) -> None:
    """Clear errors for an empty request, an unknown requester or an empty episode."""
    if not request_text or not request_text.strip():
        raise InputError("a deletion request needs its text")
    resolve_requester(memory.store, requested_by)
    if not memory.store.episode_turns(episode_id):
        raise InputError(f"no turns in episode {episode_id!r}")


def plan_forgetting(
    memory: Memory,
    request_text: str,
    requested_by: str,
    episode_id: str,
    budget: int | None = None,
    *,
    selector: Selector | None = None,
    view: EpisodeView | None = None,
) -> ForgettingPlan:
    """What to delete for ``request_text`` by ``requested_by`` in ``episode_id``.

    ``budget`` caps the turns deleted (default :data:`DEFAULT_BUDGET`); 0 plans nothing.
    """
    check_request(memory, request_text, requested_by, episode_id)
    budget = DEFAULT_BUDGET if budget is None else budget
    if budget < 0:
        raise InputError("the budget must not be negative")
    view = view if view is not None else episode_view(memory, episode_id)
    plan = ForgettingPlan()
    found = find_disclosure(view, request_text, requested_by)
    if not found.turns:
        return plan
    graph = EntityGraph(view)
    trail = find_trail(
        view, graph, found.turns, request_text, requested_by, requester_names(memory, requested_by)
    )
    disclosure = list(found.turns)
    plan.disclosure = [view.turn_id(i) for i in disclosure]
    plan.expansions = trail.expansions
    plan.secret = trail.secret
    plan.scale = trail.scale
    for i in disclosure:
        plan.consider(view.turn_id(i), found.reasons[i])
        plan.scores[view.turn_id(i)] = 1.0
    order = [int(i) for i in np.argsort(-trail.scores, kind="stable")[:CANDIDATES] if trail.scores[i] > 0]
    candidates = [
        Candidate(
            view.turn_id(i),
            view.turns[i].turn_key,
            view.text(i),
            float(trail.scores[i]),
            tuple(trail.reasons.get(i, ())),
        )
        for i in order
    ]
    for c in candidates:
        plan.scores[c.turn_id] = c.score
        for reason in c.reasons:
            plan.consider(c.turn_id, reason)
    shown = [
        Candidate(view.turn_id(i), view.turns[i].turn_key, view.text(i), 1.0, (found.reasons[i],))
        for i in disclosure
    ]
    kept = disclosure[:budget]
    plan.turn_ids = [view.turn_id(i) for i in kept]
    for turn_id in plan.turn_ids:
        plan.consider(turn_id, "selected: disclosure")
    pool = [c for c in candidates if c.score >= SCORE_FLOOR] if selector is None else candidates
    chosen = (selector or ScoreSelector()).select(request_text, shown, pool, budget - len(kept))
    for turn_id, why in chosen:
        if turn_id not in plan.turn_ids:
            plan.turn_ids.append(turn_id)
            plan.consider(turn_id, why)
    picked = [plan.scores[t] for t in plan.turn_ids if t not in plan.disclosure and t in plan.scores]
    plan.threshold = min(picked) if picked else SUPPORT_FLOOR
    return plan
