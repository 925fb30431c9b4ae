"""Does one record revise another? Subject agreement, opposition, chronology.

Two records conflict when they are about the same subject and say opposite or
changed things about it. The newer one then supersedes the older, but only when
it is *demonstrably* newer; otherwise the pair is an unresolved conflict, kept and
reported, never settled by rank or by a record's own claim to authority.

- **Subject agreement** (:func:`subject_agreement`): the records name the same
  identifier (a document or case code), or their content stems overlap (share of
  the smaller record's stems found in the larger, a containment measure that
  tolerates very different lengths) *and* their embeddings are close. Two records
  that both name identifiers but share none, or that each name an entity (see
  :func:`~govmem.governance.revocation.statements.entities`) the other does not
  ("Walter Brandt ... Dr. Varga" / "Lena Okafor ... Dr. Haddad"), are about
  different things, however alike their wording.
- **Opposition** (:func:`opposition`): a content stem said under opposite stances
  (licensed in one, negated or prohibited in the other); a quantity of the same
  kind with a different value (a count of reviewers, a duration, an amount, a dose,
  a clock time, a weekday); or explicit revision wording in the newer record.
- **Chronology** (:func:`order`): valid-from times (a turn's timestamp) that
  differ. Without them, only explicit revision wording in the record stored later
  orders the pair.

Thresholds are stated once here and checked on scenario sets that were not used
to choose them (see DEVELOPERS.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from govmem.governance.revocation.statements import Statement, analyse

CONTAINMENT = 0.3
"""Share of the smaller record's content stems that must occur in the other."""
COSINE_WITH_CONTAINMENT = 0.25
"""Embedding cosine that must accompany containment (wordllama runs low: unrelated
policies score 0.0-0.3, same-subject revisions 0.3-0.65)."""
COSINE_ALONE = 0.7
"""Embedding cosine at which two records are taken to be about the same thing
whatever their words."""
REVISION_CONTAINMENT = 0.2
"""Weaker containment enough when the newer record says it revises, or when the two
take opposite stances on a term they share: "the session has moved to Thursday" or
"access is denied by default" / "grant access" share little beyond the subject."""


@dataclass(frozen=True)
class Finding:
    """The verdict on a pair: ``older`` is superseded by ``newer`` (``ordered``), or
    they conflict and cannot be ordered. ``reasons`` name the signals, never text."""

    older: int
    newer: int
    ordered: bool
    reasons: tuple[str, ...]


def containment(a: Statement, b: Statement) -> float:
    small, large = (a.terms, b.terms) if len(a.terms) <= len(b.terms) else (b.terms, a.terms)
    if not small:
        return 0.0
    return len(small & large) / len(small)


def subject_agreement(
    a: Statement, b: Statement, cosine: float, revision: bool = False, opposed: bool = False
) -> str | None:
    """Why ``a`` and ``b`` are about the same subject, or None. ``revision`` (the newer
    says it revises) and ``opposed`` (one licenses what the other forbids, on a term
    both use) are evidence of a shared subject in themselves, so less overlap suffices."""
    if a.identifiers and b.identifiers:
        return "same-identifier" if a.identifiers & b.identifiers else None
    if a.entities - b.entities and b.entities - a.entities:
        return None  # each names something the other does not: about different things
    share = containment(a, b)
    if share >= CONTAINMENT and cosine >= COSINE_WITH_CONTAINMENT:
        return "same-subject"
    if revision and share >= REVISION_CONTAINMENT and cosine >= COSINE_WITH_CONTAINMENT:
        return "same-subject-revised"
    if opposed and share >= REVISION_CONTAINMENT and cosine >= COSINE_WITH_CONTAINMENT:
        return "same-subject-opposed"
    if cosine >= COSINE_ALONE:
        return "near-duplicate-subject"
    return None


def opposition(older: Statement, newer: Statement) -> list[str]:
    """The signals that ``newer`` says something different about the shared subject."""
    signals = []
    if _flipped(older, newer):
        signals.append("stance-flip")
    changed = _changed_quantities(older, newer)
    if changed:
        signals.append("changed-" + "-".join(sorted(changed)))
    return signals


def _flipped(a: Statement, b: Statement) -> bool:
    """A term said under opposite stances where the negation is about it: the term is in
    the negation's scope (after the negator, or negated by its own prefix), or both
    clauses are normative, so one licenses what the other forbids ("Customer PII may be
    exported" / "Customer PII must never leave"). A descriptive negation ("reimbursed
    without receipts") says nothing against a mere mention of its subject."""
    said_a: dict[str, list[tuple[int, bool, bool]]] = {}
    for term, stance, scoped, marked in a.entries():
        said_a.setdefault(term, []).append((stance, scoped, marked))
    for term, stance, scoped, marked in b.entries():
        for other_stance, other_scoped, other_marked in said_a.get(term, ()):
            if other_stance == stance:
                continue
            if (scoped if stance < 0 else other_scoped) or (marked and other_marked):
                return True
    return False


def _changed_quantities(a: Statement, b: Statement) -> set[str]:
    """Kinds of quantity both records state, with different values."""
    kinds_a: dict[tuple[str, str], set] = {}
    kinds_b: dict[tuple[str, str], set] = {}
    for q in a.quantities:
        kinds_a.setdefault((q.dimension, q.head), set()).add(q.value)
    for q in b.quantities:
        kinds_b.setdefault((q.dimension, q.head), set()).add(q.value)
    changed = set()
    for kind in kinds_a.keys() & kinds_b.keys():
        if kinds_a[kind] != kinds_b[kind]:
            changed.add(kind[0] if not kind[1] else f"{kind[0]}:{kind[1]}")
    return changed


def order(
    first: tuple[int, str | None, Statement], second: tuple[int, str | None, Statement]
) -> tuple[int, int] | None:
    """(older key, newer key) from valid-from times, else from revision wording in the
    record stored later (keys are store order); None when nothing orders them."""
    (key_a, at_a, _), (key_b, at_b, _) = first, second
    if at_a and at_b and at_a != at_b:
        return (key_a, key_b) if at_a < at_b else (key_b, key_a)
    if at_a and at_b:
        return None  # the same moment: chronology cannot order them
    later, earlier = (second, first) if key_b > key_a else (first, second)
    if later[2].revision and not earlier[2].revision:
        return earlier[0], later[0]
    return None


def compare(
    first: tuple[int, str | None, str], second: tuple[int, str | None, str], cosine: float
) -> Finding | None:
    """The finding on two records given as (key, valid-from or None, text), or None
    when they are not about the same subject or do not disagree."""
    a, b = analyse(first[2]), analyse(second[2])
    ordered = order((first[0], first[1], a), (second[0], second[1], b))
    if ordered is not None:
        older, newer = (a, b) if ordered[0] == first[0] else (b, a)
    else:
        older, newer = (a, b) if first[0] < second[0] else (b, a)
    agreement = subject_agreement(
        older, newer, cosine, revision=newer.revision, opposed=_flipped(older, newer)
    )
    if agreement is None:
        return None
    signals = opposition(older, newer)
    if not signals and newer.revision and ordered is not None:
        signals = ["revision-wording"]
    if not signals:
        return None
    if ordered is None:
        keys = sorted((first[0], second[0]))
        return Finding(keys[0], keys[1], False, (agreement, *signals))
    return Finding(ordered[0], ordered[1], True, (agreement, *signals))
