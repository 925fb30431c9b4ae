"""What a reader may be told about the records that replaced what they read.

A superseded record the reader could read is withheld (or, in an audit read, marked).
Naming what superseded it, or saying when and why, tells the reader that a newer
record exists; so a read names a superseding turn, its time and the signals that
found it only when the reader may read that turn whole, and may be told in turn of
whatever superseded it. Otherwise the superseded record is withheld without a word
(only the decision log has it), a superseded statement is cut with its whole sentence
rather than marked, and a conflict between the two is not reported. One exception: a
statement superseded in part by a turn whose every statement of a change the reader may
read ("arrival is now 4:20 PM instead of 4:05 PM", in a turn that also gives a code they
may not read) is marked where it stands, still naming no successor: the mark tells
them nothing they cannot read, and the rest of its sentence stays ("Tuesday, November
10, Marisol arrives 4:05 PM ... [SUPERSEDED: not current]").
"""

from __future__ import annotations

from dataclasses import replace

from govmem.governance.authorization import Authorizer
from govmem.governance.revocation.claim_supersession import deciding_sentences
from govmem.governance.revocation.review import HIDDEN_REASON, ObjectStatus
from govmem.models import Principal
from govmem.store.base import Store


class SuccessorView:
    """Whether one reader, at one time, may be told of a turn (cached per read)."""

    def __init__(self, store: Store, authorizer: Authorizer, principal: Principal, at: str):
        self.store = store
        self.authorizer = authorizer
        self.principal = principal
        self.at = at
        self._known: dict[tuple[str, str], bool] = {}
        self._changes_known: dict[tuple[str, str], bool] = {}

    def shown(self, episode_id: str, turn_id: str | None) -> bool:
        """Whether the reader may be told of a turn: they may read it whole, and it is
        served to them as it stands (anything that superseded it, whole or in part, is
        shown to them too; else naming it would point past it to a record they cannot see)."""
        if not turn_id:
            return False
        known = self._known.get((episode_id, turn_id))
        if known is None:
            self._known[(episode_id, turn_id)] = False  # a cycle of supersessions shows nothing
            known = self._readable_whole(episode_id, turn_id) and all(
                self.shown(episode_id, later) for later in self._successors(episode_id, turn_id)
            )
            self._known[(episode_id, turn_id)] = known
        return known

    def change_readable(self, episode_id: str, turn_id: str | None) -> bool:
        """Whether the reader may read every sentence of a turn that states a change
        (:func:`deciding_sentences`), and the same of every turn that superseded it in
        turn (else the change they read is cut for them, and a mark would point past it
        to one they cannot)."""
        if not turn_id:
            return False
        known = self._changes_known.get((episode_id, turn_id))
        if known is None:
            self._changes_known[(episode_id, turn_id)] = False  # a cycle shows nothing
            known = self._states_readable_changes(episode_id, turn_id) and all(
                self.change_readable(episode_id, later) for later in self._successors(episode_id, turn_id)
            )
            self._changes_known[(episode_id, turn_id)] = known
        return known

    def _states_readable_changes(self, episode_id: str, turn_id: str) -> bool:
        readable_within = getattr(self.authorizer, "readable_within", None)
        keys = self.store.turn_keys(episode_id, [turn_id])
        if readable_within is None or not keys:
            return False
        key = keys[turn_id]
        found = self.store.turn_spans([key]).get(key)
        if found is None:
            return False
        sentences = deciding_sentences(found[1])
        return bool(sentences) and readable_within(self.store, self.principal, key, sentences, self.at)

    def _readable_whole(self, episode_id: str, turn_id: str) -> bool:
        readable_turns = getattr(self.authorizer, "readable_turns", None)
        if readable_turns is None:  # an authorizer that cannot say names nothing
            return False
        keys = self.store.turn_keys(episode_id, [turn_id])
        if not keys:
            return False
        return keys[turn_id] in readable_turns(self.store, self.principal, keys.values(), self.at)

    def _successors(self, episode_id: str, turn_id: str) -> set[str | None]:
        """The turns that superseded ``turn_id`` or one of its statements by now (None: one
        since deleted)."""
        keys = self.store.turn_keys(episode_id, [turn_id])
        if not keys or not self.store.has_revocation_state():
            return set()
        key = keys[turn_id]
        later: set[str | None] = set()
        row = self.store.validity_rows([key]).get(key)
        if row is not None and row[2] is not None and row[2] <= self.at:
            later.add(row[3])
        later.update(by for _, _, by, *_ in self.store.superseded_statements([key], self.at).get(key, ()))
        return later

    def named(self, episode_id: str, turn_ids: tuple[str, ...] | list[str]) -> list[str]:
        """The turns of ``turn_ids`` the reader may be told of."""
        return [t for t in turn_ids if self.shown(episode_id, t)]

    def status(self, episode_id: str, status: ObjectStatus) -> ObjectStatus:
        """``status`` as this reader may see it: without successors they may not be told
        of, nor (when none is left) the time and signals of the supersession."""
        if not status.superseded_by:
            return status
        named = self.named(episode_id, status.superseded_by)
        if named:
            return replace(status, superseded_by=tuple(named))
        return replace(status, superseded_by=(), valid_until=None, reason=HIDDEN_REASON)
