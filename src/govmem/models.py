"""The records govmem stores and returns, in the vocabulary of DESIGN.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


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
    valid_from: str | None = None
    valid_until: str | None = None

    def active_at(self, moment: str) -> bool:
        return (self.valid_from is None or self.valid_from <= moment) and (
            self.valid_until is None or moment < self.valid_until
        )


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
    group_id: str = ""
    label_key: int | None = None
    source_keys: tuple[int, ...] = ()

    @property
    def key(self) -> int:
        return int(self.object_id.rsplit("-", 1)[1])


class StoredTurn(NamedTuple):
    """A turn as the store holds it: the turn plus its key and resolved session
    (a tuple: ingest makes one per turn)."""

    turn_key: int
    turn: Turn
    session_id: str
    label_key: int | None = None


class ObjectDraft(NamedTuple):
    """A memory object a deriver proposes, before the store gives it a key.

    ``embed_text`` False means the object's vector is the normalised mean of its
    source turns' vectors (verbatim designs), so a turn is embedded once however
    many objects quote it, and a long window is not truncated by the embedder.
    A tuple rather than a frozen dataclass: ingest makes one per turn and design,
    and a frozen dataclass costs five times as much to make.
    """

    kind: str
    group_id: str
    episode_id: str
    text: str
    source_keys: tuple[int, ...]
    observed_at: str | None
    embed_text: bool = True


@dataclass(frozen=True)
class Grant:
    """A permission for ``grantee`` over ``subject_id``'s information on ``tags``.

    Valid from ``valid_from`` (inclusive) until ``valid_until`` (exclusive); None
    is open-ended. Consent is a grant whose grantor is the subject.
    """

    grantor: str
    grantee: str
    subject_id: str
    tags: tuple[str, ...]
    valid_from: str | None = None
    valid_until: str | None = None
    revocable: bool = True
    revoked_at: str | None = None
    grant_id: int | None = None

    @property
    def is_consent(self) -> bool:
        return self.grantor == self.subject_id

    def active_at(self, moment: str) -> bool:
        return (
            (self.valid_from is None or self.valid_from <= moment)
            and (self.valid_until is None or moment < self.valid_until)
            and (self.revoked_at is None or moment < self.revoked_at)
        )
