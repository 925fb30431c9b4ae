"""The read path: one pipeline that every read surface goes through.

    resolve requester -> assess the query -> authorize (scope) -> retrieve and rank
    within scope -> review what will be returned (redact) -> decide -> audit

Authorization runs before ranking, so top-k is taken over permitted objects only,
and again on the objects returned, so nothing reaches the caller unchecked. The
action comes from the query and the permitted results only: ``refuse`` when the
query asks only about facets the requester may not read (decided before any
memory is looked at), ``answer_redacted`` when it asks about some of them,
``no_memory`` when nothing permitted matches. What was withheld goes to the
decision log, never into the result, so a refusal or a redaction does not
reveal whether protected memory exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from govmem.errors import InputError, UnknownPrincipal
from govmem.governance.audit import DecisionLog
from govmem.governance.authorization import Authorizer, utc_now
from govmem.models import MemoryObject, Principal
from govmem.read_path.forgotten_probe import asks_for_forgotten
from govmem.read_path.visible_ranking import rank_on_visible_text
from govmem.retrieval.retriever import HybridRetriever
from govmem.store.base import Store
from govmem.timestamps import normalize_timestamp

ACTIONS = ("answer", "answer_redacted", "refuse", "no_memory")
MAX_QUERY_CHARS = 8192
MAX_K = 1000


@dataclass(frozen=True)
class Decision:
    """What recall decided to do, and the rules that led there."""

    action: str
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecallItem:
    object_id: str
    kind: str
    text: str
    sources: tuple[str, ...]
    episode_id: str
    observed_at: str | None
    scores: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class RecallResult:
    requester: str
    query: str
    items: list[RecallItem]
    decision: Decision

    @property
    def action(self) -> str:
        return self.decision.action

    def context(self) -> str:
        """The permitted memory as the text an answering model would be given."""
        return "\n\n".join(f"[{item.object_id}] {item.text}" for item in self.items)

    def to_dict(self) -> dict:
        return asdict(self)


def recall(
    store: Store,
    retriever: HybridRetriever,
    authorizer: Authorizer,
    requester: str,
    query: str,
    k: int = 10,
    as_of: str | None = None,
    kinds: Sequence[str] | None = None,
    audit: DecisionLog | None = None,
) -> RecallResult:
    if not isinstance(query, str) or not query.strip():
        raise InputError("query is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    if not 1 <= k <= MAX_K:
        raise InputError(f"k must be between 1 and {MAX_K}, got {k}")
    as_of = normalize_timestamp(as_of, "as_of")
    with store.snapshot():
        result, audit_entry = _recall(store, retriever, authorizer, requester, query, k, as_of, kinds)
    if audit is not None:
        audit.record(*audit_entry)
    return result


def _recall(
    store: Store,
    retriever: HybridRetriever,
    authorizer: Authorizer,
    requester: str,
    query: str,
    k: int,
    as_of: str | None,
    kinds: Sequence[str] | None,
) -> tuple[RecallResult, tuple]:
    """Recall inside one snapshot; returns the result and its decision-log entry."""
    principal = resolve_requester(store, requester)
    at = as_of or utc_now()

    assessment = authorizer.assess_query(store, principal, query, at)
    if assessment.denied and not assessment.allowed:
        decision = Decision("refuse", assessment.rules)
        entry = (principal, "recall", decision.action, [], [], decision.reasons, query, as_of)
        return RecallResult(requester, query, [], decision), entry

    if asks_for_forgotten(query, store.forgotten_kinds()):
        decision = Decision("no_memory", ("forgotten-item-probe",))
        entry = (principal, "recall", decision.action, [], [], decision.reasons, query, as_of)
        return RecallResult(requester, query, [], decision), entry

    scope = authorizer.scope(store, principal, at)
    candidates = retriever.search(query, max(4 * k, 50), kinds, as_of, scope.labels)
    shortlist = candidates[: 2 * k]
    found = store.get_objects([c.key for c in shortlist])
    pairs = [(c, found[c.key]) for c in shortlist if c.key in found]
    reviews = authorizer.review(store, principal, [obj for _, obj in pairs], at)
    visible = [(c, r) for (c, _), r in zip(pairs, reviews, strict=True) if r.visible is not None]
    if not authorizer.reveals_scores:
        visible = rank_on_visible_text(store, retriever, query, visible)
    items = [item_of(review.visible, candidate.scores) for candidate, review in visible[:k]]
    if assessment.denied:
        action = "answer_redacted" if items else "refuse"
    else:
        action = "answer" if items else "no_memory"
    decision = Decision(action, tuple(sorted(set(scope.reasons) | set(assessment.rules))))
    withheld = [
        {"object_id": obj.object_id, "redacted": review.visible is not None, "rules": list(review.rules)}
        for (_, obj), review in zip(pairs, reviews, strict=True)
        if review.redacted
    ]
    returned = [item.object_id for item in items]
    entry = (principal, "recall", action, returned, withheld, decision.reasons, query, as_of)
    return RecallResult(requester, query, items, decision), entry


def resolve_requester(store: Store, requester: str) -> Principal:
    """The authenticated principal behind a request; identity never comes from query text."""
    if not isinstance(requester, str) or not requester:
        raise InputError("a read needs the requester's principal id")
    principal = store.get_principal(requester)
    if principal is None:
        raise UnknownPrincipal(requester, "requester")
    return principal


def item_of(obj: MemoryObject, scores: dict[str, float] | None = None) -> RecallItem:
    return RecallItem(
        object_id=obj.object_id,
        kind=obj.kind,
        text=obj.text,
        sources=obj.sources,
        episode_id=obj.episode_id,
        observed_at=obj.observed_at,
        scores=scores or {},
    )
