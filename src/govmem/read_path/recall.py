"""The read path: one pipeline that every read surface goes through.

    resolve requester -> authorize (scope) -> retrieve and rank within scope
    -> re-check what will be returned -> decide the action

Authorization runs before ranking, so top-k is taken over permitted objects only,
and again on the objects returned, so nothing reaches the caller unchecked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from govmem.errors import InputError, UnknownPrincipal
from govmem.governance.authorization import Authorizer
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
) -> RecallResult:
    if not isinstance(query, str) or not query.strip():
        raise InputError("query is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    if not 1 <= k <= MAX_K:
        raise InputError(f"k must be between 1 and {MAX_K}, got {k}")
    as_of = normalize_timestamp(as_of, "as_of")
    principal = store.get_principal(requester)
    if principal is None:
        raise UnknownPrincipal(requester, "requester")

    scope = authorizer.scope(store, principal, as_of)
    candidates = retriever.search(query, max(4 * k, 50), kinds, as_of, scope.allowed)
    shortlist = candidates[: 2 * k]
    found = store.get_objects([c.key for c in shortlist])
    pairs = [(c, found[c.key]) for c in shortlist if c.key in found]
    permitted = authorizer.permits(store, principal, [obj for _, obj in pairs], as_of)
    items = [
        RecallItem(
            object_id=obj.object_id,
            kind=obj.kind,
            text=obj.text,
            sources=obj.sources,
            episode_id=obj.episode_id,
            observed_at=obj.observed_at,
            scores=candidate.scores,
        )
        for (candidate, obj), ok in zip(pairs, permitted, strict=True)
        if ok
    ][:k]
    action = "answer" if items else "no_memory"
    return RecallResult(requester, query, items, Decision(action, scope.reasons))
