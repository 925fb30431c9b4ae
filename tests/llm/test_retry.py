"""Retry policy: which statuses, how long, Retry-After in its three forms."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from govmem.llm.retry import RetryPolicy, is_retryable, retry_after


@pytest.mark.parametrize(
    ("status", "retry"),
    [
        (400, False),
        (401, False),
        (404, False),
        (408, True),
        (409, True),
        (429, True),
        (500, True),
        (503, True),
        (529, True),
    ],
)
def test_retryable_statuses(status: int, retry: bool) -> None:
    assert is_retryable(status) is retry


def test_backoff_doubles_and_is_capped() -> None:
    policy = RetryPolicy(backoff=1.0, max_delay=5.0)
    rng = random.Random(7)
    for retry, ceiling in enumerate([1, 2, 4, 5, 5]):
        delay = policy.delay(retry, None, rng)
        assert ceiling / 2 <= delay <= ceiling


def test_retry_after_wins_but_is_capped() -> None:
    policy = RetryPolicy(max_delay=30.0)
    assert policy.delay(0, 12.0, random.Random()) == 12.0
    assert policy.delay(0, 3600.0, random.Random()) == 30.0
    assert policy.delay(0, -5.0, random.Random()) == 0.0


def test_retry_after_forms() -> None:
    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
    assert retry_after({"retry-after": "20"}) == 20.0
    assert retry_after({"retry-after": "1.5"}) == 1.5
    assert retry_after({"retry-after-ms": "250", "retry-after": "20"}) == 0.25
    assert retry_after({"retry-after": "Mon, 30 Nov 2026 12:00:09 GMT"}, now=now) == 9.0
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({}) is None
