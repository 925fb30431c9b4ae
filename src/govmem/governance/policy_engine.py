"""The policy decision point: may this requester read this facet at this time?

Why an engine of our own rather than Cedar or Casbin: the rules a shared memory
needs are relationship + scope + time (an assigned clinician; a family member
limited to logistics until Friday; consent revoked this morning). Both libraries
were measured against that (issue 3 of the tracker): cedarpy costs about 50 us a
check and lets a request through when a forbid rule's condition errors, so it
needs schema validation and errors-as-deny around it; pycasbin's deny path scans
every policy (33 ms at 10k policies). Here the relationships, grants and labels
live in the memory database itself, are read in the same snapshot as the memory
they govern (no "new enemy" window between a revocation and the next read), and
decisions are made per (subject, tag) facet, of which a store has hundreds,
not per object, of which it has millions. A requester's decisions are memoised
per governance state, so the filter before ranking costs a set lookup per label.

A speaker may read back what they asserted themselves (the labeller marks such a
sentence with :func:`~govmem.governance.labeling.said_by`): the helper's own "I am backup
only after 6:05 PM" tells them nothing new, wherever the talk has filed it. Asking gives no
such right: a family member's question "is Dad still on lisinopril?" is about Dad's
medication and is governed as such (after a revocation, it must not come back either),
and so is a sentence its speaker marks as restricted or deleted. Evaluation order for a facet: an
explicit grant or consent active at the time wins (a grant on some tags also
opens the subject's ``general`` remarks, which carry no sensitive topic); then any matching deny rule;
then any matching allow rule; otherwise deny.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from govmem.governance.labeling import SAID_BY, Facet, said_by, things_of
from govmem.governance.policy_pack import ANY, GENERAL, SCOPE_ATTRIBUTES, PolicyPack, Rule, scope_things
from govmem.governance.pressure import PRESSURE_RULE
from govmem.models import Grant, Principal, Relationship
from govmem.store.base import Store

DEFAULT_DENY = "default-deny: no rule allows it"
OWN_WORDS_RULE = "own words: the requester asserted it"


@dataclass(frozen=True)
class FacetDecision:
    allowed: bool
    rule: str


@dataclass
class Permissions:
    """What one requester may read at one moment; decisions are memoised."""

    requester: Principal
    at: str
    pack: PolicyPack
    roles: dict[str, str]
    relationships: list[Relationship]
    grants: list[Grant]
    owners: dict[str, tuple[Relationship, ...]] = field(default_factory=dict)
    withheld_tags: frozenset[str] = frozenset()
    """Tags denied about anyone but the requester (and what they own): a pressured query."""
    ended: frozenset[str] = frozenset()
    """Subjects of the requester's grants and relationships that have ended."""
    things: frozenset[str] = frozenset()
    """The store's things named by relationship scopes (:func:`labeling.things_of`)."""
    delegated: bool = True
    """Whether rules reaching through a scope count: not for what one may grant onward."""
    _facets: dict[Facet, FacetDecision] = field(default_factory=dict)
    _labels: dict[int, bool] = field(default_factory=dict)
    _readable: tuple[dict, int, frozenset[int]] | None = field(default=None, repr=False, compare=False)

    def facet(self, facet: Facet) -> FacetDecision:
        decision = self._facets.get(facet)
        if decision is None:
            decision = self._facets[facet] = self._decide(*facet)
        return decision

    def span(self, facets: Iterable[Facet]) -> tuple[bool, tuple[str, ...]]:
        """Whether a span is readable, and the rules that decided it."""
        facets = frozenset(facets)
        own = self._said_by_me in facets
        decisions = [
            self._own_words(f) if own else self.facet(f) for f in facets if not f[1].startswith(SAID_BY)
        ]
        denied = tuple(sorted({d.rule for d in decisions if not d.allowed}))
        if denied:
            return False, denied
        return True, tuple(sorted({d.rule for d in decisions}))

    def readable_labels(self, labels: dict[int, frozenset[Facet]]) -> frozenset[int]:
        """Labels with at least one readable facet: what may enter ranking.

        The set is kept while ``labels`` (the engine's table, which only grows) has
        not changed size, so the filter before ranking costs O(1), not O(labels).
        """
        kept = self._readable
        if kept is not None and kept[0] is labels and kept[1] == len(labels):
            return kept[2]
        for key, facets in labels.items():
            if key not in self._labels:
                self._labels[key] = any(self.facet(f).allowed for f in facets)
        readable = frozenset(key for key in labels if self._labels[key])
        self._readable = (labels, len(labels), readable)
        return readable

    @property
    def _said_by_me(self) -> Facet:
        return said_by(self.requester.principal_id)

    def _own_words(self, facet: Facet) -> FacetDecision:
        """The decision on a facet of a sentence the requester asserted: their own words
        stand in for a missing rule, never for a deny rule or a pressured read, and not
        about a subject whose grant or relationship to them has ended (a revocation
        takes back what they repeated too)."""
        decision = self.facet(facet)
        if decision.allowed or decision.rule != DEFAULT_DENY or facet[0] in self.ended:
            return decision
        return FacetDecision(True, OWN_WORDS_RULE)

    def _decide(self, subject: str, tag: str) -> FacetDecision:
        if tag.startswith(SAID_BY):
            return FacetDecision(tag == self._said_by_me[1], OWN_WORDS_RULE)
        if tag in self.withheld_tags and not self._own(subject):
            return FacetDecision(False, PRESSURE_RULE)
        decision = self._decide_for(subject, tag)
        if decision.allowed or decision.rule != DEFAULT_DENY:
            return decision
        owners = {r.principal_id for r in self.owners.get(subject, ()) if r.active_at(self.at)}
        for owner in sorted(owners):
            via = self._decide_for(owner, tag)
            if via.allowed:
                return FacetDecision(True, f"{via.rule} (owner of {subject})")
        return decision

    def _own(self, subject: str) -> bool:
        """Whether ``subject`` is the requester or a resource the requester owns now."""
        me = self.requester.principal_id
        return subject == me or any(
            r.principal_id == me and r.active_at(self.at) for r in self.owners.get(subject, ())
        )

    def _decide_for(self, subject: str, tag: str) -> FacetDecision:
        for grant in self.grants:
            if grant.subject_id == subject and (tag in grant.tags or ANY in grant.tags or tag == GENERAL):
                name = "consent" if grant.is_consent else "grant"
                return FacetDecision(True, f"{name}:{grant.grant_id}")
        allowed_by = None
        for rule in self.pack.rules:
            if self._matches(rule, subject, tag):
                if rule.effect == "deny":
                    return FacetDecision(False, rule.rule_id)
                allowed_by = allowed_by or rule.rule_id
        if allowed_by:
            return FacetDecision(True, allowed_by)
        return FacetDecision(False, DEFAULT_DENY)

    def _matches(self, rule: Rule, subject: str, tag: str) -> bool:
        if not rule.covers_tag(tag):
            return False
        if rule.requester_is_subject and subject != self.requester.principal_id:
            return False
        if rule.roles is not None and self.requester.role not in rule.roles:
            return False
        subject_role = self.roles.get(subject)
        if rule.about != "any" and rule.about != _kind_of(
            subject, subject_role, subject in self.owners, self.things
        ):
            return False
        if rule.about_roles is not None and not (
            subject_role is not None and (ANY in rule.about_roles or subject_role in rule.about_roles)
        ):
            return False
        if rule.through_scope and not self.delegated:
            return False
        if rule.relationships is not None and rule.through_scope:
            return subject in self.things and any(
                rule.names_relationship(r.type) and subject in scope_things(r) for r in self.relationships
            )
        if rule.relationships is not None:
            return any(
                r.target_id == subject and rule.names_relationship(r.type) and self._in_scope(r, tag)
                for r in self.relationships
            )
        return True

    def _in_scope(self, relationship: Relationship, tag: str) -> bool:
        for name in SCOPE_ATTRIBUTES:
            value = relationship.attributes.get(name)
            if isinstance(value, str):
                allowed = self.pack.scope_tags(value)
                if allowed is not None and tag not in allowed:
                    return False
        return True


def _kind_of(subject: str, role: str | None, owned: bool, things: frozenset[str]) -> str:
    if subject == "":
        return "nothing"
    if role is not None:
        return "principal"
    if subject in things:
        return "thing"
    return "owned resource" if owned else "resource"


class PolicyEngine:
    """Builds :class:`Permissions` from the store's governance state."""

    def __init__(self, pack: PolicyPack, store: Store):
        self.pack = pack
        self.store = store
        self._version: int | None = None
        self._roles: dict[str, str] = {}
        self._owners: dict[str, tuple[Relationship, ...]] = {}
        self._things: frozenset[str] = frozenset()
        self._ownership_changes: list[str] = []
        """When any ownership starts or ends: between two, who owns what is constant."""
        self._cache: dict[tuple, Permissions] = {}
        self._labels: dict[int, frozenset[Facet]] = {}
        self._last_label = 0

    def _refresh(self) -> None:
        """Reload what changed: governance state clears every requester's permissions;
        new labels only extend the table (each requester decides them on next use)."""
        version = self.store.governance_version()
        if version != self._version:
            self._version = version
            self._roles = {p.principal_id: p.role for p in self.store.principals()}
            self._owners = self._resource_owners()
            self._things = things_of(self.pack, self.store.relationships(), self.store.principals())
            self._ownership_changes = sorted(
                {t for rs in self._owners.values() for r in rs for t in (r.valid_from, r.valid_until) if t}
            )
            self._cache.clear()
        last = self.store.last_label_key()
        if last != self._last_label:
            self._labels.update(self.store.labels_since(self._last_label))
            self._last_label = last

    def _resource_owners(self) -> dict[str, tuple[Relationship, ...]]:
        """Resource -> its ownership relationships (each judged at the time of a read)."""
        if not self.pack.owner_relationships:
            return {}
        owners: dict[str, list[Relationship]] = {}
        for r in self.store.relationships():
            if r.target_id and r.target_id not in self._roles and self.pack.is_ownership(r.type):
                owners.setdefault(r.target_id, []).append(r)
        return {resource: tuple(rs) for resource, rs in owners.items()}

    def forget(self) -> None:
        """Drop every cache (after a rolled-back write that may have added labels)."""
        self._version = None
        self._cache.clear()
        self._labels.clear()
        self._last_label = 0

    @property
    def labels(self) -> dict[int, frozenset[Facet]]:
        self._refresh()
        return self._labels

    def permissions(
        self, requester: Principal, at: str, withheld_tags: frozenset[str] = frozenset()
    ) -> Permissions:
        """What ``requester`` may read at ``at``; ``withheld_tags`` are denied about anyone
        but them (a pressured query, :mod:`govmem.governance.pressure`)."""
        self._refresh()
        held = [
            r
            for r in self.store.relationships(requester.principal_id)
            if r.principal_id == requester.principal_id
        ]
        relationships = [r for r in held if r.active_at(at)]
        every_grant = self.store.grants_for(requester.principal_id)
        grants = [g for g in every_grant if g.active_at(at)]
        ended = frozenset(
            [r.target_id for r in held if r.valid_until is not None and r.valid_until <= at]
            + [g.subject_id for g in every_grant if not g.active_at(at) and (g.valid_from or "") <= at]
        )
        key = (
            requester,
            tuple((r.type, r.target_id, r.valid_from, r.valid_until) for r in relationships),
            tuple(g.grant_id for g in grants),
            withheld_tags,
            ended,
            bisect.bisect_right(self._ownership_changes, at),  # who owns which case at ``at``
        )
        cached = self._cache.get(key)
        if cached is None:
            if len(self._cache) > 1024:
                self._cache.clear()
            cached = self._cache[key] = Permissions(
                requester,
                at,
                self.pack,
                self._roles,
                relationships,
                grants,
                self._owners,
                withheld_tags,
                ended,
                self._things,
            )
        return cached

    def rule_allows(self, grantor: Principal, subject: str, tags: Sequence[str], at: str) -> bool:
        """Whether pack rules alone (no grants) let ``grantor`` read these facets."""
        permissions = self.permissions(grantor, at)
        bare = Permissions(
            grantor,
            at,
            self.pack,
            self._roles,
            permissions.relationships,
            [],
            self._owners,
            things=self._things,
            delegated=False,  # a delegate runs a thing; passing its codes on is the residents' call
        )
        tags = sorted(self.pack.tags) if ANY in tags else list(tags)
        return all(bare.facet((subject, tag)).allowed for tag in tags)
