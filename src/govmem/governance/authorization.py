"""The authorization seam of the read path.

Recall asks the authorizer twice: for a :class:`Scope` before any ranking (so top-k
is taken over permitted objects only and utility does not starve), and again on
the objects about to be returned. The policy engine implements this protocol;
until it does, :class:`OpenAccess` serves everything to everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from govmem.models import MemoryObject, Principal
from govmem.store.base import Store


@dataclass(frozen=True)
class Scope:
    """The objects a requester may have ranked: ``allowed`` keys, or all when None."""

    allowed: frozenset[int] | None = None
    reasons: tuple[str, ...] = ()


class Authorizer(Protocol):
    def scope(self, store: Store, requester: Principal, as_of: str | None) -> Scope: ...

    def permits(
        self, store: Store, requester: Principal, objects: Sequence[MemoryObject], as_of: str | None
    ) -> list[bool]: ...


class OpenAccess:
    """No policy: every principal may read every object."""

    rule = "open-access: no policy configured"

    def scope(self, store: Store, requester: Principal, as_of: str | None) -> Scope:
        return Scope(allowed=None, reasons=(self.rule,))

    def permits(
        self, store: Store, requester: Principal, objects: Sequence[MemoryObject], as_of: str | None
    ) -> list[bool]:
        return [True] * len(objects)
