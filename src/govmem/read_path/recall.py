"""The read path: one pipeline that every read surface goes through.

    resolve requester -> narrow for a pressured query -> assess the query ->
    authorize (scope) -> retrieve and rank within scope -> withhold what is no longer
    current (revocation) -> review what will be returned (redact) -> decide -> audit

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

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace

from govmem.errors import InputError, UnknownPrincipal
from govmem.governance.audit import DecisionLog
from govmem.governance.authorization import Authorizer, QueryAssessment, utc_now
from govmem.governance.revocation.review import ObjectStatus, RevocationReview
from govmem.models import MemoryObject, Principal
from govmem.read_path.forgotten_probe import asks_for_forgotten
from govmem.read_path.successors import SuccessorView
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
    status: str = "current"
    """``current``; in an audit read also ``superseded``, ``expired`` or ``stale``."""
    superseded_by: tuple[str, ...] = ()
    valid_until: str | None = None
    superseded_statements: tuple[dict, ...] = ()
    """Statements of its sources superseded at the read (turn, text, superseded_by, from,
    reason): cut from ``text``, except in an audit read, which keeps and lists them."""


@dataclass(frozen=True)
class RecallResult:
    requester: str
    query: str
    items: list[RecallItem]
    decision: Decision
    withheld: list[dict] = field(default_factory=list)
    """Records withheld as no longer current (object id, status, reason, superseded_by),
    only those the requester could otherwise have read."""
    conflicts: list[dict] = field(default_factory=list)
    """Unresolved conflicts among the returned records' sources (turn ids, signals)."""
    speakers: tuple[Principal, ...] = ()
    """The principals whose ids label lines of the returned text, for the context's legend."""

    @property
    def action(self) -> str:
        return self.decision.action

    def context(self) -> str:
        """The permitted memory as the text an answering model would be given."""
        entries = [_context_entry(item) for item in self.items]
        if self.speakers:
            entries.append("Speakers: " + "; ".join(_who(p) for p in self.speakers) + ".")
        return "\n\n".join(entries)

    def to_dict(self) -> dict:
        return asdict(self)


def _who(principal: Principal) -> str:
    name = f"{principal.display_name}, " if principal.display_name else ""
    return f"{principal.principal_id} is {name}{principal.role}"


_LINE_SPEAKER = re.compile(r"^(?:\[[^\]\n]*\] )?([^\s:\[\]]+): ", re.MULTILINE)


def speakers_of(store: Store, items: Sequence[RecallItem]) -> tuple[Principal, ...]:
    """The principals named as the speaker of a line of the items' text ("[time] id: ..."),
    in order of first appearance: an answerer reading "resident_laura_chen: I will store
    it" should know that this is Laura Chen. Only speakers of the items' source turns
    count ("rosa: Friday works" quoted inside someone else's turn names no one)."""
    labelled = [(item, _LINE_SPEAKER.findall(item.text)) for item in items]
    labelled = [(item, ids) for item, ids in labelled if ids]
    if not labelled:
        return ()
    wanted: dict[str, set[str]] = {}
    for item, _ in labelled:
        wanted.setdefault(item.episode_id, set()).update(item.sources)
    keys = {
        (episode, turn_id): key
        for episode, turn_ids in wanted.items()
        for turn_id, key in store.turn_keys(episode, sorted(turn_ids)).items()
    }
    speaker_of = {t.turn_key: t.turn.speaker for t in store.turns_by_keys(keys.values())}
    found: dict[str, Principal] = {}
    for item, ids in labelled:
        spoke = {speaker_of.get(keys.get((item.episode_id, t))) for t in item.sources}
        for speaker in dict.fromkeys(ids):
            if speaker not in found and speaker in spoke and (p := store.get_principal(speaker)) is not None:
                found[speaker] = p
    return tuple(found.values())


def _context_entry(item: RecallItem) -> str:
    entry = (
        f"[{item.object_id}] {item.text}"
        if item.status == "current"
        else f"[{item.object_id}] ({item.status.upper()}, not current) {item.text}"
    )
    for statement in item.superseded_statements:
        by = f" by {statement['superseded_by']}" if statement["superseded_by"] else ""
        entry += f"\n  (SUPERSEDED{by}, not current: {statement['text']})"
    return entry


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
    revocation: RevocationReview | None = None,
    include_revoked: bool = False,
) -> RecallResult:
    if not isinstance(query, str) or not query.strip():
        raise InputError("query is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    if not 1 <= k <= MAX_K:
        raise InputError(f"k must be between 1 and {MAX_K}, got {k}")
    as_of = normalize_timestamp(as_of, "as_of")
    with store.snapshot():
        result, audit_entry = _recall(
            store, retriever, authorizer, requester, query, k, as_of, kinds, revocation, include_revoked
        )
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
    revocation: RevocationReview | None = None,
    include_revoked: bool = False,
) -> tuple[RecallResult, tuple]:
    """Recall inside one snapshot; returns the result and its decision-log entry."""
    principal = resolve_requester(store, requester)
    at = as_of or utc_now()
    narrowed = getattr(authorizer, "for_query", None)  # optional for custom authorizers
    if narrowed is not None:
        authorizer = narrowed(query)

    def empty(decision: Decision) -> tuple[RecallResult, tuple]:
        entry = (principal, "recall", decision.action, [], [], decision.reasons, query, as_of)
        return RecallResult(requester, query, [], decision), entry

    assessment = authorizer.assess_query(store, principal, query, at)
    if assessment.refused and not assessment.allowed and not assessment.unnamed:
        return empty(Decision("refuse", assessment.rules))
    if asks_for_forgotten(query, store.forgotten_kinds()):
        return empty(Decision("no_memory", ("forgotten-item-probe",)))
    if assessment.refused:  # partly about what they may not read, or about someone unnamed: after the probe
        return empty(Decision("refuse", assessment.rules))

    scope = authorizer.scope(store, principal, at)
    candidates = retriever.search(query, max(4 * k, 50), kinds, as_of, scope.labels)
    shortlist = candidates[: 2 * k]
    found = store.get_objects([c.key for c in shortlist])
    pairs = [(c, found[c.key]) for c in shortlist if c.key in found]
    successors = SuccessorView(store, authorizer, principal, at)
    statuses: dict[str, ObjectStatus] = {}
    revoked: list[dict] = []
    unreported: list[dict] = []
    conflicts: list[dict] = []
    if revocation is not None:
        validated = withhold_revoked(
            store, authorizer, revocation, principal, pairs, at, include_revoked, successors
        )
        pairs, statuses, conflicts = validated.kept, validated.statuses, validated.conflicts
        revoked, unreported = validated.withheld, validated.unreported
    reviews = authorizer.review(store, principal, [obj for _, obj in pairs], at)
    visible = [(c, r) for (c, _), r in zip(pairs, reviews, strict=True) if r.visible is not None]
    statements: dict[str, tuple[dict, ...]] = {}
    if revocation is not None:
        visible, statements, cut, cut_unreported = cut_superseded_statements(
            revocation, visible, at, include_revoked, successors
        )
        revoked += cut
        unreported += cut_unreported
    if not authorizer.reveals_scores:
        visible = rank_on_visible_text(store, retriever, query, visible)
    shown = list(_without_repeats(visible, k))
    items = [
        item_of(
            review.visible,
            candidate.scores,
            statuses.get(review.visible.object_id),
            statements.get(review.visible.object_id, ()),
        )
        for candidate, review in shown
    ]
    if assessment.denied:
        objects = [review.visible for _, review in shown]
        answered = bool(items) and _answers_denied_tags(
            store, authorizer, principal, objects, query, assessment, at
        )
        action = "answer" if answered else "answer_redacted" if items else "refuse"
    else:
        action = "answer" if items else "no_memory"
    decision = Decision(action, tuple(sorted(set(scope.reasons) | set(assessment.rules))))
    withheld = [
        {"object_id": obj.object_id, "redacted": review.visible is not None, "rules": list(review.rules)}
        for (_, obj), review in zip(pairs, reviews, strict=True)
        if review.redacted
    ]
    withheld += [
        {"object_id": w["object_id"], "redacted": False, "rules": [w["reason"]]} for w in revoked + unreported
    ]
    returned = [item.object_id for item in items]
    conflicts = shown_conflicts(conflicts, items, successors)
    entry = (principal, "recall", action, returned, withheld, decision.reasons, query, as_of)
    speakers = speakers_of(store, items)
    return RecallResult(requester, query, items, decision, revoked, conflicts, speakers), entry


def _answers_denied_tags(
    store: Store,
    authorizer: Authorizer,
    principal: Principal,
    objects: Sequence[MemoryObject],
    query: str,
    assessment: QueryAssessment,
    at: str,
) -> bool:
    """Whether the requester's own readable records answer every part of the query that
    was denied as someone else's (the release phrase of "the plan for Ava" was said to
    the pickup driver). Decided on readable memory only, so it tells nothing of what
    was withheld."""
    answers_for_self = getattr(authorizer, "answers_for_self", None)  # optional for custom authorizers
    if answers_for_self is None or not assessment.denied_tags:
        return False
    return answers_for_self(store, principal, objects, query, assessment.denied_tags, at)


def withhold_revoked(
    store: Store,
    authorizer: Authorizer,
    revocation: RevocationReview,
    principal: Principal,
    pairs: Sequence[tuple],
    at: str,
    include_revoked: bool,
    successors: SuccessorView,
) -> Validated:
    """Apply validity at ``at`` to (candidate, object) pairs: the pairs kept (verbatim
    objects cut to their current sources) with their statuses, what was withheld, and
    unresolved conflicts among what is kept. A withheld record is reported only when the
    requester could have read it and may be told what superseded it (the report must not
    reveal protected memory); the rest goes to the decision log alone."""
    outcome = revocation.review([obj for _, obj in pairs], at, include_revoked)
    by_id = {obj.object_id: (obj, successors.status(obj.episode_id, status)) for obj, status in outcome.kept}
    kept = [(candidate, by_id[obj.object_id][0]) for candidate, obj in pairs if obj.object_id in by_id]
    statuses = {obj_id: status for obj_id, (_, status) in by_id.items()}
    withheld_objects = [obj for obj, _ in outcome.withheld]
    readable = authorizer.review(store, principal, withheld_objects, at) if withheld_objects else []
    validated = Validated(kept, statuses, conflicts=outcome.conflicts)
    for (obj, status), review in zip(outcome.withheld, readable, strict=True):
        named = successors.named(obj.episode_id, status.superseded_by)
        entry = {
            "object_id": obj.object_id,
            "status": status.status,
            "reason": status.reason or status.status,
            "superseded_by": named,
        }
        if review.visible is not None and (named or not status.superseded_by):
            validated.withheld.append(entry)
        else:
            validated.unreported.append(entry)
    return validated


@dataclass
class Validated:
    """What validity at read time kept and withheld (see :func:`withhold_revoked`)."""

    kept: list[tuple]
    statuses: dict[str, ObjectStatus]
    withheld: list[dict] = field(default_factory=list)
    """Reported to the requester."""
    unreported: list[dict] = field(default_factory=list)
    """Withheld too, for the decision log only."""
    conflicts: list[dict] = field(default_factory=list)


def _without_repeats(ranked: Sequence[tuple], k: int) -> list[tuple]:
    """Up to ``k`` objects in rank order, none repeating another: an object drawn from
    some of another's source turns whose text is inside the other's adds nothing (a turn
    once its session window is in the answer; the window takes the turn's place)."""
    chosen: list[tuple[frozenset[int], str, tuple]] = []
    for pair in ranked:
        visible = pair[1].visible
        sources, text = frozenset(visible.source_keys), visible.text
        if any(sources <= other and text in other_text for other, other_text, _ in chosen):
            continue
        chosen = [c for c in chosen if not (c[0] <= sources and c[1] in text)]
        chosen.append((sources, text, pair))
        if len(chosen) == k:
            break
    return [pair for _, _, pair in chosen]


def cut_superseded_statements(
    revocation: RevocationReview,
    visible: Sequence[tuple],
    at: str,
    include_revoked: bool,
    successors: SuccessorView,
) -> tuple[list[tuple], dict[str, tuple[dict, ...]], list[dict], list[dict]]:
    """Cut superseded statements out of the (candidate, review) pairs the requester may
    see; drop an object left empty. Returns the pairs, each object's statements (for an
    audit read), what was withheld (statements, by object) to report, and what only the
    decision log may hold (statements whose successor the requester may not be told of)."""
    cut = revocation.cut_statements(
        [r.visible for _, r in visible], at, include_revoked, successors.shown, successors.change_readable
    )
    kept, statements, withheld, unreported = [], {}, [], []
    for (candidate, review), (obj, said) in zip(visible, cut, strict=True):
        if said and not include_revoked:
            named = sorted({s["superseded_by"] for s in said if s["superseded_by"]})
            entry = {
                "object_id": obj.object_id,
                "status": "superseded",
                "reason": "statement-superseded",
                "superseded_by": named,
                "statements": sum(1 for s in said if s["superseded_by"]),
            }
            (withheld if named else unreported).append(entry)
            if not obj.text.strip():
                continue
        if include_revoked:
            statements[obj.object_id] = said
        changed = obj.text != review.visible.text  # ranked again on what is left, as a redaction is
        kept.append((candidate, replace(review, visible=obj, redacted=review.redacted or changed)))
    return kept, statements, withheld, unreported


def shown_conflicts(
    conflicts: Sequence[dict], items: Sequence[RecallItem], successors: SuccessorView
) -> list[dict]:
    """The conflicts between turns of returned items that the requester may read whole
    (a redacted window lists a turn it shows only part of)."""
    episode_of = {turn_id: item.episode_id for item in items for turn_id in item.sources}
    return [
        c
        for c in conflicts
        if all(t in episode_of and successors.shown(episode_of[t], t) for t in c["turns"])
    ]


def resolve_requester(store: Store, requester: str) -> Principal:
    """The authenticated principal behind a request; identity never comes from query text."""
    if not isinstance(requester, str) or not requester:
        raise InputError("a read needs the requester's principal id")
    principal = store.get_principal(requester)
    if principal is None:
        raise UnknownPrincipal(requester, "requester")
    return principal


def item_of(
    obj: MemoryObject,
    scores: dict[str, float] | None = None,
    status: ObjectStatus | None = None,
    statements: tuple[dict, ...] = (),
) -> RecallItem:
    status = status or ObjectStatus()
    return RecallItem(
        object_id=obj.object_id,
        kind=obj.kind,
        text=obj.text,
        sources=obj.sources,
        episode_id=obj.episode_id,
        observed_at=obj.observed_at,
        scores=scores or {},
        status=status.status,
        superseded_by=status.superseded_by,
        valid_until=status.valid_until,
        superseded_statements=statements,
    )
