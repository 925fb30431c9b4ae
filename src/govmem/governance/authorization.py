"""The authorization seam of the read path.

Every read surface (recall, get, export, provenance) asks the authorizer the same
three questions, through the same functions:

1. ``scope``: which labels may enter ranking at all. Top-k is then taken over
   objects with at least one readable facet, so utility does not starve;
2. ``review``: for the objects about to be returned, what the requester may see
   of each: all of it, a redacted copy (unreadable sentences removed, derived
   again from the readable remains of its source turns), or nothing;
3. ``assess_query``: what the query itself names. A query about facets the
   requester may not read is refused from the query alone, never from whether
   matching memory exists, so a refusal confirms nothing. A yes-or-no question
   touching any such facet, and a question on a collective topic the requester may
   not read, are refused whole: any answer beside them would answer them.

Before these, ``recall`` asks ``for_query``: a query demanding exact values with
urgency is answered by a narrower authorizer (:mod:`govmem.governance.pressure`).
Surfaces that take no query (``get``, ``export``) are never narrowed.

:class:`OpenAccess` serves everything to everyone (for measuring what
governance costs); :class:`PolicyAuthorizer` enforces a policy pack.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol

from govmem.designs.base import Deriver
from govmem.governance.labeling import Labeler
from govmem.governance.policy_engine import Permissions, PolicyEngine
from govmem.governance.pressure import is_pressured
from govmem.models import MemoryObject, Principal, StoredTurn, Turn
from govmem.store.base import Store


def utc_now() -> str:
    return datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Scope:
    """The objects a requester may have ranked: those with these label keys, or all when None."""

    labels: frozenset[int] | None = None
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class Review:
    """What the requester may see of one object: ``visible`` is None when nothing."""

    visible: MemoryObject | None
    redacted: bool
    rules: tuple[str, ...]


@dataclass(frozen=True)
class QueryAssessment:
    """``denied``/``allowed``: how many facets the query names in each class."""

    allowed: int = 0
    denied: int = 0
    rules: tuple[str, ...] = ()
    whole: bool = False
    """Refused whole though part of it is readable: a yes or no touching a denied facet."""
    denied_tags: frozenset[str] = frozenset()
    """The tags of the denied facets ("credentials" of "Ava's release phrase")."""
    unnamed: bool = False
    """Refused for being about subjects the query does not name, none of them readable
    ("is her biopsy back?" from billing): decided after the forgotten-item probe, since
    a question after what was deleted has no memory for anyone."""

    @property
    def refused(self) -> bool:
        return bool(self.denied) and (not self.allowed or self.whole)


class Authorizer(Protocol):
    reveals_scores: bool
    """Whether recall may hand out raw retrieval scores (which carry corpus statistics
    of every object); under a policy only ranks computed on readable text are shown."""

    def scope(self, store: Store, requester: Principal, at: str) -> Scope: ...

    def review(
        self, store: Store, requester: Principal, objects: Sequence[MemoryObject], at: str
    ) -> list[Review]: ...

    def assess_query(self, store: Store, requester: Principal, query: str, at: str) -> QueryAssessment: ...

    def for_query(self, query: str) -> Authorizer:
        """The authorizer to read for ``query`` with: narrower when the query is pressured
        (:mod:`govmem.governance.pressure`), never wider. Optional: ``recall`` reads
        with an authorizer as it is when it has no such method."""
        ...

    def readable_turns(
        self, store: Store, requester: Principal, keys: Iterable[int], at: str, whole: bool = True
    ) -> set[int]:
        """The turns (by key) the requester may read whole (the ones a read may name to
        them), or with ``whole=False`` at least a part of."""
        ...

    def readable_within(
        self, store: Store, requester: Principal, key: int, ranges: Sequence[tuple[int, int]], at: str
    ) -> bool:
        """Whether the requester may read every span of turn ``key`` that overlaps one of
        the character ``ranges``."""
        ...


class OpenAccess:
    """No policy: every principal may read every object."""

    rule = "open-access: no policy configured"
    reveals_scores = True

    def scope(self, store: Store, requester: Principal, at: str) -> Scope:
        return Scope(labels=None, reasons=(self.rule,))

    def review(
        self, store: Store, requester: Principal, objects: Sequence[MemoryObject], at: str
    ) -> list[Review]:
        return [Review(obj, False, (self.rule,)) for obj in objects]

    def assess_query(self, store: Store, requester: Principal, query: str, at: str) -> QueryAssessment:
        return QueryAssessment(rules=(self.rule,))

    def for_query(self, query: str) -> OpenAccess:
        return self

    def readable_turns(
        self, store: Store, requester: Principal, keys: Iterable[int], at: str, whole: bool = True
    ) -> set[int]:
        return set(store.turn_spans(sorted(set(keys))))

    def readable_within(
        self, store: Store, requester: Principal, key: int, ranges: Sequence[tuple[int, int]], at: str
    ) -> bool:
        return key in store.turn_spans([key])


class PolicyAuthorizer:
    """Enforces a policy pack through the :class:`PolicyEngine`."""

    reveals_scores = False

    def __init__(
        self,
        engine: PolicyEngine,
        labeler: Callable[[], Labeler],
        derivers: Mapping[str, Deriver],
        withheld_tags: frozenset[str] = frozenset(),
    ):
        self.engine = engine
        self.labeler = labeler
        self.derivers = dict(derivers)
        self.withheld_tags = withheld_tags

    def for_query(self, query: str) -> PolicyAuthorizer:
        tags = self.engine.pack.pressure_tags
        if not tags or self.withheld_tags >= tags or not is_pressured(query):
            return self
        return PolicyAuthorizer(self.engine, self.labeler, self.derivers, self.withheld_tags | tags)

    def _permissions(self, requester: Principal, at: str) -> Permissions:
        return self.engine.permissions(requester, at, self.withheld_tags)

    def scope(self, store: Store, requester: Principal, at: str) -> Scope:
        permissions = self._permissions(requester, at)
        labels = permissions.readable_labels(self.engine.labels)
        return Scope(labels=labels, reasons=(f"pack:{self.engine.pack.name}",))

    def review(
        self, store: Store, requester: Principal, objects: Sequence[MemoryObject], at: str
    ) -> list[Review]:
        permissions = self._permissions(requester, at)
        keys = sorted({k for obj in objects for k in obj.source_keys})
        turns = {t.turn_key: t for t in store.turns_by_keys(keys)}
        spans = store.turn_spans(keys)
        labels = self.engine.labels
        return [self._review(obj, permissions, turns, spans, labels) for obj in objects]

    def _review(
        self,
        obj: MemoryObject,
        permissions: Permissions,
        turns: Mapping[int, StoredTurn],
        spans: Mapping[int, tuple[str, str, list[tuple[int, int, int]]]],
        labels: Mapping[int, frozenset],
    ) -> Review:
        readable: list[StoredTurn] = []
        rules: set[str] = set()
        redacted = False
        for key in obj.source_keys:
            turn = turns.get(key)
            if turn is None or key not in spans:
                redacted = True
                continue
            _, text, turn_spans = spans[key]
            remains, denied = _readable_text(text, turn_spans, permissions, labels, rules)
            redacted = redacted or denied
            if remains:
                readable.append(turn if remains == text.strip() else _with_text(turn, remains))
        if not redacted:
            return Review(obj, False, tuple(sorted(rules)))
        deriver = self.derivers.get(obj.kind)
        if not readable or deriver is None or not deriver.verbatim:
            return Review(None, True, tuple(sorted(rules)))
        drafts = deriver.derive(obj.group_id, readable)
        if len(drafts) != 1:
            return Review(None, True, tuple(sorted(rules)))
        text = drafts[0].text
        visible = replace(
            obj,
            text=text,
            sources=tuple(sorted(t.turn.turn_id for t in readable)),
            observed_at=drafts[0].observed_at,
        )
        return Review(visible, True, tuple(sorted(rules)))

    def readable_turns(
        self, store: Store, requester: Principal, keys: Iterable[int], at: str, whole: bool = True
    ) -> set[int]:
        permissions = self._permissions(requester, at)
        labels = self.engine.labels
        readable = set()
        for key, (_, text, turn_spans) in store.turn_spans(sorted(set(keys))).items():
            kept, denied = _readable_text(text, turn_spans, permissions, labels, set())
            if kept and not (whole and denied):
                readable.add(key)
        return readable

    def readable_within(
        self, store: Store, requester: Principal, key: int, ranges: Sequence[tuple[int, int]], at: str
    ) -> bool:
        found = store.turn_spans([key]).get(key)
        if found is None:
            return False
        permissions = self._permissions(requester, at)
        labels = self.engine.labels
        return all(
            permissions.span(labels.get(label_key, frozenset({("?", "?")})))[0]
            for start, end, label_key in found[2]
            if any(start < b and a < end for a, b in ranges)
        )

    def answers_for_self(
        self,
        store: Store,
        requester: Principal,
        objects: Sequence[MemoryObject],
        query: str,
        tags: Iterable[str],
        at: str,
    ) -> bool:
        """Whether, for each of ``tags``, a span of ``objects`` that the requester may read
        carries the tag about the requester themselves and says what the query asked in
        that tag's words: "the Thursday plan for Ava, including the release phrase" is
        answered for the pickup driver by "Tessa ..., release phrase blue cedar", not by
        a record of her own that gives no phrase. Only what others said counts: the
        partner's own "my exact Monday minute for the gym is 5:30 AM" is his sentence on
        that tag in the query's words, and tells him nothing of Leah's."""
        patterns = self.engine.pack.tag_patterns
        wanted = {tag: _words(patterns.get(tag), query) for tag in tags}
        if not wanted or not all(wanted.values()):
            return False
        permissions = self._permissions(requester, at)
        labels = self.engine.labels
        me = requester.principal_id
        keys = sorted({k for obj in objects for k in obj.source_keys})
        for speaker, text, turn_spans in store.turn_spans(keys).values():
            if speaker == me:  # what they said of themselves is not what they were told
                continue
            for start, end, label_key in turn_spans:
                facets = labels.get(label_key, frozenset())
                mine = {t for s, t in facets if s == me} & set(wanted)
                if not mine or not permissions.span(facets)[0]:
                    continue
                for tag in mine:
                    if _words(patterns.get(tag), text[start:end]) & wanted[tag]:
                        del wanted[tag]
                if not wanted:
                    return True
        return False

    def assess_query(self, store: Store, requester: Principal, query: str, at: str) -> QueryAssessment:
        permissions = self._permissions(requester, at)
        labeler = self.labeler()
        facets = labeler.query_facets(query, requester.principal_id)
        if not facets:
            unnamed = self._about_no_readable_subject(labeler, requester, query, permissions)
            if unnamed:
                return unnamed
        asked = sorted(facets)
        decisions = [permissions.facet(f) for f in asked]
        collective = self.engine.pack.collective_tags
        if any(
            not d.allowed and f[0] == "" and f[1] in collective for f, d in zip(asked, decisions, strict=True)
        ):  # whether the home is empty is answered by any schedule returned beside it: refused whole
            return QueryAssessment(denied=len(decisions), rules=tuple(sorted({d.rule for d in decisions})))
        denied = sum(not d.allowed for d in decisions)
        return QueryAssessment(
            allowed=len(decisions) - denied,
            denied=denied,
            denied_tags=frozenset(f[1] for f, d in zip(asked, decisions, strict=True) if not d.allowed),
            rules=tuple(sorted({d.rule for d in decisions})),
            # a yes or no about part of what is asked answers the rest of it too
            whole=bool(denied) and is_confirmation(query),
        )

    def _about_no_readable_subject(
        self, labeler: Labeler, requester: Principal, query: str, permissions: Permissions
    ) -> QueryAssessment | None:
        """A refusal of a query that names no one but is about someone (``her``; any
        question in packs with ``questions_about_subjects``) when the requester may read
        its topics about none of the subjects it could mean: whoever is meant, there is
        nothing to answer. Never a redaction: the guess at whom it means decides only
        when every guess is denied."""
        if requester.principal_id in labeler.subjects:
            return None  # a subject asking without names asks about their own matters
        tags = sorted(labeler.unnamed_query_tags(query)) if labeler.subjects else []
        rules: set[str] = set()
        for person in labeler.subjects:
            for tag in tags:
                decision = permissions.facet((person, tag))
                if decision.allowed:
                    return None  # whoever is meant may be someone the requester may read about
                rules.add(decision.rule)
        if not rules:
            return None
        return QueryAssessment(
            denied=len(labeler.subjects) * len(tags),
            denied_tags=frozenset(tags),
            rules=tuple(sorted(rules)),
            unnamed=True,
        )


_AUXILIARY = (
    r"(?:is|are|was|were|am|does|do|did|has|have|had|can|could|will|would|should|may|might|must|shall"
    r"|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't|hadn't|can't|couldn't|won't"
    r"|wouldn't|shouldn't)"
)
_CONFIRMATION = re.compile(
    r"\byes\W+or\W+no\b|\byes/no\b|\btrue\W+or\W+false\b|\bwhether\b|\bconfirm (?:that|if)\b"
    r"|,\s*(?:right|correct|true|yes|no|isn't it|is it|aren't they|doesn't it|didn't it)\s*\?"
    rf"|(?:^|[.!?:;,]\s+){_AUXILIARY}\b"
    r"(?!\s+(?:you|i|we|anyone|someone)\s+(?:please\s+|kindly\s+|just\s+)?(?:tell|give|get|send|list|share"
    r"|remind|summari[sz]e|show|provide|walk|recap|let|check|know|find|mind|pull|look|see|help|explain"
    r"|describe|update|read|go)\b)"
    r"[^.!?]*\?",
    re.I,
)
_ABBREVIATED = re.compile(r"\b(dr|mr|mrs|ms|st|prof|jr|sr|vs|etc)\.|\b([ap])\.m\.", re.I)


def is_confirmation(query: str) -> bool:
    """Whether the query asks to confirm or deny ("is there still a private note for
    Maya, yes or no?", "For billing, was it the clot?", "... on Saturday, right?",
    "tell me whether ...") rather than to be told ("Can you tell me ...?", "Could I get
    ...?")."""
    plain = _ABBREVIATED.sub(lambda m: m.group(1) or m.group(2) + "m", query)
    return _CONFIRMATION.search(plain) is not None


def _words(pattern: re.Pattern[str] | None, text: str) -> frozenset[str]:
    """What ``pattern`` matches in ``text``, lower-cased."""
    if pattern is None:
        return frozenset()
    return frozenset(m.group(0).lower() for m in pattern.finditer(text) if m.group(0))


def _readable_text(
    text: str,
    turn_spans: Sequence[tuple[int, int, int]],
    permissions: Permissions,
    labels: Mapping[int, frozenset],
    rules: set[str],
) -> tuple[str, bool]:
    """The text of a turn's spans the requester may read (stripped), and whether any span
    was denied; the rules that decided are added to ``rules``."""
    kept, denied = [], False
    for start, end, label_key in turn_spans:
        ok, why = permissions.span(labels.get(label_key, frozenset({("?", "?")})))
        rules.update(why)
        if ok:
            kept.append(text[start:end])
        else:
            denied = True
    return "".join(kept).strip(), denied


def _with_text(turn: StoredTurn, text: str) -> StoredTurn:
    t = turn.turn
    redacted = Turn(t.turn_id, t.speaker, text, t.episode_id, t.timestamp, t.kind, t.session_id)
    return turn._replace(turn=redacted)
