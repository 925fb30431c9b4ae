"""The deriver interface every memory design implements.

A deriver partitions turns into groups (one turn, one session, one principal's
profile, ...) and derives a group's memory objects from the group's surviving
turns alone. That one rule gives closure for free: when turns are added or
deleted, the api re-derives only the affected groups and replaces the objects
whose text or sources changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from govmem.models import ObjectDraft, StoredTurn
from govmem.store.base import Store


class Deriver(Protocol):
    kind: str
    verbatim: bool
    """True when objects are rendered from their source texts alone (turns, session
    windows), so a redacted object is the same design derived from the readable
    parts of its sources. Other designs' objects are withheld whole instead."""

    def groups_of(self, turns: Iterable[StoredTurn]) -> set[str]:
        """The groups these turns belong to."""
        ...

    def members(
        self, store: Store, group_ids: set[str], known: Mapping[int, StoredTurn]
    ) -> dict[str, list[StoredTurn]]:
        """Every stored turn of each group, in ingest order.

        ``known`` holds turns the caller has at hand, to spare a read.
        """
        ...

    def derive(self, group_id: str, turns: Sequence[StoredTurn]) -> list[ObjectDraft]:
        """The group's objects; an empty group derives nothing."""
        ...


def latest_timestamp(turns: Iterable[StoredTurn]) -> str | None:
    stamps = [t.turn.timestamp for t in turns if t.turn.timestamp]
    return max(stamps) if stamps else None
