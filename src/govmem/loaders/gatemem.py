"""Read GateMem-format episodes: principals, relationships and turns.

The format (one episode per line) is described in the GateMem data's README.
Hidden checkpoint labels live in a separate file and are never read here.
Every problem is reported as file, line and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from govmem.errors import InputError, LoadError
from govmem.loaders.jsonl import iter_records
from govmem.models import Principal, Relationship, Turn
from govmem.validation import as_turn

ACTOR_KEYS = ("principal_id", "clinician_id", "family_id")
TARGET_KEYS = (
    "patient_id",
    "for_principal_id",
    "manages",
    "guest_id",
    "host_principal_id",
    "related_principal_id",
    "project_id",
    "program_id",
    "course_id",
    "case_id",
    "building_id",
    "household_id",
    "for_household_id",
)


@dataclass
class Episode:
    episode_id: str
    domain: str | None
    principals: list[Principal] = field(default_factory=list)
    relationships: list[Relationship] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)


def relationship_from(record: Mapping[str, Any]) -> Relationship:
    """A relationship from GateMem's typed dicts (``clinician_id``/``patient_id``, ...).

    The actor is the first of :data:`ACTOR_KEYS`, the target the first of
    :data:`TARGET_KEYS` (empty when there is none, as for "housing staff" in
    general); the whole record is kept as attributes.
    """
    kind = record.get("type")
    if not isinstance(kind, str) or not kind:
        raise InputError("relationship without a 'type'")
    actor = next((record[k] for k in ACTOR_KEYS if isinstance(record.get(k), str)), None)
    target = next((record[k] for k in TARGET_KEYS if isinstance(record.get(k), str)), None)
    if actor is None:
        raise InputError(f"relationship {kind!r} names no principal")
    attributes = {k: v for k, v in record.items() if k != "type"}
    return Relationship(kind, actor, target or "", attributes)


def episode_from(record: Any) -> Episode:
    if not isinstance(record, dict):
        raise InputError(f"expected a JSON object, got {type(record).__name__}")
    episode_id = record.get("episode_id")
    if not isinstance(episode_id, str) or not episode_id:
        raise InputError("missing 'episode_id'")
    entities = record.get("entities")
    if not isinstance(entities, dict) or not isinstance(entities.get("principals"), list):
        raise InputError(f"episode {episode_id!r}: missing 'entities.principals'")
    episode = Episode(episode_id, record.get("domain"))
    for i, p in enumerate(entities["principals"]):
        if not isinstance(p, dict) or not p.get("principal_id") or not p.get("role"):
            raise InputError(f"episode {episode_id!r}: principal #{i + 1} needs 'principal_id' and 'role'")
        episode.principals.append(Principal(p["principal_id"], p["role"], p.get("display_name", "")))
    known = {p.principal_id for p in episode.principals}
    for r in entities.get("relationships") or []:
        relationship = relationship_from(r if isinstance(r, dict) else {})
        if relationship.principal_id not in known:
            raise InputError(
                f"episode {episode_id!r}: relationship {relationship.type!r} names unknown "
                f"principal {relationship.principal_id!r}"
            )
        episode.relationships.append(relationship)
    turns = record.get("turns")
    if not isinstance(turns, list):
        raise InputError(f"episode {episode_id!r}: missing 'turns'")
    seen: set[str] = set()
    for raw in turns:
        turn = as_turn(raw, episode_id=episode_id)
        if turn.speaker not in known:
            raise InputError(
                f"episode {episode_id!r}: turn {turn.turn_id!r} has unknown speaker {turn.speaker!r}"
            )
        if turn.turn_id in seen:
            raise InputError(f"episode {episode_id!r}: duplicate turn id {turn.turn_id!r}")
        seen.add(turn.turn_id)
        episode.turns.append(turn)
    return episode


def iter_episodes(path: str | Path) -> Iterator[Episode]:
    """Episodes of a GateMem ``episodes.jsonl``; raises :class:`LoadError` at the first bad line."""
    episode_ids: set[str] = set()
    for number, record in iter_records(path):
        try:
            episode = episode_from(record)
        except InputError as exc:
            raise LoadError(str(path), number, str(exc)) from None
        if episode.episode_id in episode_ids:
            raise LoadError(str(path), number, f"duplicate episode id {episode.episode_id!r}")
        episode_ids.add(episode.episode_id)
        yield episode


def read_episodes(path: str | Path) -> list[Episode]:
    return list(iter_episodes(path))
