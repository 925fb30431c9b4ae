"""Anthropic against recorded Messages API replies."""

from __future__ import annotations

import pytest
from llm_replay import FACTS_SCHEMA

from govmem import LLMError


def test_plain_completion(anthropic) -> None:
    client, replay = anthropic("anthropic_messages_plain")
    system = "You write one-sentence summaries."
    reply = client.complete("Summarise the visit.", system=system, max_tokens=200)
    assert reply.text.startswith("Dr. Lee started Ms. Park on apixaban")
    assert (reply.input_tokens, reply.output_tokens) == (61, 31)
    assert reply.model == "claude-3-5-haiku-20241022"
    assert reply.stop_reason == "end_turn"
    request = replay.requests[0]
    assert str(request.url) == "https://api.anthropic.com/v1/messages"
    assert request.headers["x-api-key"] == "sk-ant-test-5678"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers
    assert replay.body() == {
        "model": "claude-3-5-haiku-20241022",
        "max_tokens": 200,
        "messages": [{"role": "user", "content": "Summarise the visit."}],
        "temperature": 0.0,
        "system": system,
    }


def test_structured_output_through_one_forced_tool(anthropic) -> None:
    client, replay = anthropic("anthropic_messages_tool_use")
    reply = client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert reply.data["facts"][1] == {"subject": "park", "statement": "has a follow-up on Thursday at 10:00"}
    assert reply.text.startswith('{"summary": "Ms. Park started apixaban')
    body = replay.body()
    assert body["tools"] == [
        {
            "name": "fact_list",
            "description": "Give the answer in this structure.",
            "input_schema": FACTS_SCHEMA,
        }
    ]
    assert body["tool_choice"] == {"type": "tool", "name": "fact_list"}


def test_a_schema_that_is_not_an_object_is_wrapped(anthropic) -> None:
    client, replay = anthropic("anthropic_messages_tool_use_value")
    schema = {"type": "array", "items": {"type": "string"}}
    reply = client.complete("Which medications?", schema=schema)
    assert reply.data == ["apixaban", "lisinopril"]
    tool = replay.body()["tools"][0]
    assert tool["name"] == "record_answer"
    assert tool["input_schema"] == {"type": "object", "properties": {"value": schema}, "required": ["value"]}


def test_invalid_tool_input_is_retried_with_a_tool_result(anthropic) -> None:
    client, replay = anthropic("anthropic_messages_tool_use_invalid", "anthropic_messages_tool_use")
    reply = client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert len(reply.data["facts"]) == 2
    messages = replay.body(1)["messages"]
    assert messages[1]["role"] == "assistant"
    assert messages[1]["content"][0]["id"] == "toolu_01D7FLrfh4GYq7yT1ULFeyMV"
    result = messages[2]["content"][0]
    assert result["type"] == "tool_result"
    assert result["tool_use_id"] == "toolu_01D7FLrfh4GYq7yT1ULFeyMV"
    assert result["is_error"] is True
    assert "'statement' is a required property at $.facts[0]" in result["content"]


def test_invalid_tool_input_after_retries_is_a_clear_error(anthropic) -> None:
    client, replay = anthropic(*["anthropic_messages_tool_use_invalid"] * 2, schema_retries=1)
    with pytest.raises(
        LLMError,
        match=r"anthropic claude-3-5-haiku-20241022: the reply does not match the schema after 2 attempts: "
        r"'statement' is a required property at \$\.facts\[0\]",
    ):
        client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert replay.done


def test_a_reply_without_tool_use_is_invalid(anthropic) -> None:
    client, _ = anthropic("anthropic_messages_plain", schema_retries=0)
    with pytest.raises(LLMError, match="the reply has no tool_use block"):
        client.complete("Extract the facts.", schema=FACTS_SCHEMA)
