"""Structured output: check a JSON schema, read JSON from a reply, validate it.

Validation uses ``jsonschema`` (the ``llm`` extra), imported only when a call
gives a schema.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from govmem.errors import InputError, LLMError

_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n(.*?)\n?```$", re.DOTALL)


def _validator_class(schema: Mapping[str, Any]) -> Any:
    try:
        import jsonschema
    except ImportError as exc:
        raise LLMError("structured output needs jsonschema: pip install 'govmem[llm]'") from exc
    return jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)


def check_schema(schema: Mapping[str, Any]) -> None:
    """Raise InputError naming the problem when ``schema`` is not a valid JSON schema."""
    if not isinstance(schema, Mapping):
        raise InputError(f"schema must be a JSON schema object, not {type(schema).__name__}")
    validator = _validator_class(schema)
    import jsonschema

    try:
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise InputError(f"invalid JSON schema: {exc.message} at {exc.json_path}") from None


def schema_problem(data: Any, schema: Mapping[str, Any]) -> str | None:
    """Why ``data`` does not validate against ``schema`` (the most relevant error), or None."""
    validator = _validator_class(schema)
    import jsonschema

    errors = validator(schema).iter_errors(data)
    error = jsonschema.exceptions.best_match(errors)
    if error is None:
        return None
    return f"{error.message} at {error.json_path}"


def parse_json(text: str) -> tuple[Any, str | None]:
    """(value, None) when ``text`` is JSON, maybe in a Markdown code fence; else (None, problem)."""
    stripped = text.strip()
    if match := _FENCE.match(stripped):
        stripped = match.group(1).strip()
    if not stripped:
        return None, "the reply is empty, not JSON"
    try:
        return json.loads(stripped), None
    except json.JSONDecodeError as exc:
        return None, f"the reply is not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"


def schema_instruction(schema: Mapping[str, Any]) -> str:
    """The instruction that carries the schema when the backend cannot enforce it."""
    return (
        "Reply with one JSON value and nothing else. It must validate against this JSON Schema:\n"
        + json.dumps(schema, ensure_ascii=False)
    )


def schema_name(schema: Mapping[str, Any], default: str = "response") -> str:
    """A tool or format name from the schema's title (letters, digits, ``_``, ``-``; at most 64)."""
    title = schema.get("title")
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", title).strip("_")[:64] if isinstance(title, str) else ""
    return name or default
