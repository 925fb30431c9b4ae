"""When to try a request again, and how long to wait first."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

# 408 request timeout, 409 lock conflict, 429 rate limit; every 5xx (529: Anthropic overloaded).
RETRYABLE_STATUS = frozenset({408, 409, 429})


def is_retryable(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter; a server's ``Retry-After`` wins when it gives one.

    The n-th retry (from 0) waits between half and all of ``backoff * 2**n``
    seconds, never more than ``max_delay``.
    """

    max_retries: int = 3
    backoff: float = 1.0
    max_delay: float = 60.0

    def delay(self, retry: int, retry_after: float | None, rng: random.Random) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay)
        ceiling = min(self.max_delay, self.backoff * 2**retry)
        return ceiling / 2 + rng.uniform(0.0, ceiling / 2)


def retry_after(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    if (millis := headers.get("retry-after-ms")) is not None:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - (now or datetime.now(UTC))).total_seconds()
