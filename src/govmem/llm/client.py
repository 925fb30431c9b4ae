"""The one interface every LLM backend offers, and the call logic they share.

>>> client = load_client()                                   # doctest: +SKIP
>>> reply = client.complete(
...     "Summarise: ...", system="You write short summaries.",
...     schema={"type": "object", "properties": {"summary": {"type": "string"}},
...             "required": ["summary"], "additionalProperties": False},
...     sources=[12, 13],                                      # turn keys in the prompt
... )
>>> reply.data["summary"], reply.cost_usd, client.usage.calls  # doctest: +SKIP

A backend supplies the wire format (``_body``, ``_headers``, ``_read``, ``_repair``);
:class:`BaseClient` does the rest: cache lookup, transport retries (through
:class:`~govmem.llm.http.JSONPoster`), retries of replies that do not match the
schema, and accounting.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from govmem.errors import InputError, LLMError
from govmem.llm.cache import ResponseCache, cache_key
from govmem.llm.http import JSONPoster
from govmem.llm.response import LLMResponse
from govmem.llm.retry import RetryPolicy
from govmem.llm.schema import check_schema, schema_problem
from govmem.llm.usage import Price, Usage

if TYPE_CHECKING:
    import httpx

Message = Mapping[str, str]
"""``{"role": "user" | "assistant" | "system", "content": text}``."""

DEFAULT_MAX_TOKENS = 1024


class LLMClient(Protocol):
    """What memory designs, interpreters and readers call."""

    model: str
    usage: Usage

    def complete(
        self,
        messages: str | Sequence[Message],
        *,
        system: str | None = None,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float = 0.0,
        sources: Sequence[int] = (),
    ) -> LLMResponse:
        """Complete a prompt (or a conversation); with ``schema``, ``data`` holds the
        validated JSON. ``sources`` are the turn keys whose text is in the prompt: the
        cached reply is forgotten with them."""
        ...

    def close(self) -> None: ...


@dataclass
class Reply:
    """What a backend read from one API reply, before validation and accounting."""

    text: str
    model: str
    input_tokens: int
    output_tokens: int
    stop_reason: str | None = None
    truncated: bool = False
    data: Any = None
    problem: str | None = None  # why structured output could not be read from the reply


def normalize_messages(
    messages: str | Sequence[Message], system: str | None
) -> tuple[str | None, list[dict[str, str]]]:
    """(system, user/assistant messages): a prompt becomes one user message, and
    ``system`` messages join the ``system`` argument."""
    if system is not None and not isinstance(system, str):
        raise InputError(f"system must be text, not {type(system).__name__}")
    if isinstance(messages, str):
        return system, [{"role": "user", "content": messages}]
    system_parts = [system] if system else []
    chat: list[dict[str, str]] = []
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise InputError(f"message {index} is not a mapping with 'role' and 'content'")
        role, content = message.get("role"), message.get("content")
        if not isinstance(content, str):
            raise InputError(f"message {index}: content must be text, not {type(content).__name__}")
        if role == "system":
            system_parts.append(content)
        elif role in ("user", "assistant"):
            chat.append({"role": role, "content": content})
        else:
            raise InputError(f"message {index}: role {role!r} is not 'user', 'assistant' or 'system'")
    if not chat:
        raise InputError("no user or assistant message to complete")
    return "\n\n".join(system_parts) or None, chat


def source_keys(sources: Sequence[int]) -> tuple[int, ...]:
    if isinstance(sources, str | bytes):
        raise InputError("sources must be turn keys (integers), not text")
    keys = set()
    for source in sources:
        if isinstance(source, bool) or not isinstance(source, int):
            raise InputError(f"source {source!r} is not a turn key (an integer)")
        keys.add(source)
    return tuple(sorted(keys))


class BaseClient:
    """Shared call logic; subclasses speak one API."""

    backend: ClassVar[str]
    path: ClassVar[str]

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 3,
        schema_retries: int = 2,
        prices: Mapping[str, Price] | None = None,
        cache: ResponseCache | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ):
        if not model or not isinstance(model, str):
            raise InputError("an LLM client needs a model name")
        if max_retries < 0 or schema_retries < 0:
            raise InputError("max_retries and schema_retries must be 0 or more")
        if timeout <= 0:
            raise InputError(f"timeout must be positive, not {timeout!r}")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.schema_retries = schema_retries
        self.prices = dict(prices or {})
        self.cache = cache
        self.usage = Usage()
        self._poster = JSONPoster(
            self.base_url,
            label=self.label,
            timeout=timeout,
            retry=RetryPolicy(max_retries=max_retries),
            usage=self.usage,
            transport=transport,
            sleep=sleep,
            rng=rng,
        )

    @property
    def label(self) -> str:
        """How errors name this client (never with the key)."""
        return f"{self.backend} {self.model}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    def __enter__(self) -> BaseClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._poster.close()

    def complete(
        self,
        messages: str | Sequence[Message],
        *,
        system: str | None = None,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float = 0.0,
        sources: Sequence[int] = (),
    ) -> LLMResponse:
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
            raise InputError(f"max_tokens must be a positive integer, not {max_tokens!r}")
        if isinstance(temperature, bool) or not isinstance(temperature, int | float) or temperature < 0:
            raise InputError(f"temperature must be a number >= 0, not {temperature!r}")
        system, chat = normalize_messages(messages, system)
        if schema is not None:
            check_schema(schema)
        turns = source_keys(sources)
        key = None
        if self.cache is not None:
            key = cache_key(self.cache_request(system, chat, schema, max_tokens, temperature))
            hit = self.cache.get(key)
            if hit is not None:
                self.usage.add_cache_hit()
                return hit
        response = self._call(system, chat, schema, max_tokens, temperature)
        if key is not None and self.cache is not None:
            self.cache.put(key, response, turns)
        return response

    def cache_request(
        self,
        system: str | None,
        chat: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int,
        temperature: float,
    ) -> dict[str, Any]:
        """Everything that shapes the reply: what the cache key is the hash of."""
        return {
            "backend": self.backend,
            "base_url": self.base_url,
            "model": self.model,
            "system": system,
            "messages": chat,
            "schema": schema,
            "max_tokens": max_tokens,
            "temperature": float(temperature),
            "options": self._output_options(),
        }

    def _call(
        self,
        system: str | None,
        chat: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int,
        temperature: float,
    ) -> LLMResponse:
        body = self._body(system, chat, schema, max_tokens, temperature)
        attempts = 1 + (self.schema_retries if schema is not None else 0)
        problem = ""
        for _ in range(attempts):
            payload = self._poster.post(self.path, body, self._headers())
            reply = self._read(payload, schema)
            response = self._account(reply)
            if schema is None:
                return response
            problem = reply.problem or schema_problem(reply.data, schema) or ""
            if not problem:
                return response
            if reply.truncated:
                problem += f" (the reply stopped at max_tokens={max_tokens})"
            body = self._repair(body, payload, reply, problem)
        raise LLMError(
            f"{self.label}: the reply does not match the schema after {attempts} attempts: {problem}"
        )

    def _account(self, reply: Reply) -> LLMResponse:
        model = reply.model or self.model
        price = self.prices.get(model) or self.prices.get(self.model)
        cost = price.cost(reply.input_tokens, reply.output_tokens) if price else None
        self.usage.add_reply(model, reply.input_tokens, reply.output_tokens, cost)
        return LLMResponse(
            text=reply.text,
            data=reply.data,
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            cost_usd=cost or 0.0,
            model=model,
            stop_reason=reply.stop_reason,
            priced=price is not None,
        )

    # the wire format, one API per subclass

    def _output_options(self) -> dict[str, Any]:
        """Backend settings that change the reply (part of the cache key)."""
        return {}

    def _headers(self) -> dict[str, str]:
        raise NotImplementedError

    def _body(
        self,
        system: str | None,
        chat: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int,
        temperature: float,
    ) -> dict[str, Any]:
        raise NotImplementedError

    def _read(self, payload: dict[str, Any], schema: Mapping[str, Any] | None) -> Reply:
        raise NotImplementedError

    def _repair(
        self, body: dict[str, Any], payload: dict[str, Any], reply: Reply, problem: str
    ) -> dict[str, Any]:
        """The next request after a reply that did not match the schema."""
        return body


def token_count(usage: Any, name: str) -> int:
    value = usage.get(name) if isinstance(usage, Mapping) else None
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0
