"""A household store with its people and what they said: the shared set-up of the
household tests (own words, confirmations, collective questions, visits)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from govmem import Memory, Turn
from govmem.models import Principal, Relationship


def household(
    people: Mapping[str, tuple[str, str]],
    said: Sequence[tuple[str, str]],
    at: str,
    relationships: Sequence[Relationship] = (),
) -> Memory:
    """A fresh household store: ``people`` maps id -> (role, display name); ``said`` is
    (speaker, text) pairs, ingested in one call as turns t0, t1, ... at ``at``."""
    memory = Memory(":memory:", policy="household")
    memory.add_principals(Principal(p, role, name) for p, (role, name) in people.items())
    if relationships:
        memory.add_relationships(relationships)
    memory.ingest_many([Turn(f"t{i}", speaker, text, timestamp=at) for i, (speaker, text) in enumerate(said)])
    return memory
