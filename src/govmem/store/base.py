"""The storage interface every engine implements.

The store is the single source of truth: principals, relationships, source turns,
memory objects with their provenance, and their vectors. Everything in memory
(the dense index, caches) can be rebuilt from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

import numpy as np

from govmem.models import MemoryObject, ObjectDraft, Principal, Relationship, StoredTurn, Turn


class Store(Protocol):
    """What the api, read path and designs need from a storage engine."""

    def transaction(self) -> AbstractContextManager[object]: ...

    def snapshot(self) -> AbstractContextManager[object]:
        """A consistent view across the statements of one read."""
        ...

    def close(self) -> None: ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def changed_elsewhere(self) -> bool:
        """True when another connection committed since the last call."""
        ...

    # governance state
    def put_principals(self, principals: Sequence[Principal]) -> None: ...

    def get_principal(self, principal_id: str) -> Principal | None: ...

    def principals(self) -> list[Principal]: ...

    def put_relationships(self, relationships: Sequence[Relationship]) -> None: ...

    def relationships(self, principal_id: str | None = None) -> list[Relationship]: ...

    # source turns
    def insert_turns(self, turns: Sequence[Turn], session_ids: Sequence[str]) -> list[StoredTurn]: ...

    def turn_keys(self, episode_id: str, turn_ids: Sequence[str]) -> dict[str, int]: ...

    def turns_by_keys(self, keys: Iterable[int]) -> list[StoredTurn]: ...

    def turn_keys_in_sessions(self, sessions: Iterable[tuple[str, str]]) -> list[int]: ...

    def episode_turns(self, episode_id: str) -> list[StoredTurn]:
        """Every turn of one episode, in ingest order."""
        ...

    def delete_turns(self, keys: Sequence[int]) -> None:
        """Delete turns and, in the same transaction, the cached LLM replies drawn from them."""
        ...

    def add_deleted_turns(self, rows: Iterable[tuple[str, str, str]], at: str) -> None:
        """Remember deleted turns as (episode, turn id, sha256 of the text): a replay stays out."""
        ...

    def deleted_turns(self, episode_id: str, turn_ids: Sequence[str]) -> dict[str, str]: ...

    # LLM response cache
    def cache_get(self, cache_key: str) -> str | None: ...

    def cache_put(self, cache_key: str, response: str, sources: Iterable[int], created_at: str) -> bool:
        """Cache a reply with its source turns; False, storing nothing, if one is already gone."""
        ...

    def cache_forget_sources(self, turn_keys: Iterable[int]) -> int: ...

    # memory objects
    def insert_objects(
        self, drafts: Sequence[ObjectDraft], vectors: np.ndarray, labels: Sequence[int | None] | None = None
    ) -> list[int]: ...

    def objects_in_groups(
        self, kind: str, group_ids: Iterable[str]
    ) -> list[tuple[int, str, str, tuple[int, ...]]]: ...

    def objects_derived_from(self, turn_keys: Iterable[int]) -> list[tuple[int, str, str]]:
        """(object_key, kind, group_id) of every object with any of these source turns."""
        ...

    def delete_objects(self, keys: Sequence[int]) -> None: ...

    def get_objects(self, keys: Sequence[int]) -> dict[int, MemoryObject]: ...

    # retrieval support
    def lexical_search(
        self, match: str, limit: int, kinds: Sequence[str] | None, as_of: str | None
    ) -> list[tuple[int, float]]: ...

    def document_frequencies(self, words: Sequence[str]) -> dict[str, int] | None: ...

    def governance_version(self) -> int:
        """A number that changes whenever principals, relationships or grants change."""
        ...

    def checkpoint(self) -> bool:
        """Move what a journal holds into the database and empty it (after erasing text)."""
        ...

    def forgotten_kinds(self) -> frozenset[str]:
        """The kinds of thing deletions have forgotten (tombstones keep no text)."""
        ...

    def last_label_key(self) -> int:
        """The newest label's key: labels are only ever added."""
        ...

    def tokenize(self, text: str) -> set[str]:
        """The terms lexical search indexes ``text`` under."""
        ...

    def iter_vectors(
        self, batch: int = 65536
    ) -> Iterator[tuple[np.ndarray, np.ndarray, list[str], list[str | None]]]: ...

    def counts(self) -> dict[str, int]: ...
