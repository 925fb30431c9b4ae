"""Supersessions found at ingest: each new record against the earlier records of its episode.

Candidates are the records nearest in embedding space (cosine at least
``min_cosine``, at most ``neighbours`` of them), plus any earlier record sharing an
identifier; the :func:`~govmem.governance.revocation.detector.compare` verdict
decides. Vectors of earlier records are memoised per turn (fingerprinted by its
text, forgotten with it), so replaying an episode checkpoint by checkpoint does
not embed the same turns again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from govmem.designs.base import TurnMemo
from govmem.governance.revocation.detector import COSINE_WITH_CONTAINMENT, Finding, compare
from govmem.governance.revocation.statements import analyse
from govmem.models import StoredTurn


@dataclass(frozen=True)
class Record:
    """A source record as the detector needs it."""

    key: int
    valid_from: str | None
    text: str


class SupersessionDetector:
    """Finds which new records supersede (or conflict with) earlier ones."""

    def __init__(self, embedder: object, neighbours: int = 8, min_cosine: float = COSINE_WITH_CONTAINMENT):
        self.embedder = embedder
        self.neighbours = neighbours
        self.min_cosine = min_cosine
        self._vectors: TurnMemo[np.ndarray] = TurnMemo()

    def vectors(self, records: Sequence[Record], known: Mapping[int, np.ndarray]) -> np.ndarray:
        missing = [r for r in records if r.key not in known and self._memo(r) is None]
        if missing:
            embedded = self.embedder.embed_documents([r.text for r in missing])
            for record, vector in zip(missing, embedded, strict=True):
                self._vectors.put(_stored(record), vector)
        return np.stack([known[r.key] if r.key in known else self._memo(r) for r in records])

    def _memo(self, record: Record) -> np.ndarray | None:
        return self._vectors.get(_stored(record))

    def forget(self, keys: Sequence[int]) -> None:
        self._vectors.forget(keys)

    def find(
        self, new: Sequence[Record], earlier: Sequence[Record], known: Mapping[int, np.ndarray]
    ) -> list[Finding]:
        """Findings for each new record against the earlier ones and the new ones before it."""
        if not new:
            return []
        pool = [*earlier, *new]
        matrix = self.vectors(pool, known)
        first_new = len(earlier)
        cosines = matrix[first_new:] @ matrix.T
        findings = []
        for row, record in enumerate(new):
            limit = first_new + row  # only records before this one
            if limit == 0:
                continue
            scores = cosines[row, :limit]
            order = np.argsort(-scores)[: self.neighbours]
            candidates = {int(i) for i in order if scores[i] >= self.min_cosine}
            identifiers = analyse(record.text).identifiers
            if identifiers:
                candidates |= {i for i in range(limit) if analyse(pool[i].text).identifiers & identifiers}
            for index in sorted(candidates):
                other = pool[index]
                finding = compare(
                    (other.key, other.valid_from, other.text),
                    (record.key, record.valid_from, record.text),
                    float(scores[index]),
                )
                if finding is not None:
                    findings.append(finding)
        return findings


def _stored(record: Record) -> StoredTurn:
    from govmem.models import Turn

    return StoredTurn(record.key, Turn(str(record.key), "", record.text, timestamp=record.valid_from), "")
