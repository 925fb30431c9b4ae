"""Executing a plan: closure deletion of its source turns, all or nothing.

Deletion is ``Memory.delete_turns``'s closure (every object derived from a deleted
turn -- session windows, summaries, facts, vectors, full-text rows, cached LLM
replies -- is removed or derived again from the survivors), never a routine of its
own. :func:`execute_plan` runs it in its own transaction; a deletion request runs
the same closure inside its transaction through the ``delete`` callback it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from govmem.governance.forgetting.plan import ForgettingPlan

if TYPE_CHECKING:
    from govmem.api.memory import Memory, WriteReport

Delete = Callable[[Sequence[str]], int]
"""Deletes turn ids (closure included) in the caller's transaction; returns how many."""


def fresh(turn_ids: Sequence[str], done: set[str]) -> list[str]:
    """``turn_ids`` without repeats and without those already deleted, in order."""
    return [t for t in dict.fromkeys(turn_ids) if t not in done]


def execute_plan(memory: Memory, plan: ForgettingPlan, episode_id: str) -> WriteReport:
    """Delete the plan's turns and everything derived from them, in one transaction."""
    return memory.delete_turns(fresh(plan.turn_ids, set()), episode_id)
