"""What every client shares: arguments, messages, sources, the optional dependency."""

from __future__ import annotations

import subprocess
import sys

import pytest

import govmem.llm
from govmem import InputError, LLMError
from govmem.llm import OpenAICompatible
from govmem.llm.client import normalize_messages, source_keys


def test_prompt_becomes_one_user_message() -> None:
    assert normalize_messages("hi", None) == (None, [{"role": "user", "content": "hi"}])


def test_system_messages_join_the_system_argument() -> None:
    system, chat = normalize_messages(
        [{"role": "system", "content": "From the list."}, {"role": "user", "content": "hi"}], "Be brief."
    )
    assert system == "Be brief.\n\nFrom the list."
    assert chat == [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        ([], "no user or assistant message"),
        ([{"role": "tool", "content": "x"}], "message 0: role 'tool' is not"),
        ([{"role": "user", "content": None}], "message 0: content must be text, not NoneType"),
        (["hi"], "message 0 is not a mapping"),
    ],
)
def test_bad_messages_are_named(messages, message) -> None:
    with pytest.raises(InputError, match=message):
        normalize_messages(messages, None)


def test_sources_are_turn_keys() -> None:
    assert source_keys([3, 1, 3]) == (1, 3)
    with pytest.raises(InputError, match="not a turn key"):
        source_keys(["t1"])
    with pytest.raises(InputError, match="not text"):
        source_keys("12")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_tokens": 0}, "max_tokens must be a positive integer"),
        ({"temperature": -1}, "temperature must be a number >= 0"),
        ({"schema": {"type": "no-such-type"}}, "invalid JSON schema: 'no-such-type' is not valid"),
        ({"schema": ["not", "a", "schema"]}, "schema must be a JSON schema object"),
    ],
)
def test_bad_arguments_fail_before_any_request(openai, options, message) -> None:
    client, replay = openai()
    with pytest.raises(InputError, match=message):
        client.complete("hi", **options)
    assert replay.requests == []


def test_client_is_a_context_manager(openai) -> None:
    client, _ = openai("openai_chat_plain")
    with client as same:
        assert same.complete("hi").text
    assert client._poster._client.is_closed


def test_constructor_checks(openai) -> None:
    with pytest.raises(InputError, match="needs a model name"):
        OpenAICompatible("")
    with pytest.raises(InputError, match="timeout must be positive"):
        OpenAICompatible("m", timeout=0)


def test_without_httpx_the_error_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(LLMError, match=r"pip install 'govmem\[llm\]'"):
        OpenAICompatible("m")


def test_without_jsonschema_the_error_says_what_to_install(openai, monkeypatch) -> None:
    client, _ = openai()
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(LLMError, match=r"structured output needs jsonschema: pip install 'govmem\[llm\]'"):
        client.complete("hi", schema={"type": "object"})


def test_importing_govmem_loads_no_llm_dependency() -> None:
    code = "import sys, govmem, govmem.llm; print(sorted({'httpx', 'jsonschema'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_public_names() -> None:
    assert govmem.llm.__all__ == sorted(govmem.llm.__all__, key=lambda n: (not n.isupper(), n))
    for name in govmem.llm.__all__:
        assert hasattr(govmem.llm, name)
