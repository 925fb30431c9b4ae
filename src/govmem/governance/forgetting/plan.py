"""The plan a deletion request produces: which source turns to delete, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from govmem.governance.forgetting.trail import Secret


@dataclass
class ForgettingPlan:
    """What to delete, in source-turn ids, and every turn considered with why.

    ``candidates`` maps every turn the planner considered to its reasons (the chosen
    ones end with a "selected: ..." reason). ``disclosure`` holds the turns taken as
    the disclosure. ``expansions`` are the words, names and values the trail was
    searched with: the audit probes with them while the request runs. They are
    derived from the deleted text, so they are never stored or put in a receipt.
    """

    turn_ids: list[str] = field(default_factory=list)
    candidates: dict[str, list[str]] = field(default_factory=dict)
    disclosure: list[str] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)
    expansions: list[str] = field(default_factory=list)
    secret: Secret | None = None
    """The disclosure's text, words and mentions: what the audit probes with (never stored)."""
    scale: dict[str, float] = field(default_factory=dict)
    """The trail channels' normalisers, so that the audit's scores compare with the plan's."""
    threshold: float = 0.0
    """The lowest trail score the plan selected: a survivor scoring this much is support."""

    def consider(self, turn_id: str, reason: str) -> None:
        self.candidates.setdefault(turn_id, []).append(reason)
