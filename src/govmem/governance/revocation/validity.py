"""Validity in time: the one check of whether a record is current at a moment.

A record (a source turn, or anything a backend returns) is valid from
``valid_from`` until the earliest of its ``valid_until`` and the moment it was
superseded. Status is evaluated at read time: an end scheduled after the read
is not yet an end, so a record superseded "from next Monday" is still current
today. A record derived from others (an agent's note, a summary) is ``stale``
while any of its sources is not current.
"""

from __future__ import annotations

from dataclasses import dataclass

CURRENT = "current"
SUPERSEDED = "superseded"
EXPIRED = "expired"
STALE = "stale"
PENDING = "pending"
STATUSES = (CURRENT, SUPERSEDED, EXPIRED, STALE, PENDING)


@dataclass(frozen=True)
class Validity:
    """A record's valid-time interval and what ended it.

    ``superseded_by`` names the replacing record(s); ``reason`` says how the
    supersession was established ("explicit", or the detector's signals).
    """

    valid_from: str | None = None
    valid_until: str | None = None
    superseded_at: str | None = None
    superseded_by: tuple[str, ...] = ()
    reason: str = ""

    def status_at(self, at: str) -> str:
        """``current``, ``superseded``, ``expired`` or ``pending`` at ``at`` (ISO 8601)."""
        if self.superseded_at is not None and self.superseded_at <= at:
            return SUPERSEDED
        if self.valid_until is not None and self.valid_until <= at:
            return EXPIRED
        if self.valid_from is not None and self.valid_from > at:
            return PENDING
        return CURRENT


def combined_status(own: str, sources: list[str]) -> str:
    """A derived record's status: its own when not current, else ``stale`` when a
    source is not current."""
    if own != CURRENT:
        return own
    return STALE if any(s != CURRENT for s in sources) else CURRENT
