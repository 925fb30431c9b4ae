"""The records govmem stores and returns, in the vocabulary of DESIGN.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Principal:
    """A person or agent with an identity and a role."""

    principal_id: str
    role: str
    display_name: str = ""


@dataclass(frozen=True)
class Relationship:
    """A typed edge from a principal to a subject (a principal or a resource).

    ``target_id`` is empty for a relationship to no particular subject (a role
    such as "housing staff"). ``attributes`` keeps whatever else the source said
    (scope, access level, expiry).
    """

    type: str
    principal_id: str
    target_id: str
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Turn:
    """One source record as ingested: the unit of provenance and of deletion.

    ``turn_id`` is unique within its episode. ``session_id`` groups turns into
    sessions; when absent the session deriver uses the calendar day of ``timestamp``.
    """

    turn_id: str
    speaker: str
    text: str
    episode_id: str = "default"
    timestamp: str | None = None
    kind: str = "dialogue"
    session_id: str | None = None


@dataclass(frozen=True)
class MemoryObject:
    """Anything stored for retrieval, with the source turns it derives from."""

    object_id: str
    kind: str
    text: str
    episode_id: str
    sources: tuple[str, ...]
    observed_at: str | None = None


@dataclass(frozen=True)
class StoredTurn:
    """A turn as the store holds it: the turn plus its key and resolved session."""

    turn_key: int
    turn: Turn
    session_id: str


@dataclass(frozen=True)
class ObjectDraft:
    """A memory object a deriver proposes, before the store gives it a key.

    ``embed_text`` False means the object's vector is the normalised mean of its
    source turns' vectors (verbatim designs), so a turn is embedded once however
    many objects quote it, and a long window is not truncated by the embedder.
    """

    kind: str
    group_id: str
    episode_id: str
    text: str
    source_keys: tuple[int, ...]
    observed_at: str | None
    embed_text: bool = True
