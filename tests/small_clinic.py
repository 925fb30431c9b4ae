"""The small clinic several governance tests share: six people, two care relationships."""

from __future__ import annotations

from collections.abc import Sequence

from govmem import Memory, Principal, Turn
from govmem.governance.authorization import Authorizer

CAST = [
    Principal("ada", "patient", "Ada Moreno"),
    Principal("ben", "patient", "Ben Okafor"),
    Principal("lee", "clinician", "Dr. Lee"),
    Principal("rex", "reception", "Rex Hall"),
    Principal("fay", "family_member", "Fay Lind"),
    Principal("kit", "visitor", "Kit Brown"),
]


def small_clinic(
    turns: Sequence[Turn],
    *,
    also: Sequence[Principal] = (),
    lee_treats_ben: bool = False,
    authorizer: Authorizer | None = None,
    designs: Sequence[str] | None = None,
) -> Memory:
    """A medical-pack store: Dr. Lee treats Ada (and Ben if asked), Fay is Ada's family for scheduling."""
    memory = Memory(":memory:", policy="medical", authorizer=authorizer, designs=designs)
    memory.add_principals([*CAST, *also])
    memory.add_relationship("assigned_clinician", "lee", "ada")
    if lee_treats_ben:
        memory.add_relationship("assigned_clinician", "lee", "ben")
    memory.add_relationship("family_member", "fay", "ada", access_level="scheduling only")
    memory.ingest_many(turns)
    return memory
