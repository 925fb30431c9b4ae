"""A deletion request end to end: plan, execute, audit, and the receipt's body.

``Memory.forget_request`` opens the transaction and signs; this module decides what
happens inside it. The receipt extends the one of item erasure
(:mod:`govmem.governance.receipts`) with ``kind: "request"``, the request's digest,
the plan's turn ids by stage and the audit's result. Ids and digests only: no text,
no reasons (reasons quote names from deleted turns).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from govmem.governance.forgetting.audit import AuditBudget, AuditResult, probe
from govmem.governance.forgetting.execute import Delete, fresh
from govmem.governance.forgetting.plan import ForgettingPlan
from govmem.governance.forgetting.planner import episode_view, plan_forgetting, requester_names
from govmem.governance.forgetting.selector import Selector
from govmem.governance.receipts import ErasureLedger, Receipt, sha256_text

if TYPE_CHECKING:
    from govmem.api.memory import Memory


@dataclass
class RequestOutcome:
    plan: ForgettingPlan
    audit: AuditResult
    deleted: list[str]


def run_request(
    memory: Memory,
    text: str,
    requested_by: str,
    episode_id: str,
    *,
    delete: Delete,
    budget: int | None = None,
    audit: AuditBudget | None = None,
    selector: Selector | None = None,
) -> RequestOutcome:
    """Plan, delete the plan by closure, then audit and delete support while the
    audit's budget lasts. Everything runs in the caller's transaction."""
    audit_budget = audit or AuditBudget()
    view = episode_view(memory, episode_id)
    plan = plan_forgetting(memory, text, requested_by, episode_id, budget, selector=selector, view=view)
    deleted: list[str] = []
    result = AuditResult(audit_budget, threshold=plan.threshold)
    if plan.turn_ids:
        todo = fresh(plan.turn_ids, set())
        delete(todo)
        deleted.extend(todo)
    names = requester_names(memory, requested_by)
    if plan.secret is None:
        return RequestOutcome(plan, result, deleted)
    survivors = view.without(set(deleted))
    left = audit_budget.turns
    for _ in range(audit_budget.rounds):
        support = probe(survivors, plan, text, requested_by, names, audit_budget.support)
        take = fresh([turn_id for turn_id, _, _ in support], set(deleted))[:left]
        if not take:
            break
        for turn_id, score, reasons in support:
            if turn_id in take:
                for reason in reasons:
                    plan.consider(turn_id, reason)
                plan.consider(
                    turn_id, f"selected by the audit: still supports the secret (score {score:.3f})"
                )
        delete(take)
        deleted.extend(take)
        result.rounds.append(take)
        left -= len(take)
        survivors = survivors.without(set(take))
    remaining = probe(survivors, plan, text, requested_by, names, audit_budget.support)
    result.support_left = len(remaining)
    result.max_support = remaining[0][1] if remaining else 0.0
    return RequestOutcome(plan, result, deleted)


def request_receipt(
    ledger: ErasureLedger,
    outcome: RequestOutcome,
    *,
    store_id: str,
    request_text: str,
    requested_by: str,
    episode_id: str,
    at: str | None,
    issued_at: str,
    objects_added: Sequence[str],
) -> dict[str, Any]:
    """The unsigned receipt body of a deletion request.

    ``collateral`` counts the deleted turns other than the best disclosure candidate:
    an upper bound on what was deleted beyond the secret (the other candidates and the
    trail may be evidence, but govmem cannot know which of them were).
    """
    plan = outcome.plan
    added = set(outcome.audit.added)
    body = Receipt.of(
        ledger,
        store_id=store_id,
        request={
            "requested_by": requested_by,
            "episode_id": episode_id,
            "request_sha256": sha256_text(request_text),
            "at": at,
        },
        issued_at=issued_at,
        objects_added=list(objects_added),
        tombstones_added=0,
    ).to_dict()
    body["kind"] = "request"
    body["collateral"] = len([t for t in outcome.deleted if t not in set(plan.disclosure[:1])])
    body["plan"] = {
        "disclosure_turns": sorted(t for t in plan.disclosure if t in set(outcome.deleted)),
        "trail_turns": sorted(t for t in outcome.deleted if t not in set(plan.disclosure) and t not in added),
        "audit_turns": sorted(added),
        "candidates": len(plan.candidates),
    }
    body["audit"] = outcome.audit.to_dict()
    return body
