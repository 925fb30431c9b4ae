"""Fixtures: clients wired to a Replay of recorded replies and an injected sleep."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from llm_replay import PRICES, Replay, Sleeps

from govmem.llm import Anthropic, OpenAICompatible


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def openai(sleeps: Sleeps) -> Callable[..., tuple[OpenAICompatible, Replay]]:
    def make(*steps: str | type[httpx.TransportError], **options: Any) -> tuple[OpenAICompatible, Replay]:
        replay = Replay(*steps)
        options = {"api_key": "sk-test-1234", "prices": PRICES, "sleep": sleeps} | options
        return OpenAICompatible("gpt-4o-mini", transport=replay.transport, **options), replay

    return make


@pytest.fixture
def anthropic(sleeps: Sleeps) -> Callable[..., tuple[Anthropic, Replay]]:
    def make(*steps: str | type[httpx.TransportError], **options: Any) -> tuple[Anthropic, Replay]:
        replay = Replay(*steps)
        options = {"api_key": "sk-ant-test-5678", "prices": PRICES, "sleep": sleeps} | options
        return Anthropic("claude-3-5-haiku-20241022", transport=replay.transport, **options), replay

    return make
