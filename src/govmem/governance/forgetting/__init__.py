"""Forgetting a secret and its evidence trail: plan, execute, audit, receipt.

Each stage is its own module: :mod:`.planner` (with :mod:`.disclosure`, :mod:`.trail`,
:mod:`.entity_graph`, :mod:`.mentions`, :mod:`.episode`, :mod:`.selector`),
:mod:`.execute`, :mod:`.audit` and :mod:`.request` (the whole request with its
signed receipt). :mod:`.baseline` keeps the benchmark's floor.
"""

from govmem.governance.forgetting.audit import AuditBudget, AuditResult
from govmem.governance.forgetting.baseline import plan_baseline
from govmem.governance.forgetting.plan import ForgettingPlan
from govmem.governance.forgetting.planner import DEFAULT_BUDGET, plan_forgetting
from govmem.governance.forgetting.selector import Candidate, LLMSelector, ScoreSelector, Selector

__all__ = [
    "DEFAULT_BUDGET",
    "AuditBudget",
    "AuditResult",
    "Candidate",
    "ForgettingPlan",
    "LLMSelector",
    "ScoreSelector",
    "Selector",
    "plan_baseline",
    "plan_forgetting",
]
