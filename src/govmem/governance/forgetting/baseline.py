"""The baseline forgetting planner, kept as the benchmark's ``govmem-baseline`` floor.

Retrieve with the request's own words and delete the best-ranked memory object's
source turns (their closure is the store's job). It does not look for the evidence
trail at all; :mod:`govmem.governance.forgetting.planner` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from govmem.governance.forgetting.plan import ForgettingPlan

if TYPE_CHECKING:
    from govmem.api.memory import Memory

POOL = 20
"""Memory objects retrieved for the request."""


def plan_baseline(
    memory: Memory,
    request_text: str,
    requested_by: str,
    episode_id: str,
    budget: int | None = None,
) -> ForgettingPlan:
    """Baseline plan: the source turns of the object ranked first for the request.

    Every retrieved object's source turns become candidates (with their rank); the
    first object of ``episode_id`` that holds a turn spoken by ``requested_by`` is
    chosen (else the first object of the episode), cut to ``budget`` turns.
    """
    plan = ForgettingPlan()
    ranked = memory.retriever.search(request_text, POOL)
    objects = memory.store.get_objects([candidate.key for candidate in ranked])
    chosen: list[str] | None = None
    fallback: list[str] | None = None
    for rank, candidate in enumerate(ranked, start=1):
        obj = objects.get(candidate.key)
        if obj is None or obj.episode_id != episode_id:
            continue
        for turn_id in obj.sources:
            plan.candidates.setdefault(turn_id, []).append(
                f"retrieved for the request: {obj.object_id} ranked {rank} "
                f"(fused {candidate.scores.get('fused', 0.0):.4f})"
            )
        if fallback is None:
            fallback = list(obj.sources)
        if chosen is None:
            speakers = {t.turn.speaker for t in memory.store.turns_by_keys(obj.source_keys)}
            if requested_by in speakers:
                chosen = list(obj.sources)
    selected = chosen if chosen is not None else fallback or []
    plan.turn_ids = selected[:budget] if budget is not None else selected
    why = (
        "selected: best match holding a turn of the requester"
        if chosen is not None
        else "selected: best match"
    )
    for turn_id in plan.turn_ids:
        plan.candidates[turn_id].append(why)
    return plan
