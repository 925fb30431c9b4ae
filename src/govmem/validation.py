"""Validation of turns arriving from callers and files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from govmem.errors import InputError
from govmem.models import Turn
from govmem.timestamps import normalize_timestamp

MAX_TURN_CHARS = 100_000


def _well_formed(turn: Turn) -> bool:
    """The common case, checked without copying the turn's fields."""
    text, turn_id, speaker = turn.text, turn.turn_id, turn.speaker
    return (
        text.__class__ is str
        and turn_id.__class__ is str
        and speaker.__class__ is str
        and turn.episode_id.__class__ is str
        and turn.kind.__class__ is str
        and (turn.session_id is None or turn.session_id.__class__ is str)
        and 0 < len(text) <= MAX_TURN_CHARS
        and not text.isspace()
        and turn_id.strip() != ""
        and speaker.strip() != ""
        and turn.episode_id != ""
        and turn.kind != ""
    )


def as_turn(value: Turn | Mapping[str, Any], episode_id: str | None = None) -> Turn:
    """A validated turn from a :class:`Turn` or a mapping (flat or GateMem-shaped)."""
    if type(value) is Turn and episode_id is None and _well_formed(value):
        timestamp = _timestamp_of(value.turn_id, value.timestamp)
        if timestamp == value.timestamp:
            return value
        return Turn(
            value.turn_id,
            value.speaker,
            value.text,
            value.episode_id,
            timestamp,
            value.kind,
            value.session_id,
        )
    if isinstance(value, Turn):
        fields = dict(vars(value))
    elif isinstance(value, Mapping):
        speaker = value.get("speaker")
        if isinstance(speaker, Mapping):
            speaker = speaker.get("principal_id")
        fields = {
            "turn_id": value.get("turn_id"),
            "speaker": speaker,
            "text": value.get("text"),
            "episode_id": value.get("episode_id") or episode_id or "default",
            "timestamp": value.get("timestamp"),
            "kind": value.get("kind") or value.get("turn_kind") or "dialogue",
            "session_id": value.get("session_id"),
        }
    else:
        raise InputError(f"a turn must be a Turn or a mapping, not {type(value).__name__}")
    if episode_id is not None:
        fields["episode_id"] = episode_id
    for name in ("turn_id", "speaker", "text"):
        if not isinstance(fields[name], str) or not fields[name].strip():
            label = fields["turn_id"] if isinstance(fields["turn_id"], str) else "?"
            raise InputError(f"turn {label!r}: missing or empty {name!r}")
    for name in ("episode_id", "kind"):
        if not isinstance(fields[name], str) or not fields[name]:
            raise InputError(f"turn {fields['turn_id']!r}: {name!r} must be a non-empty string")
    if fields["session_id"] is not None and not isinstance(fields["session_id"], str):
        raise InputError(f"turn {fields['turn_id']!r}: 'session_id' must be a string")
    if len(fields["text"]) > MAX_TURN_CHARS:
        raise InputError(
            f"turn {fields['turn_id']!r}: text is {len(fields['text'])} characters; "
            f"the limit is {MAX_TURN_CHARS}"
        )
    fields["timestamp"] = _timestamp_of(fields["turn_id"], fields["timestamp"])
    if isinstance(value, Turn) and fields == vars(value):
        return value
    return Turn(**fields)


def _timestamp_of(turn_id: str, timestamp: Any) -> str | None:
    try:
        return normalize_timestamp(timestamp)
    except InputError as exc:
        raise InputError(f"turn {turn_id!r}: {exc}") from None
