"""Backend for Anthropic's ``POST {base_url}/v1/messages``.

Structured output is one forced tool: the schema is the tool's ``input_schema``,
``tool_choice`` names it, and the reply's ``tool_use`` block carries the JSON.
Tool inputs must be objects, so any other schema is wrapped as ``{"value": ...}``
on the way out and unwrapped on the way back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from govmem.llm.client import BaseClient, Reply, token_count
from govmem.llm.schema import schema_name

ANTHROPIC_BASE_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
_TOOL_DESCRIPTION = "Give the answer in this structure."


class Anthropic(BaseClient):
    """The Messages API."""

    backend = "anthropic"
    path = "/v1/messages"

    def __init__(
        self,
        model: str,
        *,
        base_url: str = ANTHROPIC_BASE_URL,
        api_key: str | None = None,
        version: str = ANTHROPIC_VERSION,
        **options: Any,
    ):
        self.version = version
        super().__init__(model, base_url=base_url, api_key=api_key, **options)

    def _output_options(self) -> dict[str, Any]:
        return {"version": self.version}

    def _headers(self) -> dict[str, str]:
        headers = {"anthropic-version": self.version}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        return headers

    def _body(
        self,
        system: str | None,
        chat: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int,
        temperature: float,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens,
            "messages": chat,
            "temperature": temperature,
        }
        if system:
            body["system"] = system
        if schema is not None:
            name = schema_name(schema, "record_answer")
            body["tools"] = [
                {"name": name, "description": _TOOL_DESCRIPTION, "input_schema": _as_object(schema)}
            ]
            body["tool_choice"] = {"type": "tool", "name": name}
        return body

    def _read(self, payload: dict[str, Any], schema: Mapping[str, Any] | None) -> Reply:
        content = [block for block in payload.get("content") or [] if isinstance(block, Mapping)]
        usage = payload.get("usage")
        stop = payload.get("stop_reason")
        reply = Reply(
            text="".join(str(block.get("text", "")) for block in content if block.get("type") == "text"),
            model=str(payload.get("model") or self.model),
            input_tokens=token_count(usage, "input_tokens"),
            output_tokens=token_count(usage, "output_tokens"),
            stop_reason=stop,
            truncated=stop == "max_tokens",
        )
        if schema is not None:
            tool = _tool_use(content)
            if tool is None:
                reply.problem = "the reply has no tool_use block"
                return reply
            data = tool.get("input")
            if _wrapped(schema):
                if not isinstance(data, Mapping) or "value" not in data:
                    reply.problem = "the tool input has no 'value'"
                    return reply
                data = data["value"]
            reply.data = data
            reply.text = json.dumps(data, ensure_ascii=False)
        return reply

    def _repair(
        self, body: dict[str, Any], payload: dict[str, Any], reply: Reply, problem: str
    ) -> dict[str, Any]:
        tool = _tool_use(payload.get("content") or [])
        if tool is None or "id" not in tool:
            return body
        result = {
            "type": "tool_result",
            "tool_use_id": tool["id"],
            "is_error": True,
            "content": f"Invalid input: {problem}. Call {tool.get('name')} again with input that "
            "matches its schema.",
        }
        messages = [
            *body["messages"],
            {"role": "assistant", "content": payload["content"]},
            {"role": "user", "content": [result]},
        ]
        return {**body, "messages": messages}


def _tool_use(content: list[Any]) -> Mapping[str, Any] | None:
    return next((b for b in content if isinstance(b, Mapping) and b.get("type") == "tool_use"), None)


def _wrapped(schema: Mapping[str, Any]) -> bool:
    return schema.get("type") != "object"


def _as_object(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` itself when it describes an object, else an object with one ``value``."""
    if not _wrapped(schema):
        return dict(schema)
    inner = {key: value for key, value in schema.items() if key not in ("$defs", "$schema")}
    wrapped: dict[str, Any] = {"type": "object", "properties": {"value": inner}, "required": ["value"]}
    if "$defs" in schema:
        wrapped["$defs"] = schema["$defs"]
    return wrapped
