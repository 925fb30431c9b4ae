"""Which LLM to use, from a TOML file and the environment.

Nothing configured means no LLM: :func:`load_client` returns None and govmem runs
offline. A file (its path in ``GOVMEM_LLM_CONFIG``, or passed to ``load_client``)
holds the keys at its top level or in an ``[llm]`` table::

    [llm]
    backend = "openai"        # openai, openai-compatible, vllm, ollama, llamacpp, lmstudio, anthropic
    model = "gpt-4o-mini"
    # base_url = "..."        # default per backend; required for openai-compatible
    # api_key_env = "MY_KEY"  # read the key from this variable (api_key = "..." also works)
    timeout = 60              # seconds to connect, send, or wait for the next bytes
    max_retries = 3           # on 408/409/429/5xx, timeouts, connection errors
    schema_retries = 2        # on replies that do not match the schema
    json_mode = "schema"      # chat-completions backends: schema, object or prompt
    strict = true             # json_mode "schema": ask the server to enforce it
    max_tokens_param = "max_tokens"

    [llm.prices]              # USD per million tokens
    "gpt-4o-mini" = { input = 0.15, output = 0.60 }

With no explicit configuration the environment is read and wins over the file:
``GOVMEM_LLM_BACKEND``, ``_MODEL``, ``_BASE_URL``, ``_API_KEY``, ``_TIMEOUT``,
``_MAX_RETRIES``, ``_SCHEMA_RETRIES``, ``_JSON_MODE``, ``_PRICES`` (JSON, e.g.
``{"gpt-4o-mini": {"input": 0.15, "output": 0.6}}``). The API key falls back to
``GOVMEM_LLM_API_KEY``, then ``OPENAI_API_KEY`` (backend ``openai``) or
``ANTHROPIC_API_KEY`` (backend ``anthropic``); a vendor's key is never sent to
another backend.
"""

from __future__ import annotations

import json
import os
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from govmem.errors import InputError
from govmem.llm.anthropic import ANTHROPIC_BASE_URL, Anthropic
from govmem.llm.cache import ResponseCache
from govmem.llm.client import BaseClient, LLMClient
from govmem.llm.openai_compatible import JSON_MODES, OPENAI_BASE_URL, OpenAICompatible
from govmem.llm.usage import Price

if TYPE_CHECKING:
    import httpx

ENV_CONFIG = "GOVMEM_LLM_CONFIG"
ENV_PREFIX = "GOVMEM_LLM_"


@dataclass(frozen=True)
class Backend:
    """A backend name: which client speaks to it, where by default, and its vendor key."""

    client: type[BaseClient]
    base_url: str | None
    key_env: str | None = None  # the vendor's variable; a key is then required


BACKENDS: dict[str, Backend] = {
    "openai": Backend(OpenAICompatible, OPENAI_BASE_URL, "OPENAI_API_KEY"),
    "openai-compatible": Backend(OpenAICompatible, None),
    "vllm": Backend(OpenAICompatible, "http://localhost:8000/v1"),
    "ollama": Backend(OpenAICompatible, "http://localhost:11434/v1"),
    "llamacpp": Backend(OpenAICompatible, "http://localhost:8080/v1"),
    "lmstudio": Backend(OpenAICompatible, "http://localhost:1234/v1"),
    "anthropic": Backend(Anthropic, ANTHROPIC_BASE_URL, "ANTHROPIC_API_KEY"),
}


@dataclass(frozen=True)
class LLMConfig:
    """A validated configuration; build the client with :func:`load_client`."""

    backend: str
    model: str
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    api_key_env: str | None = None
    timeout: float = 60.0
    max_retries: int = 3
    schema_retries: int = 2
    json_mode: str = "schema"
    strict: bool = True
    max_tokens_param: str = "max_tokens"
    prices: Mapping[str, Price] = field(default_factory=dict)


# key -> (parser of a file value, parser of an environment string); parsers get (value, where).
Parser = Callable[[Any, str], Any]


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: expected non-empty text, got {value!r}")
    return value.strip()


def _backend(value: Any, where: str) -> str:
    name = _text(value, where).lower()
    if name not in BACKENDS:
        raise InputError(f"{where}: unknown backend {value!r} (use one of {', '.join(BACKENDS)})")
    return name


def _json_mode(value: Any, where: str) -> str:
    if value not in JSON_MODES:
        raise InputError(f"{where}: json_mode {value!r} is not one of {', '.join(JSON_MODES)}")
    return value


def _positive(value: Any, where: str) -> float:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise InputError(f"{where}: {value!r} is not a number") from None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise InputError(f"{where}: expected a positive number of seconds, got {value!r}")
    return float(value)


def _count(value: Any, where: str) -> int:
    if isinstance(value, str):
        try:
            value = int(value)
        except ValueError:
            raise InputError(f"{where}: {value!r} is not a whole number") from None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"{where}: expected a whole number >= 0, got {value!r}")
    return value


def _flag(value: Any, where: str) -> bool:
    if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "0", "false", "no"):
        return value.strip().lower() in ("1", "true", "yes")
    if not isinstance(value, bool):
        raise InputError(f"{where}: expected true or false, got {value!r}")
    return value


def _prices(value: Any, where: str) -> dict[str, Price]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: expected a table of model = {{ input = ..., output = ... }}")
    prices = {}
    for model, price in value.items():
        here = f"{where}.{model}"
        if isinstance(price, Mapping):
            extra = set(price) - {"input", "output"}
            if extra or len(price) != 2:
                raise InputError(f"{here}: expected exactly 'input' and 'output', got {sorted(price)}")
            pair = (price["input"], price["output"])
        elif isinstance(price, list | tuple) and len(price) == 2:
            pair = tuple(price)
        else:
            raise InputError(f"{here}: expected {{ input = ..., output = ... }} in USD per million tokens")
        for amount in pair:
            if isinstance(amount, bool) or not isinstance(amount, int | float) or amount < 0:
                raise InputError(f"{here}: price {amount!r} is not a number >= 0")
        prices[str(model)] = Price(float(pair[0]), float(pair[1]))
    return prices


PARSERS: dict[str, Parser] = {
    "backend": _backend,
    "model": _text,
    "base_url": _text,
    "api_key": _text,
    "api_key_env": _text,
    "timeout": _positive,
    "max_retries": _count,
    "schema_retries": _count,
    "json_mode": _json_mode,
    "strict": _flag,
    "max_tokens_param": _text,
    "prices": _prices,
}
_FROM_ENVIRONMENT = (
    "backend",
    "model",
    "base_url",
    "api_key",
    "timeout",
    "max_retries",
    "schema_retries",
    "json_mode",
    "prices",
)


def _parse_table(table: Mapping[str, Any], where: str) -> dict[str, tuple[Any, str]]:
    """Each known key's parsed value and where it came from; unknown keys are errors."""
    values = {}
    for key, value in table.items():
        here = f"{where}{key}"
        if key not in PARSERS:
            raise InputError(f"{here}: unknown key (known: {', '.join(PARSERS)})")
        values[key] = (PARSERS[key](value, here), here)
    return values


def _read_file(path: str | os.PathLike[str], origin: str = "") -> dict[str, tuple[Any, str]]:
    name = str(path)
    try:
        with open(path, "rb") as handle:
            document = tomllib.load(handle)
    except FileNotFoundError:
        raise InputError(f"{origin}{name}: no such LLM configuration file") from None
    except OSError as exc:
        raise InputError(f"{origin}{name}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{name}: not valid TOML: {exc}") from None
    if "llm" in document:
        if not isinstance(document["llm"], Mapping):
            raise InputError(f"{name}: llm must be a table")
        return _parse_table(document["llm"], f"{name}: llm.")
    return _parse_table(document, f"{name}: ")


def _read_environment(environ: Mapping[str, str]) -> dict[str, tuple[Any, str]]:
    values = {}
    for key in _FROM_ENVIRONMENT:
        name = ENV_PREFIX + key.upper()
        if environ.get(name, "").strip():
            values[key] = (PARSERS[key](environ[name], name), name)
    return values


def load_config(
    config: LLMConfig | Mapping[str, Any] | str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
) -> LLMConfig | None:
    """The configuration given (an LLMConfig, a mapping like an ``[llm]`` table, or a
    TOML file), or with None the file in ``GOVMEM_LLM_CONFIG`` overridden by
    ``GOVMEM_LLM_*`` variables. None when no backend and no model is configured."""
    if isinstance(config, LLMConfig):
        return config
    environ = os.environ if environ is None else environ
    if isinstance(config, Mapping):
        table = config.get("llm", config)
        if not isinstance(table, Mapping):
            raise InputError("llm must be a table of settings")
        values = _parse_table(table, "llm." if table is not config else "")
    elif config is not None:
        values = _read_file(config)
    else:
        path = environ.get(ENV_CONFIG, "").strip()
        values = _read_file(path, f"{ENV_CONFIG}: ") if path else {}
        values |= _read_environment(environ)
    if "backend" not in values and "model" not in values:
        return None
    if "model" not in values:
        raise InputError(f"{values['backend'][1]} is set but no model is (set model or GOVMEM_LLM_MODEL)")
    if "backend" not in values:
        raise InputError(
            f"{values['model'][1]} is set but no backend is (set backend or GOVMEM_LLM_BACKEND to one "
            f"of {', '.join(BACKENDS)})"
        )
    fields = {key: value for key, (value, _) in values.items()}
    if fields.get("base_url") is None and BACKENDS[fields["backend"]].base_url is None:
        raise InputError(f"{values['backend'][1]}: backend {fields['backend']!r} needs a base_url")
    return LLMConfig(**fields)


def api_key_for(config: LLMConfig, environ: Mapping[str, str] | None = None) -> str | None:
    """The key to send: the configured one, ``api_key_env``, ``GOVMEM_LLM_API_KEY``, the vendor's variable."""
    environ = os.environ if environ is None else environ
    if config.api_key:
        return config.api_key
    if config.api_key_env:
        if not environ.get(config.api_key_env):
            raise InputError(f"api_key_env: the variable {config.api_key_env!r} is not set")
        return environ[config.api_key_env]
    backend = BACKENDS[config.backend]
    key = environ.get(ENV_PREFIX + "API_KEY") or (environ.get(backend.key_env) if backend.key_env else None)
    if backend.key_env and not key:
        raise InputError(
            f"backend {config.backend!r} needs an API key: set GOVMEM_LLM_API_KEY or {backend.key_env}"
        )
    return key or None


def load_client(
    config: LLMConfig | Mapping[str, Any] | str | os.PathLike[str] | None = None,
    *,
    cache: ResponseCache | None = None,
    transport: httpx.BaseTransport | None = None,
    sleep: Callable[[float], None] = time.sleep,
    environ: Mapping[str, str] | None = None,
) -> LLMClient | None:
    """The configured client, or None when no LLM is configured (see :func:`load_config`).

    ``cache`` keeps replies (e.g. ``SQLiteResponseCache(memory.store)``); ``transport``
    and ``sleep`` are seams for tests.
    """
    resolved = load_config(config, environ=environ)
    if resolved is None:
        return None
    backend = BACKENDS[resolved.backend]
    options: dict[str, Any] = {
        "base_url": resolved.base_url or backend.base_url,
        "api_key": api_key_for(resolved, environ),
        "timeout": resolved.timeout,
        "max_retries": resolved.max_retries,
        "schema_retries": resolved.schema_retries,
        "prices": resolved.prices,
        "cache": cache,
        "transport": transport,
        "sleep": sleep,
    }
    if backend.client is OpenAICompatible:
        options |= {
            "json_mode": resolved.json_mode,
            "strict": resolved.strict,
            "max_tokens_param": resolved.max_tokens_param,
        }
    return backend.client(resolved.model, **options)
