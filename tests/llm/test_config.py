"""Configuration from a TOML file and the environment; errors name the key and value."""

from __future__ import annotations

import pytest
from llm_replay import Replay

from govmem import InputError
from govmem.llm import Anthropic, LLMConfig, OpenAICompatible, Price, load_client, load_config


def write(tmp_path, text: str, name: str = "govmem-llm.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_nothing_configured_means_no_client() -> None:
    assert load_config(environ={}) is None
    assert load_client(environ={}) is None
    # a vendor key alone configures nothing: the default path never needs an LLM
    assert load_client(environ={"OPENAI_API_KEY": "sk-x", "ANTHROPIC_API_KEY": "sk-ant-x"}) is None


def test_file_with_an_llm_table(tmp_path) -> None:
    path = write(
        tmp_path,
        """
        [store]
        path = "clinic.db"

        [llm]
        backend = "ollama"
        model = "llama3.2:3b"
        timeout = 20
        max_retries = 1
        schema_retries = 0
        json_mode = "object"

        [llm.prices]
        "llama3.2:3b" = { input = 0, output = 0 }
        "gpt-4o-mini" = [0.15, 0.60]
        """,
    )
    config = load_config(path, environ={})
    assert config == LLMConfig(
        backend="ollama",
        model="llama3.2:3b",
        timeout=20.0,
        max_retries=1,
        schema_retries=0,
        json_mode="object",
        prices={"llama3.2:3b": Price(0.0, 0.0), "gpt-4o-mini": Price(0.15, 0.60)},
    )
    client = load_client(path, environ={})
    assert isinstance(client, OpenAICompatible)
    assert client.base_url == "http://localhost:11434/v1"
    assert client.api_key is None and client.json_mode == "object" and client.schema_retries == 0


def test_file_path_from_the_environment_and_overrides(tmp_path) -> None:
    path = write(tmp_path, 'backend = "openai"\nmodel = "gpt-4o-mini"\ntimeout = 30\n')
    environ = {
        "GOVMEM_LLM_CONFIG": str(path),
        "GOVMEM_LLM_MODEL": "gpt-4.1-mini",
        "GOVMEM_LLM_MAX_RETRIES": "5",
        "GOVMEM_LLM_PRICES": '{"gpt-4.1-mini": {"input": 0.4, "output": 1.6}}',
        "OPENAI_API_KEY": "sk-from-openai-var",
    }
    client = load_client(environ=environ)
    assert isinstance(client, OpenAICompatible)
    assert client.model == "gpt-4.1-mini"
    assert client.base_url == "https://api.openai.com/v1"
    assert client.api_key == "sk-from-openai-var"
    assert client._poster.timeout == 30.0 and client._poster.retry.max_retries == 5
    assert client.prices == {"gpt-4.1-mini": Price(0.4, 1.6)}


def test_environment_only_anthropic() -> None:
    environ = {
        "GOVMEM_LLM_BACKEND": "anthropic",
        "GOVMEM_LLM_MODEL": "claude-3-5-haiku-20241022",
        "GOVMEM_LLM_TIMEOUT": "15",
        "ANTHROPIC_API_KEY": "sk-ant-x",
        "OPENAI_API_KEY": "sk-openai-never-sent-to-anthropic",
    }
    client = load_client(environ=environ)
    assert isinstance(client, Anthropic)
    assert client.api_key == "sk-ant-x"
    assert client.base_url == "https://api.anthropic.com"
    assert client._poster.timeout == 15.0


def test_govmem_key_wins_over_the_vendor_key() -> None:
    environ = {
        "GOVMEM_LLM_BACKEND": "openai",
        "GOVMEM_LLM_MODEL": "gpt-4o-mini",
        "GOVMEM_LLM_API_KEY": "sk-govmem",
        "OPENAI_API_KEY": "sk-openai",
    }
    assert load_client(environ=environ).api_key == "sk-govmem"


def test_vendor_key_is_not_sent_to_a_local_server() -> None:
    environ = {"GOVMEM_LLM_BACKEND": "vllm", "GOVMEM_LLM_MODEL": "qwen", "OPENAI_API_KEY": "sk-openai"}
    client = load_client(environ=environ)
    assert client.api_key is None and client.base_url == "http://localhost:8000/v1"


def test_api_key_env_names_the_variable(tmp_path) -> None:
    path = write(tmp_path, 'backend = "anthropic"\nmodel = "claude"\napi_key_env = "CLINIC_CLAUDE_KEY"\n')
    assert load_client(path, environ={"CLINIC_CLAUDE_KEY": "sk-ant-y"}).api_key == "sk-ant-y"
    with pytest.raises(InputError, match="api_key_env: the variable 'CLINIC_CLAUDE_KEY' is not set"):
        load_client(path, environ={})


def test_missing_key_for_a_hosted_backend_is_named() -> None:
    environ = {"GOVMEM_LLM_BACKEND": "openai", "GOVMEM_LLM_MODEL": "gpt-4o-mini"}
    with pytest.raises(
        InputError, match="backend 'openai' needs an API key: set GOVMEM_LLM_API_KEY or OPENAI_API_KEY"
    ):
        load_client(environ=environ)


def test_mapping_config_and_transport(sleeps) -> None:
    replay = Replay("openai_chat_plain")
    client = load_client(
        {"llm": {"backend": "openai-compatible", "model": "m", "base_url": "http://gpu-box:8000/v1"}},
        transport=replay.transport,
        sleep=sleeps,
        environ={},
    )
    assert client.complete("hi").text.startswith("Dr. Lee")
    assert str(replay.requests[0].url) == "http://gpu-box:8000/v1/chat/completions"


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        (
            {"GOVMEM_LLM_BACKEND": "gpt", "GOVMEM_LLM_MODEL": "m"},
            "GOVMEM_LLM_BACKEND: unknown backend 'gpt' "
            r"\(use one of openai, openai-compatible, vllm, ollama, llamacpp, lmstudio, anthropic\)",
        ),
        (
            {"GOVMEM_LLM_BACKEND": "ollama"},
            r"GOVMEM_LLM_BACKEND is set but no model is \(set model or "
            "GOVMEM_LLM_MODEL\\)",
        ),
        ({"GOVMEM_LLM_MODEL": "m"}, "GOVMEM_LLM_MODEL is set but no backend is"),
        (
            {"GOVMEM_LLM_BACKEND": "ollama", "GOVMEM_LLM_MODEL": "m", "GOVMEM_LLM_TIMEOUT": "soon"},
            "GOVMEM_LLM_TIMEOUT: 'soon' is not a number",
        ),
        (
            {"GOVMEM_LLM_BACKEND": "ollama", "GOVMEM_LLM_MODEL": "m", "GOVMEM_LLM_MAX_RETRIES": "-1"},
            "GOVMEM_LLM_MAX_RETRIES: expected a whole number >= 0, got -1",
        ),
        (
            {"GOVMEM_LLM_BACKEND": "ollama", "GOVMEM_LLM_MODEL": "m", "GOVMEM_LLM_JSON_MODE": "xml"},
            "GOVMEM_LLM_JSON_MODE: json_mode 'xml' is not one of schema, object, prompt",
        ),
        (
            {"GOVMEM_LLM_BACKEND": "ollama", "GOVMEM_LLM_MODEL": "m", "GOVMEM_LLM_PRICES": "cheap"},
            "GOVMEM_LLM_PRICES: not JSON",
        ),
        (
            {"GOVMEM_LLM_BACKEND": "openai-compatible", "GOVMEM_LLM_MODEL": "m"},
            "GOVMEM_LLM_BACKEND: backend 'openai-compatible' needs a base_url",
        ),
        (
            {"GOVMEM_LLM_CONFIG": "/nonexistent/govmem-llm.toml"},
            "GOVMEM_LLM_CONFIG: /nonexistent/govmem-llm.toml: no such LLM configuration file",
        ),
    ],
)
def test_environment_errors_name_the_variable(environ, message) -> None:
    with pytest.raises(InputError, match=message):
        load_client(environ=environ)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[llm]\nbackend = "claude"\nmodel = "m"\n', "llm.backend: unknown backend 'claude'"),
        ('[llm]\nbackend = "anthropic"\n', r"llm.backend is set but no model is"),
        ('[llm]\nbackend = "ollama"\nmodle = "m"\n', r"llm.modle: unknown key \(known: backend, model,"),
        ('[llm]\nbackend = "ollama"\nmodel = "m"\ntimeout = 0\n', "llm.timeout: expected a positive number"),
        ('[llm]\nbackend = "ollama"\nmodel = "m"\nstrict = "maybe"\n', "llm.strict: expected true or false"),
        ('[llm]\nbackend = "ollama"\nmodel = ""\n', "llm.model: expected non-empty text, got ''"),
        (
            '[llm]\nbackend = "ollama"\nmodel = "m"\n[llm.prices]\nm = { input = 1 }\n',
            r"llm.prices.m: expected exactly 'input' and 'output', got \['input'\]",
        ),
        (
            '[llm]\nbackend = "ollama"\nmodel = "m"\n[llm.prices]\nm = [1, -2]\n',
            "llm.prices.m: price -2 is not a number >= 0",
        ),
        ('backend = "ollama"\nmodel = "m"\nmax_retries = 1.5\n', "max_retries: expected a whole number"),
        ("[llm\n", "not valid TOML"),
    ],
)
def test_file_errors_name_the_file_and_key(tmp_path, text, message) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InputError, match=message) as caught:
        load_client(path, environ={})
    assert str(caught.value).startswith(str(path))


def test_explicit_config_ignores_the_environment_except_keys(tmp_path) -> None:
    path = write(tmp_path, 'backend = "ollama"\nmodel = "llama3.2:3b"\n')
    client = load_client(path, environ={"GOVMEM_LLM_MODEL": "other", "GOVMEM_LLM_API_KEY": "k"})
    assert client.model == "llama3.2:3b" and client.api_key == "k"


def test_config_repr_hides_the_key() -> None:
    config = LLMConfig(backend="openai", model="gpt-4o-mini", api_key="sk-secret")
    assert "sk-secret" not in repr(config)
    assert load_config(config) is config
