"""Backend for ``POST {base_url}/chat/completions``: OpenAI, vLLM, Ollama (/v1),
llama.cpp server, LM Studio.

Structured output, by ``json_mode``:

- ``"schema"`` (default): ``response_format`` of type ``json_schema`` (strict
  unless ``strict=False``); the server enforces the schema.
- ``"object"``: ``response_format={"type": "json_object"}`` and the schema in the
  system prompt, for servers with JSON mode but no schema support.
- ``"prompt"``: the schema in the system prompt only.

Replies are validated against the schema here in every mode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from govmem.errors import InputError, LLMError
from govmem.llm.client import BaseClient, Reply, token_count
from govmem.llm.schema import parse_json, schema_instruction, schema_name

OPENAI_BASE_URL = "https://api.openai.com/v1"
JSON_MODES = ("schema", "object", "prompt")


class OpenAICompatible(BaseClient):
    """A chat-completions API. ``max_tokens_param="max_completion_tokens"`` for
    OpenAI models that refuse ``max_tokens``."""

    backend = "openai-compatible"
    path = "/chat/completions"

    def __init__(
        self,
        model: str,
        *,
        base_url: str = OPENAI_BASE_URL,
        api_key: str | None = None,
        json_mode: str = "schema",
        strict: bool = True,
        max_tokens_param: str = "max_tokens",
        **options: Any,
    ):
        if json_mode not in JSON_MODES:
            raise InputError(f"json_mode {json_mode!r} is not one of {', '.join(JSON_MODES)}")
        self.json_mode = json_mode
        self.strict = strict
        self.max_tokens_param = max_tokens_param
        super().__init__(model, base_url=base_url, api_key=api_key, **options)

    def _output_options(self) -> dict[str, Any]:
        return {"json_mode": self.json_mode, "strict": self.strict}

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _body(
        self,
        system: str | None,
        chat: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int,
        temperature: float,
    ) -> dict[str, Any]:
        if schema is not None and self.json_mode != "schema":
            system = "\n\n".join(part for part in (system, schema_instruction(schema)) if part)
        messages = [{"role": "system", "content": system}] if system else []
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [*messages, *chat],
            self.max_tokens_param: max_tokens,
            "temperature": temperature,
        }
        if schema is not None and self.json_mode == "schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name(schema), "schema": dict(schema), "strict": self.strict},
            }
        elif schema is not None and self.json_mode == "object":
            body["response_format"] = {"type": "json_object"}
        return body

    def _read(self, payload: dict[str, Any], schema: Mapping[str, Any] | None) -> Reply:
        choices = payload.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
            raise LLMError(f"{self.label}: the reply has no choices")
        choice = choices[0]
        message = choice.get("message") if isinstance(choice.get("message"), Mapping) else {}
        if message.get("refusal"):
            raise LLMError(f"{self.label}: the model refused: {message['refusal']}")
        usage = payload.get("usage")
        finish = choice.get("finish_reason")
        reply = Reply(
            text=_content_text(message.get("content")),
            model=str(payload.get("model") or self.model),
            input_tokens=token_count(usage, "prompt_tokens"),
            output_tokens=token_count(usage, "completion_tokens"),
            stop_reason=finish,
            truncated=finish == "length",
        )
        if schema is not None:
            reply.data, reply.problem = parse_json(reply.text)
        return reply

    def _repair(
        self, body: dict[str, Any], payload: dict[str, Any], reply: Reply, problem: str
    ) -> dict[str, Any]:
        feedback = f"That reply is not valid: {problem}. Reply again with only the corrected JSON."
        messages = [
            *body["messages"],
            {"role": "assistant", "content": reply.text},
            {"role": "user", "content": feedback},
        ]
        return {**body, "messages": messages}


def _content_text(content: Any) -> str:
    """Message content as text: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, Mapping) and part.get("type") == "text"
        )
    return ""
