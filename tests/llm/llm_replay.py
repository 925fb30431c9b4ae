"""Replay recorded API replies through httpx.MockTransport: no network, no waiting.

A recording (``recordings/NAME.json``) is one HTTP reply as the API sent it:
``{"status": ..., "headers": {...}, "body": {...}}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from govmem.llm import Price

RECORDINGS = Path(__file__).parent / "recordings"

FACTS_SCHEMA: dict[str, Any] = {
    "title": "fact_list",
    "type": "object",
    "properties": {
        "summary": {"type": "string"},
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"subject": {"type": "string"}, "statement": {"type": "string"}},
                "required": ["subject", "statement"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["summary", "facts"],
    "additionalProperties": False,
}

PRICES = {
    "gpt-4o-mini": Price(0.15, 0.60),
    "claude-3-5-haiku-20241022": Price(0.80, 4.00),
}


def recording(name: str) -> dict[str, Any]:
    return json.loads((RECORDINGS / f"{name}.json").read_text(encoding="utf-8"))


class Replay:
    """Serves steps in order; a step is a recording name or an httpx exception class to raise."""

    def __init__(self, *steps: str | type[httpx.TransportError]):
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []
        self.transport = httpx.MockTransport(self.handle)

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        assert self.steps, f"unexpected request to {request.url}"
        step = self.steps.pop(0)
        if isinstance(step, type):
            raise step(f"simulated {step.__name__}", request=request)
        recorded = recording(step)
        return httpx.Response(recorded["status"], headers=recorded["headers"], json=recorded["body"])

    def body(self, index: int = -1) -> dict[str, Any]:
        return json.loads(self.requests[index].content)

    @property
    def done(self) -> bool:
        return not self.steps


class Sleeps(list):
    """An injected ``sleep`` that records the delays instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)
