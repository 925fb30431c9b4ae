"""What one completion returns, and its JSON form in a response cache."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class LLMResponse:
    """A model's reply and what this call cost.

    ``data`` is the parsed JSON, already validated, when the call gave a schema.
    A reply served from a cache has ``cached=True`` and costs nothing: its token
    counts and ``cost_usd`` are zero, so summing responses matches the client's usage.
    ``priced`` is False when no price is configured for the model (cost then reads 0).
    """

    text: str
    data: Any = None
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cached: bool = False
    model: str = ""
    stop_reason: str | None = None
    priced: bool = True

    def to_json(self) -> str:
        """The reply as cached: what the model said, not what this call cost."""
        fields = asdict(self)
        for name in ("cached", "input_tokens", "output_tokens", "cost_usd", "priced"):
            del fields[name]
        return json.dumps(fields, sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_cache(cls, text: str) -> LLMResponse:
        """A reply read back from a cache: ``cached``, and free."""
        fields = json.loads(text)
        return cls(
            text=fields["text"],
            data=fields.get("data"),
            model=fields.get("model", ""),
            stop_reason=fields.get("stop_reason"),
            cached=True,
        )
