"""The residual-recovery audit: can the secret still be reconstructed from what survives?

After a plan is executed, the probe searches the surviving turns of the episode the
way the planner did, but from the deleted disclosure's content (its text, words and
mentions, known to the audit while the request runs and never stored) and the
planner's expansions (related names): a survivor that scores at least the weakest
turn the plan chose (``support`` times the plan's threshold) is *support* the secret
still has. While support remains, the audit deletes the best-supported survivors and
probes again, within a stated budget of rounds and turns; what is left is reported
in the receipt (``support_left``, ``passed``).

The probe reads the survivors through an :class:`~.episode.EpisodeView` (inside the
request's transaction, so it sees its own deletions), not the retriever's
in-process index, which is only brought up to date after the commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from govmem.errors import InputError
from govmem.governance.forgetting.entity_graph import EntityGraph
from govmem.governance.forgetting.episode import EpisodeView
from govmem.governance.forgetting.plan import ForgettingPlan
from govmem.governance.forgetting.trail import find_trail


@dataclass(frozen=True)
class AuditBudget:
    """How far the audit may go beyond the plan: ``rounds`` of deletion, ``turns`` in all."""

    rounds: int = 2
    turns: int = 4
    support: float = 1.0
    """A survivor is support when its score reaches this multiple of the plan's threshold."""

    def __post_init__(self) -> None:
        if self.rounds < 0 or self.turns < 0 or self.support <= 0:
            raise InputError("audit rounds and turns must not be negative, support must be positive")


@dataclass
class AuditResult:
    """What the audit did and found; :meth:`to_dict` is the receipt's ``audit`` field."""

    budget: AuditBudget
    rounds: list[list[str]] = field(default_factory=list)
    support_left: int = 0
    max_support: float = 0.0
    threshold: float = 0.0

    @property
    def added(self) -> list[str]:
        return [t for r in self.rounds for t in r]

    def to_dict(self) -> dict[str, Any]:
        return {
            "probe": "residual-recovery",
            "budget": {
                "rounds": self.budget.rounds,
                "turns": self.budget.turns,
                "support": self.budget.support,
            },
            "rounds": len(self.rounds),
            "turns_added": [len(r) for r in self.rounds],
            "support_left": self.support_left,
            "max_support": round(self.max_support / self.threshold, 4) if self.threshold > 0 else 0.0,
            "passed": self.support_left == 0,
        }


def probe(
    view: EpisodeView,
    plan: ForgettingPlan,
    request: str,
    requester: str,
    names: Sequence[str],
    support: float,
) -> list[tuple[str, float, list[str]]]:
    """Surviving turns that still support the secret: (turn id, score, reasons), best first."""
    if plan.secret is None or not len(view):
        return []
    trail = find_trail(
        view, EntityGraph(view), [], request, requester, names, secret=plan.secret, scale=plan.scale
    )
    floor = support * plan.threshold
    order = np.argsort(-trail.scores, kind="stable")
    found = []
    for i in order:
        if trail.scores[i] < floor or trail.scores[i] <= 0:
            break
        found.append((view.turn_id(int(i)), float(trail.scores[i]), trail.reasons.get(int(i), [])))
    return found
