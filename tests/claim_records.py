"""Claim records for supersession tests, and the batching invariance every rule keeps."""

from __future__ import annotations

from datetime import date, timedelta

from govmem.governance.revocation.claim_supersession import (
    ClaimFinding,
    ClaimRecord,
    find_claim_supersessions,
)


def records(*texts: str) -> list[ClaimRecord]:
    """One record a day from March 1, 2026, keyed by position."""
    first = date(2026, 3, 1)
    return [ClaimRecord(i, f"{first + timedelta(days=i)}T09:00", t) for i, t in enumerate(texts)]


def found_in_any_batches(every: list[ClaimRecord]) -> list[ClaimFinding]:
    """The findings over ``every``, checked to be the same however it is split into an
    earlier part and the records added after it."""

    def order(f: ClaimFinding) -> tuple[int, int, int]:
        return (f.older, f.start, f.newer)

    whole = find_claim_supersessions(every, [])
    for split in range(1, len(every)):
        first = find_claim_supersessions(every[:split], [])
        already = {(f.older, f.start) for f in first}
        rest = find_claim_supersessions(every[split:], every[:split], already=already)
        assert sorted(first + rest, key=order) == sorted(whole, key=order), split
    return whole
