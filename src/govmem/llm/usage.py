"""Token and cost accounting: prices per model, running totals per client."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Price:
    """USD per million tokens, as providers publish them."""

    input_per_million: float
    output_per_million: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input_per_million + output_tokens * self.output_per_million) / 1e6


@dataclass
class Usage:
    """Running totals of one client.

    ``calls`` counts replies received from the backend (each one billed, replies
    that failed the schema included); ``requests`` counts HTTP requests sent,
    retries included; ``cache_hits`` counts calls answered from the cache, which
    send nothing and cost nothing. Replies from a model with no configured price
    add no cost and put the model in ``unpriced_models``.
    """

    calls: int = 0
    cache_hits: int = 0
    requests: int = 0
    retries: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    unpriced_models: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def as_dict(self) -> dict[str, object]:
        """The totals for a report (JSON-ready)."""
        with self._lock:
            return {
                "calls": self.calls,
                "cache_hits": self.cache_hits,
                "requests": self.requests,
                "retries": self.retries,
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
                "cost_usd": self.cost_usd,
                "unpriced_models": sorted(self.unpriced_models),
            }

    @property
    def priced(self) -> bool:
        """True when every reply so far had a configured price."""
        return not self.unpriced_models

    def add_reply(self, model: str, input_tokens: int, output_tokens: int, cost: float | None) -> None:
        """Count one billed reply; ``cost`` None means the model has no price."""
        with self._lock:
            self.calls += 1
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens
            if cost is None:
                self.unpriced_models.add(model)
            else:
                self.cost_usd += cost

    def add_request(self, retry: bool) -> None:
        with self._lock:
            self.requests += 1
            self.retries += int(retry)

    def add_cache_hit(self) -> None:
        with self._lock:
            self.cache_hits += 1
