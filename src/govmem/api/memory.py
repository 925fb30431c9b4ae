"""``Memory``: the one object the CLI, the benchmarks and applications drive.

>>> with Memory("clinic.db") as memory:                      # doctest: +SKIP
...     memory.add_principal("dr_lee", "clinician", "Dr. Lee")
...     memory.ingest(Turn("t1", "dr_lee", "Start apixaban 5 mg twice daily."))
...     memory.recall("dr_lee", "which blood thinner?").items[0].text
'Start apixaban 5 mg twice daily.'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from govmem.designs import Deriver, make_derivers
from govmem.errors import EmbedderError, InputError
from govmem.governance.authorization import Authorizer, OpenAccess
from govmem.loaders.gatemem import Episode
from govmem.models import MemoryObject, ObjectDraft, Principal, Relationship, StoredTurn, Turn
from govmem.read_path.recall import RecallResult, recall
from govmem.retrieval.embedders import Embedder, load_embedder
from govmem.retrieval.pooling import mean_rows, unit_rows
from govmem.retrieval.retriever import HybridRetriever
from govmem.store.sqlite_engine import SQLiteStore
from govmem.validation import as_turn

DEFAULT_DESIGNS = ("turn", "session")
BATCH = 2048


@dataclass
class WriteReport:
    """What a write changed."""

    turns: int = 0
    objects_added: int = 0
    objects_removed: int = 0
    turn_ids: list[str] = field(default_factory=list)


@dataclass
class _Changes:
    added: list[tuple[int, str, str | None]] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    turn_vectors: dict[int, np.ndarray] = field(default_factory=dict)


def session_of(turn: Turn) -> str:
    """The session a turn belongs to: its own, else the day of its timestamp."""
    if turn.session_id:
        return turn.session_id
    return turn.timestamp[:10] if turn.timestamp else "undated"


def mean_of_sources(sources: Sequence[Sequence[int]], vectors: Mapping[int, np.ndarray]) -> np.ndarray:
    """Unit-length mean of each row's source vectors."""
    keys = sorted({k for row in sources for k in row})
    column = {k: i for i, k in enumerate(keys)}
    groups = [[column[k] for k in row] for row in sources]
    return unit_rows(mean_rows(groups, np.stack([vectors[k] for k in keys])))


class Memory:
    """Governed memory in one store: ingest turns, recall as a principal."""

    def __init__(
        self,
        path: str = "govmem.db",
        *,
        designs: Sequence[str] | None = None,
        embedder: str | Embedder | None = None,
        authorizer: Authorizer | None = None,
        driver: str = "auto",
    ):
        self.store = SQLiteStore(path, driver=driver)
        try:
            self.designs, self.embedder = self._settle(designs, embedder)
        except Exception:
            self.store.close()
            raise
        self.derivers: list[Deriver] = make_derivers(self.designs)
        self.authorizer: Authorizer = authorizer or OpenAccess()
        self.retriever = HybridRetriever(self.store, self.embedder)

    def _settle(
        self, designs: Sequence[str] | None, embedder: str | Embedder | None
    ) -> tuple[tuple[str, ...], Embedder]:
        """The store's designs and embedder: recorded on first open, enforced after."""
        stored_designs = self.store.get_meta("designs")
        stored_embedder = self.store.get_meta("embedder")
        if stored_designs is None:
            chosen = tuple(designs or DEFAULT_DESIGNS)
            make_derivers(chosen)
        else:
            chosen = tuple(json.loads(stored_designs))
            if designs is not None and tuple(designs) != chosen:
                raise InputError(
                    f"{self.store.path} was created with designs {list(chosen)}; "
                    f"cannot open it with {list(designs)}"
                )
        if embedder is None:
            embedder = stored_embedder or "wordllama"
        model = load_embedder(embedder) if isinstance(embedder, str) else embedder
        if stored_embedder is not None and (
            stored_embedder != model.name or int(self.store.get_meta("embedder_dim") or 0) != model.dim
        ):
            raise EmbedderError(
                f"{self.store.path} holds vectors from embedder {stored_embedder!r}; "
                f"it cannot be searched with {model.name!r}"
            )
        if stored_designs is None or stored_embedder is None:
            with self.store.transaction():
                self.store.set_meta("designs", json.dumps(chosen))
                self.store.set_meta("embedder", model.name)
                self.store.set_meta("embedder_dim", str(model.dim))
        return chosen, model

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    # governance state

    def add_principal(self, principal_id: str, role: str, display_name: str = "") -> Principal:
        principal = Principal(principal_id, role, display_name)
        self.add_principals([principal])
        return principal

    def add_principals(self, principals: Iterable[Principal]) -> None:
        principals = list(principals)
        for p in principals:
            if not p.principal_id or not p.role:
                raise InputError(f"principal {p.principal_id!r} needs an id and a role")
        self.store.put_principals(principals)

    def add_relationship(
        self, type: str, principal_id: str, target_id: str, **attributes: Any
    ) -> Relationship:
        relationship = Relationship(type, principal_id, target_id, attributes)
        self.add_relationships([relationship])
        return relationship

    def add_relationships(self, relationships: Iterable[Relationship]) -> None:
        self.store.put_relationships(list(relationships))

    # writes

    def ingest(self, turn: Turn | Mapping[str, Any]) -> WriteReport:
        return self.ingest_many([turn])

    def ingest_many(
        self,
        turns: Iterable[Turn | Mapping[str, Any]],
        progress: Callable[[int], None] | None = None,
    ) -> WriteReport:
        """Store turns and derive their memory objects, all or nothing.

        Every turn is validated before the store is touched; a failure later (a
        duplicate id, an unknown speaker) rolls the whole call back. Turn texts are
        embedded on a second thread, a batch ahead of the SQLite writes (both
        release the GIL), since verbatim designs only need each turn's vector.
        """
        validated = [as_turn(t) for t in turns]
        batches = [validated[i : i + BATCH] for i in range(0, len(validated), BATCH)]
        report, changes = WriteReport(), _Changes()
        open_groups: dict[int, set[str]] = {}
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="govmem-embed") as embedding:
            vectors = [embedding.submit(self._embed_turns, batch) for batch in batches]
            try:
                with self.store.transaction():
                    for number, (batch, batch_vectors) in enumerate(zip(batches, vectors, strict=True)):
                        stored = self.store.insert_turns(batch, [session_of(t) for t in batch])
                        keys = (s.turn_key for s in stored)
                        changes.turn_vectors.update(zip(keys, batch_vectors.result(), strict=True))
                        known = {s.turn_key: s for s in stored}
                        last = number == len(batches) - 1
                        for index, deriver in enumerate(self.derivers):
                            groups = deriver.groups_of(stored) | open_groups.pop(index, set())
                            if not last:
                                # The batch's last group may go on in the next batch:
                                # deriving it once, later, spares a delete and rewrite.
                                open_groups[index] = deriver.groups_of(stored[-1:])
                                groups -= open_groups[index]
                            if groups:
                                self._rederive(deriver, groups, known, frozenset(), changes)
                        report.turns += len(stored)
                        report.turn_ids.extend(t.turn_id for t in batch)
                        if progress:
                            progress(len(batch))
            finally:
                for future in vectors:
                    future.cancel()
        return self._publish(report, changes)

    def _embed_turns(self, turns: Sequence[Turn]) -> np.ndarray:
        return self.embedder.embed_documents([t.text for t in turns])

    def ingest_episodes(
        self, episodes: Iterable[Episode], progress: Callable[[int], None] | None = None
    ) -> WriteReport:
        """Store episodes (principals, relationships, turns) in one transaction."""
        episodes = list(episodes)
        with self.store.transaction():
            self.add_principals(p for e in episodes for p in e.principals)
            self.add_relationships(r for e in episodes for r in e.relationships)
            return self.ingest_many([t for e in episodes for t in e.turns], progress)

    def delete_turns(self, turn_ids: Sequence[str], episode_id: str = "default") -> WriteReport:
        """Delete turns and, by closure, every object derived from them.

        Objects that also drew on surviving turns (a session window) are derived
        again from the survivors. This is the primitive that forgetting builds on.
        """
        report, changes = WriteReport(), _Changes()
        with self.store.transaction():
            keys = self.store.turn_keys(episode_id, list(turn_ids))
            missing = [t for t in turn_ids if t not in keys]
            if missing:
                raise InputError(f"no turn {missing[0]!r} in episode {episode_id!r}")
            deleted = frozenset(keys.values())
            derived = self.store.objects_derived_from(deleted)
            for deriver in self.derivers:
                groups = {group for _, kind, group in derived if kind == deriver.kind}
                if groups:
                    self._rederive(deriver, groups, {}, deleted, changes)
            leftover = {key for key, _, _ in derived} - set(changes.removed)
            self.store.delete_objects(sorted(leftover))
            changes.removed.extend(leftover)
            self.store.delete_turns(sorted(deleted))
            report.turns = len(deleted)
            report.turn_ids = list(turn_ids)
        return self._publish(report, changes)

    def _rederive(
        self,
        deriver: Deriver,
        group_ids: set[str],
        known: dict[int, StoredTurn],
        excluded: frozenset[int],
        changes: _Changes,
    ) -> None:
        """Replace the objects of ``group_ids`` whose text or sources changed."""
        members = deriver.members(self.store, group_ids, known)
        drafts: list[ObjectDraft] = []
        for group_id, turns in members.items():
            survivors = [t for t in turns if t.turn_key not in excluded]
            drafts.extend(deriver.derive(group_id, survivors))
        existing = {
            (group, text, sources): key
            for key, group, text, sources in self.store.objects_in_groups(deriver.kind, group_ids)
        }
        fresh = []
        for draft in drafts:
            signature = (draft.group_id, draft.text, tuple(sorted(set(draft.source_keys))))
            if existing.pop(signature, None) is None:
                fresh.append(draft)
        stale = sorted(existing.values())
        self.store.delete_objects(stale)
        changes.removed.extend(stale)
        turns = {t.turn_key: t for group in members.values() for t in group}
        vectors = self._vectors(fresh, turns, changes.turn_vectors)
        keys = self.store.insert_objects(fresh, vectors)
        changes.added.extend((key, d.kind, d.observed_at) for key, d in zip(keys, fresh, strict=True))
        changes.vectors.append(vectors)

    def _vectors(
        self, drafts: Sequence[ObjectDraft], turns: Mapping[int, StoredTurn], cache: dict[int, np.ndarray]
    ) -> np.ndarray:
        """One unit vector per draft: its own text's, or the mean of its source turns'."""
        vectors = np.zeros((len(drafts), self.embedder.dim), dtype=np.float32)
        own = [i for i, d in enumerate(drafts) if d.embed_text]
        if own:
            vectors[own] = self.embedder.embed_documents([drafts[i].text for i in own])
        pooled = [i for i, d in enumerate(drafts) if not d.embed_text]
        missing = sorted({k for i in pooled for k in drafts[i].source_keys} - cache.keys())
        if missing:
            embedded = self.embedder.embed_documents([turns[k].turn.text for k in missing])
            cache.update(zip(missing, embedded, strict=True))
        single = [i for i in pooled if len(drafts[i].source_keys) == 1]
        if single:
            vectors[single] = np.stack([cache[drafts[i].source_keys[0]] for i in single])
        several = [i for i in pooled if len(drafts[i].source_keys) > 1]
        if several:
            vectors[several] = mean_of_sources([drafts[i].source_keys for i in several], cache)
        return vectors

    def _publish(self, report: WriteReport, changes: _Changes) -> WriteReport:
        """After commit: bring the in-memory index in step with the store."""
        removed = set(changes.removed)
        self.retriever.removed(sorted(removed))
        if changes.added:
            vectors = np.concatenate(changes.vectors)
            live = [i for i, (key, _, _) in enumerate(changes.added) if key not in removed]
            keys, kinds, observed = (
                zip(*(changes.added[i] for i in live), strict=True) if live else ((), (), ())
            )
            self.retriever.added(list(keys), vectors[live], list(kinds), list(observed))
        report.objects_added = len(live) if changes.added else 0
        report.objects_removed = len(removed - {key for key, _, _ in changes.added})
        return report

    # reads

    def recall(
        self,
        requester: str,
        query: str,
        k: int = 10,
        as_of: str | None = None,
        design: str | Sequence[str] | None = None,
    ) -> RecallResult:
        """The memory ``requester`` may see that best answers ``query``.

        ``design`` restricts recall to one design or several (default: all).
        """
        kinds = self._kinds(design)
        return recall(self.store, self.retriever, self.authorizer, requester, query, k, as_of, kinds)

    def _kinds(self, design: str | Sequence[str] | None) -> list[str] | None:
        if design is None:
            return None
        kinds = [design] if isinstance(design, str) else list(design)
        unknown = [k for k in kinds if k not in self.designs]
        if unknown:
            raise InputError(
                f"design {unknown[0]!r} is not kept in this store (it keeps {', '.join(self.designs)})"
            )
        return kinds

    def derived_from(self, turn_id: str, episode_id: str = "default") -> list[MemoryObject]:
        """Every memory object whose sources include this turn (one indexed query)."""
        keys = self.store.turn_keys(episode_id, [turn_id])
        if not keys:
            raise InputError(f"no turn {turn_id!r} in episode {episode_id!r}")
        derived = self.store.objects_derived_from(keys.values())
        found = self.store.get_objects([key for key, _, _ in derived])
        return [found[key] for key, _, _ in derived if key in found]

    def stats(self) -> dict[str, Any]:
        return {
            "path": self.store.path,
            "schema_version": self.store.schema_version,
            "driver": self.store.db.driver,
            "sqlite_version": self.store.db.sqlite_version,
            "embedder": self.embedder.name,
            "designs": list(self.designs),
            "counts": self.store.counts(),
        }
