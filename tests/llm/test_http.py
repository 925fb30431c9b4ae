"""Transport behaviour: retries with backoff and Retry-After, clear errors, timeouts."""

from __future__ import annotations

import httpx
import pytest

from govmem import LLMError


def test_429_waits_as_retry_after_says_then_succeeds(openai, sleeps) -> None:
    client, replay = openai("openai_error_429", "openai_chat_plain")
    reply = client.complete("Summarise the visit.")
    assert reply.text.startswith("Dr. Lee")
    assert sleeps == [20.0]
    assert len(replay.requests) == 2
    assert replay.body(0) == replay.body(1)
    assert (client.usage.requests, client.usage.retries, client.usage.calls) == (2, 1, 1)


def test_anthropic_429_and_overloaded_are_retried(anthropic, sleeps) -> None:
    client, replay = anthropic("anthropic_error_429", "anthropic_error_529", "anthropic_messages_plain")
    assert client.complete("Summarise the visit.").text.startswith("Dr. Lee")
    assert sleeps[0] == 7.0
    assert 1.0 <= sleeps[1] <= 2.0  # second retry without Retry-After: backoff 2 s, half of it jitter
    assert replay.done


def test_500_backs_off_exponentially_with_jitter(openai, sleeps) -> None:
    client, replay = openai(*["openai_error_500"] * 3, "openai_chat_plain")
    assert client.complete("Summarise the visit.").text.startswith("Dr. Lee")
    assert len(sleeps) == 3
    for retry, delay in enumerate(sleeps):
        assert 2**retry / 2 <= delay <= 2**retry
    assert replay.done


def test_retries_run_out_with_the_status_and_the_api_message(openai, sleeps) -> None:
    client, _ = openai(*["openai_error_500"] * 3, max_retries=2)
    with pytest.raises(LLMError) as caught:
        client.complete("Summarise the visit.")
    assert caught.value.status == 500
    assert str(caught.value) == (
        "openai-compatible gpt-4o-mini: HTTP 500 from https://api.openai.com/v1/chat/completions: "
        "The server had an error while processing your request. Sorry about that! (3 attempts)"
    )
    assert len(sleeps) == 2


@pytest.mark.parametrize(
    ("recording", "status", "message"),
    [
        ("openai_error_400", 400, "Invalid schema for response_format 'fact_list'"),
        ("openai_error_401", 401, "Incorrect API key provided: sk-test-****"),
    ],
)
def test_openai_client_errors_raise_at_once(openai, sleeps, recording, status, message) -> None:
    client, replay = openai(recording)
    with pytest.raises(
        LLMError, match=f"HTTP {status} from https://api.openai.com/v1/chat/completions: "
    ) as caught:
        client.complete("Summarise the visit.")
    assert caught.value.status == status
    assert message in str(caught.value)
    assert "attempts" not in str(caught.value)
    assert len(replay.requests) == 1 and sleeps == []


@pytest.mark.parametrize(
    ("recording", "status", "message"),
    [
        ("anthropic_error_400", 400, "max_tokens: 100000 > 8192, which is the maximum allowed"),
        ("anthropic_error_401", 401, "invalid x-api-key"),
    ],
)
def test_anthropic_client_errors_raise_at_once(anthropic, sleeps, recording, status, message) -> None:
    client, replay = anthropic(recording)
    with pytest.raises(
        LLMError, match=f"HTTP {status} from https://api.anthropic.com/v1/messages: "
    ) as caught:
        client.complete("Summarise the visit.", max_tokens=100000)
    assert caught.value.status == status
    assert message in str(caught.value)
    assert len(replay.requests) == 1 and sleeps == []


def test_the_api_key_never_appears_in_an_error(openai) -> None:
    client, _ = openai("openai_error_401", api_key="sk-secret-should-not-leak")
    with pytest.raises(LLMError) as caught:
        client.complete("hi")
    assert "sk-secret" not in str(caught.value)
    assert "sk-secret" not in repr(client)


def test_timeout_is_retried(openai, sleeps) -> None:
    client, replay = openai(httpx.ReadTimeout, "openai_chat_plain")
    assert client.complete("Summarise the visit.").text.startswith("Dr. Lee")
    assert len(sleeps) == 1 and len(replay.requests) == 2


def test_timeouts_run_out_with_a_clear_error(openai, sleeps) -> None:
    client, _ = openai(httpx.ConnectTimeout, httpx.ReadTimeout, max_retries=1, timeout=12.5)
    with pytest.raises(
        LLMError, match=r"no reply from https://api\.openai\.com/v1/chat/completions within 12\.5 s"
    ):
        client.complete("Summarise the visit.")
    assert len(sleeps) == 1


def test_the_timeout_reaches_the_request(openai) -> None:
    client, replay = openai("openai_chat_plain", timeout=7)
    client.complete("hi")
    assert replay.requests[0].extensions["timeout"] == {"connect": 7, "read": 7, "write": 7, "pool": 7}


def test_connection_errors_are_retried_then_named(anthropic, sleeps) -> None:
    client, _ = anthropic(httpx.ConnectError, httpx.ConnectError, max_retries=1)
    with pytest.raises(LLMError, match=r"cannot reach https://api\.anthropic\.com/v1/messages: simulated"):
        client.complete("hi")
    assert len(sleeps) == 1


def test_a_reply_that_is_not_json_is_an_error(openai) -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html>proxy login</html>")

    from govmem.llm import OpenAICompatible

    client = OpenAICompatible("m", transport=httpx.MockTransport(handle))
    with pytest.raises(LLMError, match="is not a JSON object: '<html>proxy login</html>'"):
        client.complete("hi")


def test_ollama_style_error_string(openai) -> None:
    from govmem.llm import OpenAICompatible

    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"error": 'model "llama9" not found, try pulling it first'})

    client = OpenAICompatible(
        "llama9", base_url="http://localhost:11434/v1", transport=httpx.MockTransport(handle)
    )
    with pytest.raises(LLMError, match=r'HTTP 404 from .*: model "llama9" not found, try pulling it first'):
        client.complete("hi")


def test_a_url_without_scheme_is_an_error_at_once(sleeps) -> None:
    from govmem.llm import OpenAICompatible

    client = OpenAICompatible("m", base_url="localhost:11434/v1", sleep=sleeps)
    with pytest.raises(LLMError, match="cannot send to localhost:11434/v1/chat/completions"):
        client.complete("hi")
    assert sleeps == []
