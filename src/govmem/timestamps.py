"""One timestamp form across the store: naive ISO 8601 in UTC, to the second."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache

from govmem.errors import InputError


def normalize_timestamp(value: str | None, what: str = "timestamp") -> str | None:
    """``value`` as ``YYYY-MM-DDTHH:MM:SS`` (UTC if it had an offset), or None."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InputError(f"{what} {value!r} is not an ISO 8601 date-time")
    normalized = _canonical(value) or _normalize(value)
    if normalized is None:
        raise InputError(f"{what} {value!r} is not an ISO 8601 date-time")
    return normalized


def _canonical(value: str) -> str | None:
    """``value`` itself when it already has the stored form (the common case: no
    formatting, no cache entry)."""
    if len(value) == 19 and value[10] == "T" and value[13] == ":" == value[16]:
        try:
            if datetime.fromisoformat(value).tzinfo is None:
                return value
        except ValueError:
            return None
    return None


@lru_cache(maxsize=65536)
def _normalize(value: str) -> str | None:
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds")
