"""Token and cost accounting per response and per client."""

from __future__ import annotations

import pytest
from llm_replay import FACTS_SCHEMA

from govmem.llm import InMemoryResponseCache, Price


def test_cost_from_prices_per_million_tokens() -> None:
    assert Price(0.15, 0.60).cost(1_000_000, 0) == pytest.approx(0.15)
    assert Price(0.15, 0.60).cost(58, 26) == pytest.approx((58 * 0.15 + 26 * 0.60) / 1e6)


def test_totals_add_up_over_calls_and_backends(openai, anthropic) -> None:
    client, _ = openai("openai_chat_plain", "openai_error_429", "openai_chat_structured")
    first = client.complete("Summarise the visit.")
    second = client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    usage = client.usage
    assert (usage.calls, usage.requests, usage.retries, usage.cache_hits) == (2, 3, 1, 0)
    assert (usage.input_tokens, usage.output_tokens) == (58 + 212, 26 + 47)
    expected = Price(0.15, 0.60).cost(58 + 212, 26 + 47)
    assert usage.cost_usd == pytest.approx(expected)
    assert first.cost_usd + second.cost_usd == pytest.approx(expected)
    assert usage.priced and first.priced

    claude, _ = anthropic("anthropic_messages_tool_use")
    reply = claude.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert reply.cost_usd == pytest.approx((498 * 0.80 + 92 * 4.00) / 1e6)
    assert claude.usage.cost_usd == pytest.approx(reply.cost_usd)


def test_price_found_by_the_configured_name_when_the_reply_names_a_snapshot(openai) -> None:
    client, _ = openai("openai_chat_plain")  # priced as gpt-4o-mini, replies as gpt-4o-mini-2024-07-18
    assert client.complete("hi").cost_usd > 0


def test_unknown_price_costs_nothing_and_is_flagged(openai) -> None:
    client, _ = openai("ollama_chat_plain", base_url="http://localhost:11434/v1", prices={})
    reply = client.complete("What does Ms. Park take?")
    assert reply.cost_usd == 0.0 and not reply.priced
    assert client.usage.unpriced_models == {"llama3.2:3b"}
    assert not client.usage.priced
    assert (client.usage.input_tokens, client.usage.output_tokens) == (64, 14)


def test_failed_schema_attempts_are_still_billed(openai) -> None:
    client, _ = openai("openai_chat_invalid_json", "openai_chat_structured")
    reply = client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert client.usage.calls == 2
    assert client.usage.output_tokens == 16 + 47
    assert reply.output_tokens == 47  # the response reports its own reply


def test_cache_hits_are_counted_and_free(openai) -> None:
    client, replay = openai("openai_chat_plain", cache=InMemoryResponseCache())
    client.complete("Summarise the visit.")
    hit = client.complete("Summarise the visit.")
    assert hit.cached and hit.cost_usd == 0.0 and hit.input_tokens == hit.output_tokens == 0
    assert (client.usage.calls, client.usage.cache_hits, client.usage.requests) == (1, 1, 1)
    assert len(replay.requests) == 1


def test_usage_as_dict(openai) -> None:
    client, _ = openai("ollama_chat_plain", prices={})
    client.complete("hi")
    assert client.usage.as_dict() == {
        "calls": 1,
        "cache_hits": 0,
        "requests": 1,
        "retries": 0,
        "input_tokens": 64,
        "output_tokens": 14,
        "cost_usd": 0.0,
        "unpriced_models": ["llama3.2:3b"],
    }
