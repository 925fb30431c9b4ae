"""The baseline forgetting planner (govmem-baseline): the request's best match, its reasons, the budget."""

from __future__ import annotations

from govmem import Memory, Turn
from govmem.governance import OpenAccess
from govmem.governance.forgetting import ForgettingPlan, plan_baseline


def store() -> Memory:
    memory = Memory(":memory:", designs=["turn"], authorizer=OpenAccess(), interpreter=None)
    memory.add_principal("ana", "user", "Ana Ruiz")
    memory.add_principal("jonas", "user", "Jonas Berg")
    memory.ingest_many(
        [
            Turn("t1", "jonas", "My sister is pregnant with twins, can you believe it.", "ep"),
            Turn("t2", "ana", "Between us: I'm pregnant. Nobody at work knows yet.", "ep"),
            Turn("t3", "ana", "Dr. Okafor moved my Thursday slot to 8:40.", "ep"),
            Turn("t4", "jonas", "We need oat milk and batteries.", "ep"),
        ]
    )
    return memory


def test_baseline_deletes_the_requesters_best_match() -> None:
    with store() as memory:
        plan = plan_baseline(memory, "Please forget that I told you I'm pregnant.", "ana", "ep")
        assert isinstance(plan, ForgettingPlan)
        assert plan.turn_ids == ["t2"]  # Jonas's look-alike may rank first, but it is not Ana's
        assert any(reason.startswith("selected") for reason in plan.candidates["t2"])
        assert all(reason.startswith("retrieved") for reason in plan.candidates.get("t1", ["retrieved"]))
        assert "t3" not in plan.turn_ids  # the baseline does not look for the evidence trail


def test_budget_and_other_episodes() -> None:
    with store() as memory:
        assert plan_baseline(memory, "forget that I'm pregnant", "ana", "ep", budget=0).turn_ids == []
        assert plan_baseline(memory, "forget that I'm pregnant", "ana", "another").turn_ids == []
