"""Forgetting a secret and its evidence trail: the planner (what to delete) lives here."""

from govmem.governance.forgetting.planner import ForgettingPlan, plan_forgetting

__all__ = ["ForgettingPlan", "plan_forgetting"]
