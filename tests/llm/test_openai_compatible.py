"""OpenAICompatible against recorded chat.completions replies."""

from __future__ import annotations

import pytest
from llm_replay import FACTS_SCHEMA

from govmem import InputError, LLMError
from govmem.llm import OpenAICompatible


def test_plain_completion(openai) -> None:
    client, replay = openai("openai_chat_plain")
    reply = client.complete("Summarise the visit.", system="You write one-sentence summaries.")
    assert reply.text.startswith("Dr. Lee started Ms. Park on apixaban")
    assert reply.data is None
    assert (reply.input_tokens, reply.output_tokens) == (58, 26)
    assert reply.model == "gpt-4o-mini-2024-07-18"
    assert reply.stop_reason == "stop"
    assert not reply.cached
    request = replay.requests[0]
    assert request.method == "POST"
    assert str(request.url) == "https://api.openai.com/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test-1234"
    assert replay.body() == {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": "You write one-sentence summaries."},
            {"role": "user", "content": "Summarise the visit."},
        ],
        "max_tokens": 1024,
        "temperature": 0.0,
    }


def test_conversation_and_base_url_of_a_local_server(openai) -> None:
    client, replay = openai("ollama_chat_plain", base_url="http://localhost:11434/v1/", api_key=None)
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "What does Ms. Park take?"},
        {"role": "assistant", "content": "Which medication do you mean?"},
        {"role": "user", "content": "Her anticoagulant."},
    ]
    reply = client.complete(messages, max_tokens=64)
    assert reply.text == "Ms. Park takes apixaban 5 mg twice daily."
    assert str(replay.requests[0].url) == "http://localhost:11434/v1/chat/completions"
    assert "authorization" not in replay.requests[0].headers
    assert replay.body()["messages"] == messages
    assert replay.body()["max_tokens"] == 64


def test_structured_output_is_parsed_and_validated(openai) -> None:
    client, replay = openai("openai_chat_structured")
    reply = client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert reply.data["facts"][0] == {"subject": "park", "statement": "takes apixaban 5 mg twice daily"}
    assert replay.body()["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "fact_list", "schema": FACTS_SCHEMA, "strict": True},
    }


def test_json_object_mode_puts_the_schema_in_the_prompt(openai) -> None:
    client, replay = openai("openai_chat_structured", json_mode="object")
    reply = client.complete("Extract the facts.", system="You extract facts.", schema=FACTS_SCHEMA)
    assert reply.data["summary"].startswith("Ms. Park")
    body = replay.body()
    assert body["response_format"] == {"type": "json_object"}
    system = body["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith("You extract facts.\n\nReply with one JSON value")
    assert '"additionalProperties": false' in system["content"]


def test_invalid_json_is_retried_with_the_problem_then_succeeds(openai, sleeps) -> None:
    client, replay = openai("openai_chat_invalid_json", "openai_chat_structured")
    reply = client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert reply.data["summary"] == "Ms. Park started apixaban; follow-up on Thursday."
    retry = replay.body(1)["messages"]
    assert retry[-2]["role"] == "assistant"
    assert retry[-1]["content"].startswith("That reply is not valid: the reply is not JSON")
    assert client.usage.calls == 2
    assert client.usage.input_tokens == 212 * 2
    assert sleeps == []  # an invalid reply is asked again at once


def test_invalid_json_after_retries_is_a_clear_error(openai) -> None:
    client, replay = openai(*["openai_chat_invalid_json"] * 3)
    with pytest.raises(LLMError, match="does not match the schema after 3 attempts") as caught:
        client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    message = str(caught.value)
    assert "the reply is not JSON (Unterminated string" in message
    assert "stopped at max_tokens=1024" in message
    assert replay.done


def test_reply_that_breaks_the_schema_names_the_problem(openai) -> None:
    client, _ = openai("openai_chat_schema_mismatch", schema_retries=0)
    with pytest.raises(LLMError, match=r"after 1 attempts: 'facts' is a required property at \$"):
        client.complete("Extract the facts.", schema=FACTS_SCHEMA)


def test_refusal_is_an_error_at_once(openai) -> None:
    client, replay = openai("openai_chat_refusal")
    with pytest.raises(LLMError, match=r"the model refused: I'm sorry, I can't help with that request\."):
        client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    assert replay.done and len(replay.requests) == 1


def test_bad_json_mode_is_refused() -> None:
    with pytest.raises(InputError, match="json_mode 'xml' is not one of schema, object, prompt"):
        OpenAICompatible("m", json_mode="xml")


def test_max_tokens_param_for_newer_openai_models(openai) -> None:
    client, replay = openai("openai_chat_plain", max_tokens_param="max_completion_tokens")
    client.complete("hi", max_tokens=10)
    assert replay.body()["max_completion_tokens"] == 10
    assert "max_tokens" not in replay.body()
