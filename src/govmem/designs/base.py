"""The deriver interface every memory design implements.

A deriver partitions turns into groups (one turn, one session, one principal's
profile, ...) and derives a group's memory objects from the group's surviving
turns alone. That one rule gives closure for free: when turns are added or
deleted, the api re-derives only the affected groups and replaces the objects
whose text or sources changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from govmem.models import ObjectDraft, StoredTurn
from govmem.store.base import Store

V = TypeVar("V")


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


def group_id_of(prefix: str, *parts: str) -> str:
    """A group id ``prefix/`` plus length-prefixed parts, so any characters round-trip.

    >>> group_id_of("day", "ep-1", "2026-03-09")
    'day/4:ep-110:2026-03-09'
    """
    return prefix + "/" + "".join(f"{len(p)}:{p}" for p in parts)


def parts_of(group_id: str) -> tuple[str, list[str]]:
    """The prefix and parts of a :func:`group_id_of` id."""
    prefix, rest = group_id.split("/", 1)
    parts = []
    while rest:
        length, rest = rest.split(":", 1)
        parts.append(rest[: int(length)])
        rest = rest[int(length) :]
    return prefix, parts


class ProvenanceMembers:
    """The members of groups the store cannot select by a column (a day, a
    principal's month, a fact's subject and attribute).

    A group's members are the sources of the group's stored objects plus the
    turns at hand that belong to it. That holds when a design makes every member
    a source of one of its group's objects, and re-derives the group whenever a
    member is added (the api does).

    Such groups interleave (a principal's month, a subject's attribute), so one
    ingest call could derive a group in one batch and again in a later one; the
    api assumes it does not (it skips looking up the objects of a group whose
    turns are all new to the call), and the first batch's object would stay
    behind, stating an outdated value. So :meth:`groups_of` notes, per group,
    the keys of the turns it saw, and returns with the turns' own groups every
    group noted and not derived since. The api's deferral of a batch's last
    groups (``groups_of(stored[-1:])``) then defers them all to the call's last
    batch, where each is derived once. :meth:`members` takes the notes of the
    groups it is asked for and reads those turns back. Notes are only hints:
    every candidate is read from the store (a rolled-back turn is gone) and kept
    only if ``groups_of_turn`` puts it in the group; deriving a group noted in
    vain derives nothing.
    """

    def __init__(self, kind: str, groups_of_turn: Callable[[StoredTurn], Iterable[str]]):
        self.kind = kind
        self.groups_of_turn = groups_of_turn
        self._noted: dict[str, set[int]] = {}
        self._served: dict[str, set[int]] = {}

    def groups_of(self, turns: Iterable[StoredTurn]) -> set[str]:
        groups: set[str] = set()
        for turn in turns:
            for group in self.groups_of_turn(turn):
                self._noted.setdefault(group, set()).add(turn.turn_key)
                groups.add(group)
        return groups | self._noted.keys()

    def members(
        self, store: Store, group_ids: set[str], known: Mapping[int, StoredTurn]
    ) -> dict[str, list[StoredTurn]]:
        candidates: set[int] = set()
        for group in group_ids:
            candidates.update(self._noted.pop(group, ()))
        if group_ids:
            for _, _, _, sources in store.objects_in_groups(self.kind, sorted(group_ids)):
                candidates.update(sources)
        missing = candidates - known.keys()
        loaded = store.turns_by_keys(sorted(missing)) if missing else []
        groups: dict[str, list[StoredTurn]] = {g: [] for g in sorted(group_ids)}
        for turn in [*known.values(), *loaded]:
            for group in self.groups_of_turn(turn):
                if group in groups:
                    groups[group].append(turn)
        for group, turns in groups.items():
            turns.sort(key=lambda t: t.turn_key)
            self._served[group] = {t.turn_key for t in turns}
        return groups

    def dropped(self, group_id: str, survivors: Sequence[StoredTurn]) -> set[int]:
        """Keys of the turns :meth:`members` gave for ``group_id`` that the api then left out
        of ``survivors``: turns being deleted, whose memoised results must go too."""
        return self._served.pop(group_id, set()) - {t.turn_key for t in survivors}


class TurnMemo(Generic[V]):
    """A value computed from a turn (its facts, its vector), memoised by turn key.

    An entry is used only while the turn's content is unchanged (a fingerprint,
    not the text, is kept), and :meth:`forget` drops a deleted turn's entry, so
    nothing derived from a forgotten turn outlives it in memory. ``size`` bounds
    the entries (all are dropped when it is reached).
    """

    def __init__(self, size: int = 65536):
        self.size = size
        self._entries: dict[int, tuple[int, V]] = {}

    @staticmethod
    def _fingerprint(turn: StoredTurn) -> int:
        t = turn.turn
        return hash((t.episode_id, t.speaker, t.text, t.timestamp))

    def get(self, turn: StoredTurn) -> V | None:
        entry = self._entries.get(turn.turn_key)
        return entry[1] if entry is not None and entry[0] == self._fingerprint(turn) else None

    def put(self, turn: StoredTurn, value: V) -> V:
        if len(self._entries) >= self.size:
            self._entries.clear()
        self._entries[turn.turn_key] = (self._fingerprint(turn), value)
        return value

    def forget(self, keys: Iterable[int]) -> None:
        for key in keys:
            self._entries.pop(key, None)
