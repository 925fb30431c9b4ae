"""Response caches keyed by the canonical request, and forgotten with their source turns.

Every entry records the turns whose text went into its prompt (``sources``).
Deleting a turn must delete every entry drawn from it: the SQLite cache lives in
the memory's store file, and ``SQLiteStore.delete_turns`` purges it in the same
transaction; a cache kept elsewhere must be told through ``forget_sources``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from govmem.llm.response import LLMResponse

if TYPE_CHECKING:
    from govmem.store.base import Store


def cache_key(request: Mapping[str, Any]) -> str:
    """SHA-256 of the request as canonical JSON (sorted keys, no spaces)."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache(Protocol):
    """Where a client keeps replies to requests it has already made."""

    def get(self, key: str) -> LLMResponse | None:
        """The cached reply (``cached=True``, zero cost), or None."""
        ...

    def put(self, key: str, response: LLMResponse, sources: Sequence[int]) -> None:
        """Keep ``response``; ``sources`` are the turn keys its prompt drew on."""
        ...

    def forget_sources(self, turn_keys: Iterable[int]) -> int:
        """Delete every entry with any of these source turns; returns how many."""
        ...


class InMemoryResponseCache:
    """A process-local cache (for one run, tests, or a store-less client)."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[str, frozenset[int]]] = {}
        self._by_turn: dict[int, set[str]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> LLMResponse | None:
        with self._lock:
            entry = self._entries.get(key)
        return LLMResponse.from_cache(entry[0]) if entry else None

    def put(self, key: str, response: LLMResponse, sources: Sequence[int]) -> None:
        with self._lock:
            old = self._entries.get(key)
            turns = frozenset(sources) | (old[1] if old else frozenset())
            self._entries[key] = (response.to_json(), turns)
            for turn in turns:
                self._by_turn.setdefault(turn, set()).add(key)

    def forget_sources(self, turn_keys: Iterable[int]) -> int:
        with self._lock:
            doomed = set().union(*(self._by_turn.pop(turn, set()) for turn in turn_keys))
            for key in doomed:
                _, turns = self._entries.pop(key)
                for turn in turns:
                    if turn in self._by_turn:
                        self._by_turn[turn].discard(key)
        return len(doomed)


class SQLiteResponseCache:
    """The cache in a memory's own store file (``SQLiteResponseCache(memory.store)``).

    Deleting turns through the store (``Memory.delete_turns`` and every path built
    on it) removes the entries drawn from them in the same transaction. A reply
    whose source turn was deleted while the model was answering is not stored.
    """

    def __init__(self, store: Store):
        self.store = store

    def get(self, key: str) -> LLMResponse | None:
        text = self.store.cache_get(key)
        return LLMResponse.from_cache(text) if text is not None else None

    def put(self, key: str, response: LLMResponse, sources: Sequence[int]) -> None:
        created_at = datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="seconds")
        self.store.cache_put(key, response.to_json(), sources, created_at)

    def forget_sources(self, turn_keys: Iterable[int]) -> int:
        return self.store.cache_forget_sources(turn_keys)
