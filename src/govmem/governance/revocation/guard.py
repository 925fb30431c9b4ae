"""The guard: between an agent and any memory backend, withhold what is no longer current.

>>> from govmem.governance.revocation.guard import Guard, GuardRecord
>>> guard = Guard()
>>> result = guard.filter([
...     GuardRecord("a", "Visitors may enter unescorted.", valid_from="2024-01-01T00:00:00"),
...     GuardRecord("b", "Visitors must always be escorted.", valid_from="2025-01-01T00:00:00"),
... ], at="2026-01-01T00:00:00")   # doctest: +SKIP
>>> [r.record_id for r in result.kept], [w.record.record_id for w in result.withheld]  # doctest: +SKIP
(['b'], ['a'])

Two stages, in the order of the study's guard (papers/003):

1. records the backend marks as no longer valid (a status, an invalid/expired time
   at or before the read, a valid-until in the past) are withheld with the mark as
   their reason; a mark scheduled after the read is not yet in force;
2. the remaining records are compared pairwise with the supersession detector
   (:mod:`govmem.governance.revocation.detector`): a record contradicted by a
   demonstrably newer one is withheld; a conflict the detector cannot order keeps
   both records and is reported as unresolved. Rank order never decides.

Kept records keep the backend's rank order. The guard never calls the backend and
never changes a record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from govmem.governance.revocation.detector import COSINE_WITH_CONTAINMENT, Finding, compare
from govmem.governance.revocation.validity import CURRENT, Validity

REVOKED_STATUSES = frozenset(
    (
        "revoked",
        "superseded",
        "invalid",
        "invalidated",
        "expired",
        "deprecated",
        "retracted",
        "deleted",
        "stale",
    )
)
"""Backend status values that mean "no longer valid" (case-insensitive)."""


@dataclass(frozen=True)
class GuardRecord:
    """One search result as the guard sees it: text plus whatever validity metadata
    the backend returned. ``status`` is the backend's own word, if any."""

    record_id: str
    text: str
    valid_from: str | None = None
    valid_until: str | None = None
    invalid_at: str | None = None
    status: str | None = None
    superseded_by: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict, compare=False)

    def validity(self) -> Validity:
        return Validity(self.valid_from, self.valid_until, self.invalid_at, self.superseded_by)


@dataclass(frozen=True)
class Withheld:
    record: GuardRecord
    reason: str
    superseded_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Conflict:
    """Two kept records that contradict each other with no demonstrable order."""

    record_ids: tuple[str, str]
    reasons: tuple[str, ...]


@dataclass
class GuardResult:
    kept: list[GuardRecord]
    withheld: list[Withheld]
    conflicts: list[Conflict]

    def to_dict(self) -> dict:
        return {
            "kept": [r.record_id for r in self.kept],
            "withheld": [
                {"record_id": w.record.record_id, "reason": w.reason, "superseded_by": list(w.superseded_by)}
                for w in self.withheld
            ],
            "conflicts": [
                {"record_ids": list(c.record_ids), "reasons": list(c.reasons)} for c in self.conflicts
            ],
        }


Similarity = Callable[[Sequence[str]], np.ndarray]
"""Texts -> their pairwise cosine matrix (an embedder's)."""


def embedding_similarity(embedder: Any) -> Similarity:
    def similarity(texts: Sequence[str]) -> np.ndarray:
        vectors = embedder.embed_documents(list(texts))
        return vectors @ vectors.T

    return similarity


class Guard:
    """Withholds revoked and contradicted records from any backend's results.

    ``similarity`` (texts -> cosine matrix, e.g. :func:`embedding_similarity`) feeds the
    detector's subject agreement; without it agreement rests on identifiers, names and
    shared words alone (the cosine is taken to pass the threshold that goes with word
    containment, never the one that would suffice alone). ``detect=False`` runs stage 1 only.
    """

    def __init__(self, similarity: Similarity | None = None, detect: bool = True):
        self.similarity = similarity
        self.detect = detect

    def filter(self, records: Sequence[GuardRecord], at: str) -> GuardResult:
        withheld: list[Withheld] = []
        remaining: list[GuardRecord] = []
        for record in records:
            reason = marked_revoked(record, at)
            if reason is None:
                remaining.append(record)
            else:
                withheld.append(Withheld(record, reason, record.superseded_by))
        conflicts: list[Conflict] = []
        if self.detect and len(remaining) > 1:
            findings = self._findings(remaining)
            older = {}
            for finding in findings:
                first, second = remaining[finding.older], remaining[finding.newer]
                if finding.ordered:
                    older.setdefault(finding.older, []).append((second.record_id, finding.reasons))
                else:
                    conflicts.append(Conflict((first.record_id, second.record_id), finding.reasons))
            kept = []
            for index, record in enumerate(remaining):
                if index in older:
                    newer = tuple(rid for rid, _ in older[index])
                    reasons = sorted({r for _, rs in older[index] for r in rs})
                    withheld.append(Withheld(record, "contradicted-by-newer:" + ",".join(reasons), newer))
                else:
                    kept.append(record)
            withheld_ids = {w.record.record_id for w in withheld}
            conflicts = [c for c in conflicts if not set(c.record_ids) & withheld_ids]
            remaining = kept
        return GuardResult(remaining, withheld, conflicts)

    def _findings(self, records: Sequence[GuardRecord]) -> list[Finding]:
        texts = [r.text for r in records]
        n = len(texts)
        cosines = (
            self.similarity(texts)
            if self.similarity is not None
            else np.full((n, n), COSINE_WITH_CONTAINMENT)
        )
        findings = []
        for j in range(len(records)):
            for i in range(j):
                finding = compare(
                    (i, records[i].valid_from, texts[i]),
                    (j, records[j].valid_from, texts[j]),
                    float(cosines[i, j]),
                )
                if finding is not None:
                    findings.append(finding)
        return findings


def marked_revoked(record: GuardRecord, at: str) -> str | None:
    """Why the backend's own marks say ``record`` is not current at ``at``, or None."""
    if record.status is not None and record.status.strip().lower() in REVOKED_STATUSES:
        return f"marked-{record.status.strip().lower()}"
    status = record.validity().status_at(at)
    if status == CURRENT:
        return None
    return {"superseded": "invalidated", "expired": "expired", "pending": "not-yet-valid"}[status]
