"""``Memory``: the one object the CLI, the benchmarks and applications drive.

>>> with Memory("clinic.db") as memory:                      # doctest: +SKIP
...     memory.add_principal("dr_lee", "clinician", "Dr. Lee")
...     memory.ingest(Turn("t1", "dr_lee", "Start apixaban 5 mg twice daily."))
...     memory.recall("dr_lee", "which blood thinner?").items[0].text
'Start apixaban 5 mg twice daily.'
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from govmem.designs import Deriver, make_derivers
from govmem.errors import EmbedderError, InputError, NotVisible, PolicyError, UnknownPrincipal
from govmem.governance.access_changes import endings_in, relationships_ended
from govmem.governance.audit import DecisionLog
from govmem.governance.authorization import Authorizer, PolicyAuthorizer, utc_now
from govmem.governance.erasure import (
    MIN_ITEM_CHARS,
    Erasure,
    Tombstones,
    collateral_sentences,
    erase,
    kept_label,
    longest_tokens,
    moved_spans,
    text_digest,
)
from govmem.governance.forgetting.audit import AuditBudget
from govmem.governance.forgetting.plan import ForgettingPlan
from govmem.governance.forgetting.request import request_receipt, run_request
from govmem.governance.forgetting.selector import Selector
from govmem.governance.interpreter import DeletionRequest, Interpreter, RuleInterpreter, interpret_all
from govmem.governance.labeling import Facet, Labeler, TurnLabel
from govmem.governance.policy_engine import PolicyEngine
from govmem.governance.policy_pack import BUILTIN_PACKS, GENERAL, PolicyPack, load_pack, parse_pack
from govmem.governance.receipts import (
    ErasureLedger,
    Receipt,
    new_signing_key,
    new_store_id,
    public_key_of,
    sha256_text,
    sign,
)
from govmem.governance.revocation.recording import (
    RevisionReport,
    detect,
    detect_statements,
    record_supersession,
)
from govmem.governance.revocation.review import ObjectStatus, RevocationReview, closed_up
from govmem.governance.revocation.supersession import SupersessionDetector
from govmem.llm.cache import SQLiteResponseCache
from govmem.llm.client import LLMClient
from govmem.loaders.gatemem import Episode
from govmem.models import Grant, MemoryObject, ObjectDraft, Principal, Relationship, StoredTurn, Turn
from govmem.read_path.recall import (
    RecallItem,
    RecallResult,
    cut_superseded_statements,
    item_of,
    recall,
    resolve_requester,
    withhold_revoked,
)
from govmem.read_path.successors import SuccessorView
from govmem.retrieval.embedders import Embedder, load_embedder
from govmem.retrieval.pooling import mean_rows, unit_rows
from govmem.retrieval.retriever import HybridRetriever
from govmem.store.sqlite_engine import SQLiteStore
from govmem.timestamps import normalize_timestamp
from govmem.validation import as_turn

DEFAULT_DESIGNS = ("turn", "session")
DEFAULT_INTERPRETER = RuleInterpreter()
"""Reads deletion requests out of ingested turns; ``Memory(interpreter=None)`` turns it off."""
DEFAULT_POLICY = "default"
BATCH = 2048


@dataclass
class WriteReport:
    """What a write changed."""

    turns: int = 0
    objects_added: int = 0
    objects_removed: int = 0
    turn_ids: list[str] = field(default_factory=list)
    receipt: dict | None = None
    """The signed receipt of a ``forget`` (see :mod:`govmem.governance.receipts`)."""
    superseded: list[dict] = field(default_factory=list)
    """Records this write superseded (episode, old and new turn ids, from when, why)."""
    conflicts: list[dict] = field(default_factory=list)
    """Contradictions this write found but could not order: kept, flagged, for the caller."""
    replays_refused: list[str] = field(default_factory=list)
    """Turns not stored: replays (same id, same text) of turns deleted before."""
    plan: ForgettingPlan | None = None
    """``forget_request`` only: the planner's plan (candidates with reasons; in memory only)."""
    audit: dict | None = None
    """``forget_request`` only: the residual-recovery audit's result (as in the receipt)."""


@dataclass
class _Changes:
    added: list[tuple[int, str, str | None, int | None]] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    turn_vectors: dict[int, np.ndarray] = field(default_factory=dict)
    erased: bool = False  # text was erased: old page images must leave the write-ahead log
    ledger: ErasureLedger | None = None  # set while a deletion request runs: what it changed


def _unknown_source(reference: str, episode_id: str) -> InputError:
    return InputError(f"no memory object or turn {reference!r} (episode {episode_id!r}) to derive from")


def _object_key(object_id: str) -> int | None:
    _, _, key = object_id.rpartition("-")
    return int(key) if key.isdigit() else None


SUPERSESSION_UNITS = ("statements", "records")
DEFAULT_SUPERSESSION: bool | str = False
"""What ``Memory`` detects at ingest unless told otherwise (see ``detect_supersession``).

Off: detecting statements costs about 0.6 ms of CPU a turn on the synthetic benchmark
turns (parsing every turn into claims), several times the rest of ingest; records
comparison suits policies, not conversations. Explicit supersession and validity at
read time apply whatever this is; conversations that need detection turn it on."""


def _supersession_unit(setting: bool | str | None) -> str | None:
    """None (off), "statements" or "records" from ``Memory(detect_supersession=...)``."""
    if setting is None or setting is False or setting == "off":
        return None
    if setting is True:
        return "records"
    if setting not in SUPERSESSION_UNITS:
        raise InputError(
            f"detect_supersession must be False ('off'), True, 'statements' or 'records', got {setting!r}"
        )
    return setting


def _without_superseded_statements(
    members: Mapping[str, Sequence[StoredTurn]], cuts: Mapping[int, list[tuple]]
) -> dict[str, list[StoredTurn]]:
    """Each group's turns with their superseded statements cut from the text (a turn left
    empty goes), for derivers that state what is current (summaries, facts)."""
    if not cuts:
        return dict(members)
    result: dict[str, list[StoredTurn]] = {}
    for group, turns in members.items():
        kept = []
        for turn in turns:
            text = turn.turn.text
            for start, end, *_ in sorted(cuts.get(turn.turn_key, ()), reverse=True):
                text = closed_up(text[:start], text[end:], text[start:end])
            if text.strip():
                kept.append(
                    turn if text == turn.turn.text else turn._replace(turn=replace(turn.turn, text=text))
                )
        result[group] = kept
    return result


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
        path: str | os.PathLike[str] = "govmem.db",
        *,
        designs: Sequence[str] | None = None,
        embedder: str | Embedder | None = None,
        policy: str | None = None,
        authorizer: Authorizer | None = None,
        driver: str = "auto",
        llm: LLMClient | None = None,
        interpreter: Interpreter | None = DEFAULT_INTERPRETER,
        detect_supersession: bool | str = DEFAULT_SUPERSESSION,
    ):
        """``detect_supersession`` detects at ingest what new turns revise: ``"statements"``
        compares the claims inside turns (conversations: a schedule slot, a dose, a code
        moved to another value supersedes the sentence that gave the old one; the rest of
        that turn stays current), ``"records"`` (or True) compares whole records (policies,
        documents: a revised record supersedes the old one whole). Explicit supersession
        and validity at read time always apply."""
        self.store = SQLiteStore(path, driver=driver)
        self.interpreter = interpreter
        try:
            self.designs, self.embedder = self._settle(designs, embedder)
            self.pack = self._settle_policy(policy)
            self.llm = self._attach(llm)
        except Exception:
            self.store.close()
            raise
        self.derivers: list[Deriver] = make_derivers(self.designs, embedder=self.embedder, llm=self.llm)
        self.engine = PolicyEngine(self.pack, self.store)
        self._labeler: tuple[int, Labeler] | None = None
        self._label_facets: dict[int, frozenset[Facet]] = {}
        self._label_keys: dict[frozenset[Facet], int] = {}
        self.authorizer: Authorizer = authorizer or PolicyAuthorizer(
            self.engine, self.labeler, {d.kind: d for d in self.derivers}
        )
        self.audit = DecisionLog(self.store)
        self.retriever = HybridRetriever(self.store, self.embedder)
        self.revocation = RevocationReview(self.store, {d.kind: d for d in self.derivers})
        self.supersession = _supersession_unit(detect_supersession)
        self.detector = SupersessionDetector(self.embedder) if self.supersession == "records" else None
        if self.store.get_meta("labeled_with") != self.labeler().fingerprint and self.store.counts_of(
            "turns"
        ):
            with self._write():  # a store from before labelling, or with a changed pack
                self._relabel_if_needed()

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

    def _attach(self, llm: LLMClient | None) -> LLMClient | None:
        """The client derived designs write through, caching its replies in this store.

        The cache must be the store's own: deleting a turn then deletes, in the same
        transaction, every cached reply whose prompt held its text. A client with
        some other cache would keep deleted text beyond the store's reach.
        """
        if llm is None:
            return None
        cache = getattr(llm, "cache", None)
        if cache is None:
            llm.cache = SQLiteResponseCache(self.store)
        elif not (isinstance(cache, SQLiteResponseCache) and cache.store is self.store):
            raise InputError(
                "an LLM client given to a store must cache its replies in that store (or have no "
                "cache): a cache elsewhere would keep the text of deleted turns"
            )
        return llm

    def _settle_policy(self, policy: str | None) -> PolicyPack:
        """The store's policy pack: recorded on first open (built-in name or file text), enforced after."""
        stored = self.store.get_meta("policy")
        if stored is None:
            chosen = policy or DEFAULT_POLICY
            pack = load_pack(chosen)
            with self.store.transaction():
                self.store.set_meta("policy", pack.name if chosen in BUILTIN_PACKS else "file")
                if chosen not in BUILTIN_PACKS:
                    with open(chosen, encoding="utf-8") as handle:
                        self.store.set_meta("policy_text", handle.read())
            return pack
        if stored == "file":
            pack = parse_pack(self.store.get_meta("policy_text") or "", f"{self.store.path} (stored pack)")
        else:
            pack = load_pack(stored)
        if policy is not None and load_pack(policy).name != pack.name:
            raise PolicyError(
                f"{self.store.path} is governed by policy pack {pack.name!r}; cannot open it with {policy!r}"
            )
        return pack

    @contextmanager
    def _write(self) -> Iterator[None]:
        """A write transaction; on failure the caches that may hold its rolled-back labels go."""
        try:
            with self.store.transaction():
                yield
        except BaseException:
            if self.store.db.in_transaction:
                raise  # an outer transaction of ours is still open; it will clean up
            self._label_facets.clear()
            self._label_keys.clear()
            self.engine.forget()
            self._labeler = None
            raise

    def labeler(self) -> Labeler:
        """The labeler for the store's current principals and resources."""
        version = self.store.governance_version()
        if self._labeler is None or self._labeler[0] != version:
            labeler = Labeler(self.pack, self.store.principals(), self.store.relationships())
            self._labeler = (version, labeler)
        return self._labeler[1]

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
        with self._write():
            self.store.put_principals(principals)
            self.store.record_event(
                "principals",
                {"principals": [[p.principal_id, p.role] for p in principals]},
                None,
                utc_now(),
            )
            self._relabel_if_needed()

    def add_relationship(
        self,
        type: str,
        principal_id: str,
        target_id: str,
        *,
        valid_from: str | None = None,
        valid_until: str | None = None,
        **attributes: Any,
    ) -> Relationship:
        """A typed relationship, in force from ``valid_from`` until ``valid_until`` (exclusive)."""
        relationship = Relationship(type, principal_id, target_id, attributes, valid_from, valid_until)
        self.add_relationships([relationship])
        return relationship

    def add_relationships(self, relationships: Iterable[Relationship]) -> None:
        relationships = [
            replace(
                r,
                valid_from=normalize_timestamp(r.valid_from, "valid_from"),
                valid_until=normalize_timestamp(r.valid_until, "valid_until"),
            )
            for r in relationships
        ]
        with self._write():
            self.store.put_relationships(relationships)
            self.store.record_event(
                "relationships",
                {
                    "relationships": [
                        [r.type, r.principal_id, r.target_id, r.valid_from, r.valid_until]
                        for r in relationships
                    ]
                },
                min((r.valid_from for r in relationships if r.valid_from), default=None),
                utc_now(),
            )
            self._relabel_if_needed()

    def grant(
        self,
        grantor: str,
        grantee: str,
        subject: str,
        tags: Sequence[str] = ("*",),
        valid_from: str | None = None,
        valid_until: str | None = None,
        revocable: bool = True,
        source_turn: tuple[str, str] | None = None,
    ) -> Grant:
        """Let ``grantee`` read ``subject``'s information on ``tags``; consent when grantor is the subject.

        Anyone else may grant only what the pack's rules already let them read
        (no re-delegation of grants). ``source_turn`` (episode id, turn id) records the
        turn that stated the grant, when an interpreter found it in conversation.
        """
        start = normalize_timestamp(valid_from, "valid_from")
        end = normalize_timestamp(valid_until, "valid_until")
        if start is not None and end is not None and end <= start:
            raise PolicyError(f"grant ends ({end}) before it starts ({start})")
        tags = tuple(tags)
        if not tags:
            raise PolicyError("a grant needs at least one tag ('*' for every tag)")
        unknown = [t for t in tags if t != "*" and t not in self.pack.tags]
        if unknown:
            raise PolicyError(
                f"tag {unknown[0]!r} is not defined by policy pack {self.pack.name!r} "
                f"(it has {', '.join(sorted(self.pack.tags))})"
            )
        grantor_p = resolve_requester(self.store, grantor)
        resolve_requester(self.store, grantee)
        if not subject:
            raise PolicyError("a grant needs a subject")
        opened = tags if "*" in tags else (*tags, GENERAL)  # a grant also opens the subject's general remarks
        if grantor != subject and not self.engine.rule_allows(grantor_p, subject, opened, start or utc_now()):
            raise PolicyError(
                f"{grantor!r} may not grant access to {subject!r} on {list(tags)}: they cannot read it"
            )
        grant = Grant(grantor, grantee, subject, tags, start, end, revocable)
        source, source_key = "api", None
        if source_turn is not None:
            episode_id, turn_id = source_turn
            found = self.store.turn_keys(episode_id, [turn_id])
            if not found:
                raise InputError(
                    f"no turn {turn_id!r} in episode {episode_id!r} to cite as the grant's source"
                )
            source, source_key = f"turn:{episode_id}/{turn_id}", found[turn_id]
        with self._write():
            event = self.store.record_event(
                "consent" if grant.is_consent else "grant",
                {
                    "grantor": grantor,
                    "grantee": grantee,
                    "subject": subject,
                    "tags": list(tags),
                    "valid_from": start,
                    "valid_until": end,
                    "revocable": revocable,
                },
                start,
                utc_now(),
                source,
                source_key,
            )
            grant_id = self.store.insert_grant(grant, event)
        return replace(grant, grant_id=grant_id)

    def consent(self, subject: str, grantee: str, tags: Sequence[str] = ("*",), **window: Any) -> Grant:
        """The subject's own grant over their information."""
        return self.grant(subject, grantee, subject, tags, **window)

    def revoke(self, grant_id: int, by: str, at: str | None = None) -> None:
        """End a grant from ``at`` (default now); takes effect on the next read."""
        grant = self.store.get_grant(grant_id)
        if grant is None:
            raise PolicyError(f"no grant {grant_id}")
        if by not in (grant.grantor, grant.subject_id):
            raise PolicyError(f"{by!r} may not revoke grant {grant_id}: only its grantor or subject can")
        if not grant.revocable:
            raise PolicyError(f"grant {grant_id} was made irrevocable")
        moment = normalize_timestamp(at, "at") or utc_now()
        with self._write():
            self.store.record_event("revoke", {"grant_id": grant_id, "by": by}, moment, utc_now())
            self.store.revoke_grant(grant_id, moment)

    def grants(self, grantee: str) -> list[Grant]:
        return self.store.grants_for(grantee)

    def governance_events(self) -> list[dict]:
        """Every governance event in time order, with its provenance (API call or turn)."""
        return self.store.events()

    def receipts(self) -> list[dict]:
        """The signed receipt of every deletion request carried out here, oldest first."""
        return self.store.receipts()

    def public_key(self) -> str:
        """The store's Ed25519 public key (base64), which verifies its receipts.

        The private key is created on first use and kept in the store file: whoever
        holds the file can sign. Receipts prove they were not altered and which store
        issued them, not that the store's operator is honest.
        """
        with self._write():
            return public_key_of(self._signing_key())

    def _signing_key(self) -> str:
        key = self.store.get_meta("signing_key")
        if key is None:
            key = new_signing_key()
            self.store.set_meta("signing_key", key)
        return key

    def _store_id(self) -> str:
        store_id = self.store.get_meta("store_id")
        if store_id is None:
            store_id = new_store_id()
            self.store.set_meta("store_id", store_id)
        return store_id

    # writes

    def ingest(
        self,
        turn: Turn | Mapping[str, Any],
        supersedes: Sequence[str] = (),
        valid_until: str | None = None,
    ) -> WriteReport:
        """Store one turn. ``supersedes`` names earlier turns (ids in its episode) it
        replaces from its timestamp on; ``valid_until`` ends its own validity."""
        turn = as_turn(turn)
        end = normalize_timestamp(valid_until, "valid_until")
        with self._write():
            report = self.ingest_many([turn])
            if end is not None or supersedes:
                keys = self.store.turn_keys(turn.episode_id, [turn.turn_id])
                if not keys:  # erased at ingest (a deletion request): nothing to mark
                    return report
                if end is not None:
                    self.store.set_valid_until(keys[turn.turn_id], end)
            if supersedes:
                self._supersede(list(supersedes), turn.turn_id, turn.episode_id, "explicit", report)
        return report

    def supersede(self, old: str | Sequence[str], new: str, episode_id: str = "default") -> WriteReport:
        """Record that turn ``new`` replaces turn(s) ``old`` (ids in ``episode_id``) from
        ``new``'s timestamp on (now when it has none): the old ones stay in history for
        audit reads and are never served as current; summaries and facts drawn from them
        are derived again without them; notes derived from them become stale."""
        olds = [old] if isinstance(old, str) else list(old)
        report, changes = WriteReport(), _Changes()
        with self._write():
            self._supersede(olds, new, episode_id, "explicit", report, changes)
        return self._publish(report, changes)

    def _supersede(
        self,
        olds: Sequence[str],
        new: str,
        episode_id: str,
        reason: str,
        report: WriteReport,
        changes: _Changes | None = None,
    ) -> None:
        keys = self.store.turn_keys(episode_id, [*olds, new])
        missing = [t for t in [*olds, new] if t not in keys]
        if missing:
            raise InputError(f"no turn {missing[0]!r} in episode {episode_id!r} to supersede")
        if new in olds:
            raise InputError(f"turn {new!r} cannot supersede itself")
        turns = {t.turn_key: t for t in self.store.turns_by_keys(keys.values())}
        revision = RevisionReport()
        pairs = [(turns[keys[o]], turns[keys[new]], reason) for o in olds]
        record_supersession(self.store, pairs, utc_now(), "api", revision)
        report.superseded.extend(revision.superseded)
        own = changes or _Changes()
        self._rederive_without(revision.superseded_keys, own)
        if changes is None:
            self._publish(WriteReport(), own)

    def ingest_many(
        self,
        turns: Iterable[Turn | Mapping[str, Any]],
        progress: Callable[[int], None] | None = None,
    ) -> WriteReport:
        """Store turns and derive their memory objects, all or nothing.

        Every turn is validated before the store is touched; a failure later (a
        duplicate id, an unknown speaker) rolls the whole call back. Turn texts are
        embedded on a second thread, a batch ahead of the SQLite writes (the embedder
        and SQLite release the GIL), since verbatim designs only need each turn's
        vector. Each batch's full-text indexing then runs on a third thread while
        this one labels the next batch (SQLite tokenizes without the GIL). Labelling
        stays on this thread: it is pure Python, and on a thread of its own it made
        the writes wait for the GIL (measured slower).
        """
        validated = [as_turn(t) for t in turns]
        report, changes = WriteReport(), _Changes()
        validated = self._without_deleted_replays(validated, report)
        batches = [validated[i : i + BATCH] for i in range(0, len(validated), BATCH)]
        open_groups: dict[int, set[str]] = {}
        # The pools shut down (waiting for their jobs) before the transaction ends,
        # so a rollback never runs under an indexing statement.
        with (
            self._write(),
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="govmem-embed") as embedding,
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="govmem-index") as indexing,
        ):
            self._relabel_if_needed()
            labeler = self.labeler()
            previous = self._previous_subjects({t.episode_id for t in validated})
            vectors = [embedding.submit(self._embed, batch) for batch in batches]
            requests = interpret_all(self.interpreter, validated) if self.interpreter is not None else []
            erasures = self._erasures_on_arrival(validated, requests)
            inserted: set[int] = set()
            stored_keys: list[int] = []
            derived: list[set[str]] = [set() for _ in self.derivers]  # groups derived in this call
            indexed: Future[None] | None = None
            try:
                for number, batch in enumerate(batches):
                    first = number * BATCH
                    labelled = self._prepare_labels(
                        labeler,
                        batch,
                        previous,
                        {i - first: e for i, e in erasures.items() if first <= i < first + len(batch)},
                    )
                    batch_vectors = vectors[number].result()
                    if indexed is not None:
                        indexed.result()  # the store is ours again
                    stored = self.store.insert_turns(
                        batch, [session_of(t) for t in batch], self._store_labels(labelled)
                    )
                    keys = [s.turn_key for s in stored]
                    inserted.update(keys)
                    stored_keys.extend(keys)
                    changes.turn_vectors.update(zip(keys, batch_vectors, strict=True))
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
                            self._rederive(
                                deriver, groups, known, frozenset(), changes, inserted, derived[index]
                            )
                            derived[index] |= groups
                    # Full-text indexing runs in SQLite without the GIL: on its own
                    # thread it overlaps the labelling of the next batch.
                    indexed = indexing.submit(self.store.index_pending_text)
                    report.turns += len(stored)
                    report.turn_ids.extend(t.turn_id for t in batch)
                    if progress:
                        progress(len(batch))
                if indexed is not None:
                    indexed.result()
                    indexed = None
                self._govern(validated, stored_keys, changes, requests)
                self._revise(stored_keys, changes, report)
            finally:
                for job in vectors:
                    job.cancel()
        return self._publish(report, changes)

    def _revise(self, keys: Sequence[int], changes: _Changes, report: WriteReport) -> None:
        """Find what the new turns supersede (or contradict without an order) and record it;
        derived objects drawn from a superseded turn are derived again without it."""
        if self.supersession is None or not keys:
            return
        stored = self.store.turns_by_keys(keys)  # erasure may have changed or removed some
        revision = RevisionReport()
        if self.detector is not None:
            detect(self.store, self.detector, stored, changes.turn_vectors, utc_now(), revision)
        else:
            detect_statements(self.store, stored, self._span_subjects, utc_now(), revision)
        report.superseded.extend(revision.superseded)
        report.conflicts.extend(revision.conflicts)
        self._rederive_without(revision.superseded_keys | revision.revised_keys, changes)

    def _span_subjects(self, turn_key: int, start: int, end: int) -> frozenset[str]:
        """The principals the labeller found in the stored spans overlapping start:end that
        the text there names, or who say it: a subject carried over from earlier sentences
        is a guess, too weak to keep two statements apart."""
        spans = self.store.turn_spans([turn_key]).get(turn_key)
        if spans is None:
            return frozenset()
        speaker, text, parts = spans
        labels = [label for a, b, label in parts if a < end and start < b]
        facets = self._facets_of(labels)
        found = {subject for label in labels for subject, _ in facets.get(label, ()) if subject}
        if not found:
            return frozenset()
        return frozenset(found & (self.labeler().mentioned(text[start:end]) | {speaker}))

    def _rederive_without(self, superseded: set[int], changes: _Changes) -> None:
        """Derive again the non-verbatim objects (summaries, facts) drawn from superseded
        turns or turns with a superseded statement."""
        if not superseded:
            return
        derived = self.store.objects_derived_from(superseded)
        for deriver in self.derivers:
            if deriver.verbatim:
                continue  # windows are cut to their current turns at read time
            groups = {group for _, kind, group in derived if kind == deriver.kind}
            if groups:
                self._rederive(deriver, groups, {}, frozenset(), changes)

    def _without_deleted_replays(self, turns: list[Turn], report: WriteReport) -> list[Turn]:
        """``turns`` less replays of deleted turns (same id, same text), listed in the report."""
        by_episode: dict[str, list[str]] = {}
        for turn in turns:
            by_episode.setdefault(turn.episode_id, []).append(turn.turn_id)
        deleted = {
            (episode_id, turn_id): digest
            for episode_id, ids in by_episode.items()
            for turn_id, digest in self.store.deleted_turns(episode_id, ids).items()
        }
        if not deleted:
            return turns
        kept = []
        for turn in turns:
            if deleted.get((turn.episode_id, turn.turn_id)) == text_digest(turn.text):
                report.replays_refused.append(turn.turn_id)
            else:
                kept.append(turn)
        return kept

    def _embed(self, turns: Sequence[Turn]) -> np.ndarray:
        return self.embedder.embed_documents([t.text for t in turns])

    def _previous_subjects(self, episode_ids: Iterable[str]) -> dict[str, frozenset[str]]:
        """The subjects each episode's latest stored sentence is about (carried into the next turn)."""
        last = self.store.last_turn_labels(episode_ids)
        facets = self._facets_of(last.values())
        return {
            episode_id: frozenset(s for s, _ in facets.get(key, frozenset()) if s)
            for episode_id, key in last.items()
        }

    def _store_labels(self, labelled: Sequence[tuple[TurnLabel, frozenset[Facet]]]) -> list[tuple[int, str]]:
        """Each turn's (label key, spans JSON), interning the label sets."""
        sets = [s.facets for label, _ in labelled for s in label.spans] + [whole for _, whole in labelled]
        keys = iter(self._intern(sets))
        rows = [
            "[" + ",".join(f"[{s.start},{s.end},{next(keys)}]" for s in label.spans) + "]"
            for label, _ in labelled
        ]
        return [(next(keys), spans) for spans in rows]

    def _erasures_on_arrival(
        self, turns: Sequence[Turn], requests: Sequence[tuple[int, DeletionRequest]]
    ) -> dict[int, Erasure]:
        """What ingest will erase of each turn on arrival (by position): its sentences
        holding an item forgotten by then (stored, or asked in this turn or an earlier
        one of this call; a deletion request repeating its item is one)."""
        asked: dict[int, list[str]] = {}
        for index, request in requests:
            asked.setdefault(index, []).extend(request.items)
        forgotten: dict[str, Tombstones] = {}
        found = {}
        for position, turn in enumerate(turns):
            tombstones = forgotten.get(turn.episode_id)
            if tombstones is None:
                tombstones = Tombstones(self.store.tombstones(turn.episode_id)[0])
            if position in asked:  # forgotten from here on, the request itself included
                tombstones = Tombstones(tombstones.entries | Tombstones.of_items(asked[position]).entries)
            forgotten[turn.episode_id] = tombstones
            if tombstones:
                erasure = erase(turn.text, tombstones, self.labeler().erasable_apart)
                if erasure is not None:
                    found[position] = erasure
        return found

    def _prepare_labels(
        self,
        labeler: Labeler,
        turns: Sequence[Turn],
        previous: dict[str, frozenset[str]],
        erasures: Mapping[int, Erasure] | None = None,
    ) -> list[tuple[TurnLabel, frozenset[Facet]]]:
        """Each turn's label and the union of its facets; ``previous`` carries each
        episode's last named subjects from turn to turn.

        What ingest erases on arrival (``erasures`` by position) does not carry: a turn
        erased in part is labelled, and the talk goes on, as if only its kept text had
        been said (its erased stretches keep their own labels until the erasure), and a
        turn erased whole changes nothing. Whoever a deletion request named must not
        become the owner of the next unnamed sentence ("Please delete Derek's old door
        code 5532." then "The new side door code is 8841."), and a turn is labelled as
        when it comes in a call of its own, where the carry is rebuilt from the last stored
        sentence (one case still differs: a request erasing earlier turns of the same
        call; see DEVELOPERS.md).
        """
        labelled = []
        for position, turn in enumerate(turns):
            carried = previous.get(turn.episode_id, frozenset())
            label, after = labeler.label(turn.text, turn.speaker, turn.kind, carried)
            erasure = erasures.get(position) if erasures else None
            if erasure is not None:  # labelled as what is kept of it; the talk goes on from there
                if erasure.empty:
                    after = carried
                else:
                    kept, after = labeler.label(erasure.text, turn.speaker, turn.kind, carried)
                    label = kept_label(label, kept, erasure)
            previous[turn.episode_id] = after
            labelled.append((label, label.facets))
        return labelled

    def _intern(self, facet_sets: Sequence[frozenset[Facet]]) -> list[int]:
        new = list({f for f in facet_sets if f not in self._label_keys})
        if new:
            keys = self.store.intern_labels(new)
            self._label_keys.update(zip(new, keys, strict=True))
            self._label_facets.update(zip(keys, new, strict=True))
        return [self._label_keys[f] for f in facet_sets]

    def _facets_of(self, keys: Iterable[int]) -> dict[int, frozenset[Facet]]:
        keys = set(keys)
        if not keys <= self._label_facets.keys():
            self._label_facets.update(self.engine.labels)
        return {k: self._label_facets[k] for k in keys if k in self._label_facets}

    def _label_of_sources(self, source_keys: Sequence[int], turns: Mapping[int, StoredTurn]) -> int | None:
        """The label of an object: its source's, or the union of its sources' (interned)."""
        if len(source_keys) == 1:
            turn = turns.get(source_keys[0])
            return turn.label_key if turn is not None else None
        labels = {turns[k].label_key for k in source_keys if k in turns}
        if None in labels or not labels:
            return None
        if len(labels) == 1:
            return labels.pop()
        facets = self._facets_of(labels)
        return self._intern([frozenset().union(*facets.values())])[0]

    def _relabel_if_needed(self) -> None:
        """Label every stored turn again when what labelling depends on has changed."""
        labeler = self.labeler()
        if self.store.get_meta("labeled_with") != labeler.fingerprint:
            if self.store.counts_of("turns"):
                self._relabel(labeler)
            self.store.set_meta("labeled_with", labeler.fingerprint)

    def relabel(self) -> int:
        """Label every turn and object again (after changing principals or names); returns turns done."""
        with self._write():
            done = self._relabel(self.labeler())
        return done

    def _relabel(self, labeler: Labeler) -> int:
        previous: dict[str, frozenset[str]] = {}
        done = 0
        with self._write():
            for batch in self.store.iter_turns():
                labels = self._store_labels(self._prepare_labels(labeler, [t.turn for t in batch], previous))
                self.store.set_turn_labels(
                    [(t.turn_key, label, spans) for t, (label, spans) in zip(batch, labels, strict=True)]
                )
                done += len(batch)
            updates = []
            for object_key, labels in self.store.source_labels():
                unique = set(labels)
                if len(unique) == 1:
                    updates.append((object_key, unique.pop()))
                else:
                    facets = self._facets_of(unique)
                    updates.append((object_key, self._intern([frozenset().union(*facets.values())])[0]))
            self.store.set_object_labels(updates)
            self.store.set_meta("labeled_with", labeler.fingerprint)
        self.retriever.reset()
        return done

    def ingest_episodes(
        self, episodes: Iterable[Episode], progress: Callable[[int], None] | None = None
    ) -> WriteReport:
        """Store episodes (principals, relationships, turns) in one transaction."""
        episodes = list(episodes)
        with self._write():
            self.add_principals(p for e in episodes for p in e.principals)
            self.add_relationships(r for e in episodes for r in e.relationships)
            return self.ingest_many([t for e in episodes for t in e.turns], progress)

    def delete_turns(self, turn_ids: Sequence[str], episode_id: str = "default") -> WriteReport:
        """Delete turns and, by closure, every object derived from them.

        Objects that also drew on surviving turns (a session window) are derived
        again from the survivors. This is the primitive that forgetting builds on.
        """
        report, changes = WriteReport(), _Changes()
        with self._write():
            report.turns = self._delete_turns(turn_ids, episode_id, changes)
            report.turn_ids = list(turn_ids)
        return self._publish(report, changes)

    def _delete_turns(self, turn_ids: Sequence[str], episode_id: str, changes: _Changes) -> int:
        """Closure deletion inside the caller's transaction; while a deletion request's
        ledger is open, the hash of each deleted turn's text goes into it first."""
        keys = self.store.turn_keys(episode_id, list(turn_ids))
        missing = [t for t in turn_ids if t not in keys]
        if missing:
            raise InputError(f"no turn {missing[0]!r} in episode {episode_id!r}")
        deleted = frozenset(keys.values())
        gone = self.store.turns_by_keys(deleted)
        self.store.add_deleted_turns(
            [(episode_id, s.turn.turn_id, text_digest(s.turn.text)) for s in gone], utc_now()
        )
        if changes.ledger is not None:
            for stored in gone:
                changes.ledger.deleted[stored.turn.turn_id] = sha256_text(stored.turn.text)
        self._close_over(deleted, deleted, changes)
        return len(deleted)

    def forget_request(
        self,
        text: str,
        requested_by: str,
        episode_id: str = "default",
        *,
        budget: int | None = None,
        audit: AuditBudget | None = None,
        selector: Selector | None = None,
        at: str | None = None,
    ) -> WriteReport:
        """Forget what a deletion request in words asks for: the disclosure and its
        evidence trail, found by the planner, deleted by closure, audited, receipted.

        One transaction: the plan, the deletion of every derived object, the audit's
        further rounds and the signed receipt commit together or not at all. The
        receipt (on the report, and in :meth:`receipts`) holds ids and SHA-256 digests,
        never text; the request text itself is kept only as its digest.
        """
        changes = _Changes()
        with self._write():
            changes.ledger = ledger = ErasureLedger()
            try:
                outcome = run_request(
                    self,
                    text,
                    requested_by,
                    episode_id,
                    budget=budget,
                    audit=audit,
                    selector=selector,
                    delete=lambda ids: self._delete_turns(ids, episode_id, changes),
                )
            finally:
                changes.ledger = None
            event = self.store.record_event(
                "deletion_request",
                {
                    "request_sha256": sha256_text(text),
                    "episode_id": episode_id,
                    "requested_by": requested_by,
                    "turns_deleted": len(outcome.deleted),
                },
                normalize_timestamp(at, "at"),
                utc_now(),
            )
            body = request_receipt(
                ledger,
                outcome,
                store_id=self._store_id(),
                request_text=text,
                requested_by=requested_by,
                episode_id=episode_id,
                at=at,
                issued_at=utc_now() + "Z",
                objects_added=[f"{kind}-{key}" for key, kind, _, _ in changes.added],
            )
            receipt = sign(body, self._signing_key())
            self.store.add_receipt(receipt, event)
        report = WriteReport(turns=len(outcome.deleted), turn_ids=list(outcome.deleted), receipt=receipt)
        report.plan = outcome.plan
        report.audit = outcome.audit
        return self._publish(report, changes)

    def _govern(
        self,
        turns: Sequence[Turn],
        keys: Sequence[int],
        changes: _Changes,
        requests: Sequence[tuple[int, DeletionRequest]] | None = None,
    ) -> None:
        """Act on what new turns say: deletion requests (read again unless given) are
        carried out (each over the turns up to it), and forgotten items are erased from
        every new turn."""
        if requests is None:
            requests = interpret_all(self.interpreter, turns) if self.interpreter is not None else []
        for index, request in requests:
            tombstones = Tombstones.of_items(request.items)
            if tombstones:
                turn = turns[index]
                self._forget(
                    tombstones,
                    request.items,
                    turn.episode_id,
                    request.requested_by,
                    keys[index],
                    request.kinds,
                    turn.timestamp,
                    changes,
                    source="interpreter",
                    through_turn=turn.turn_id,
                )
        self._end_access(turns, keys)
        by_episode: dict[str, list[int]] = {}
        for turn, key in zip(turns, keys, strict=True):
            by_episode.setdefault(turn.episode_id, []).append(key)
        for episode_id, episode_keys in by_episode.items():
            entries, _ = self.store.tombstones(episode_id)
            if entries:
                self._erase(Tombstones(entries), episode_keys, changes)

    def _end_access(self, turns: Sequence[Turn], keys: Sequence[int]) -> None:
        """End the relationships that new turns say have ended ("Nina's family access is
        revoked"), from each turn's time on, or from the time a scheduled end gives
        ("coverage ends Sunday 8:00 PM"); each ending is a governance event."""
        found = [(turn, key, endings_in(turn.text)) for turn, key in zip(turns, keys, strict=True)]
        found = [(turn, key, endings) for turn, key, endings in found if endings and turn.timestamp]
        if not found:
            return
        labeler = self.labeler()
        spans = self.store.turn_spans([key for _, key, _ in found])
        for turn, key, endings in found:
            labels = [label for _, _, label in spans[key][2]] if key in spans else []
            about = frozenset(s for facets in self._facets_of(labels).values() for s, _ in facets if s)
            for ending in endings:
                ended = relationships_ended(
                    ending, turn.speaker, labeler, self.store.relationships(), turn.timestamp, about
                )
                if not ended:
                    continue
                self.store.put_relationships(ended)
                self.store.record_event(
                    "access_ended",
                    {"relationships": [[r.type, r.principal_id, r.target_id] for r in ended]},
                    ended[0].valid_until,  # when it takes effect: now, or the time it was scheduled for
                    utc_now(),
                    source="interpreter",
                    source_turn_key=key,
                )

    def forget(
        self,
        items: Sequence[str],
        episode_id: str = "default",
        requested_by: str | None = None,
        *,
        through_turn: str | None = None,
        kinds: Sequence[str] = (),
        at: str | None = None,
    ) -> WriteReport:
        """Erase every sentence that holds one of ``items`` from the episode's turns.

        Sentences are erased from the stored text, or only the clauses holding an item
        when it is a code beside plain clock times (:func:`erasure.erase`; a turn left
        with nothing is deleted); what remains keeps its labels; every object derived
        from a changed turn is derived again, so windows, summaries, facts, index
        entries, vectors and cached LLM replies lose the item too. ``through_turn``
        limits erasure to turns up to that one (a request covers what was said
        before it). The items are remembered only as tombstones (digests), which
        keep them out of turns ingested later; ``kinds`` ("PIN", "phone number")
        say what sort of thing they were. The report carries the request's signed
        ``receipt`` (digests of what went, never text; :meth:`receipts` lists them all).
        """
        tombstones = Tombstones.of_items(items)
        if not tombstones:
            raise InputError(f"nothing to forget: items need at least {MIN_ITEM_CHARS} characters")
        with self._write():
            if requested_by is not None:
                resolve_requester(self.store, requested_by)
            through = None
            if through_turn is not None:
                keys = self.store.turn_keys(episode_id, [through_turn])
                if not keys:
                    raise InputError(f"no turn {through_turn!r} in episode {episode_id!r}")
                through = keys[through_turn]
            changes = _Changes()
            report = self._forget(
                tombstones,
                items,
                episode_id,
                requested_by,
                through,
                kinds,
                at,
                changes,
                through_turn=through_turn,
            )
        return self._publish(report, changes)

    def _forget(
        self,
        tombstones: Tombstones,
        items: Sequence[str],
        episode_id: str,
        requested_by: str | None,
        through: int | None,
        kinds: Sequence[str],
        at: str | None,
        changes: _Changes,
        source: str = "api",
        through_turn: str | None = None,
    ) -> WriteReport:
        event = self.store.record_event(  # first: the request's own turn may go
            "deletion",
            {
                "items_sha256": sorted(d for _, d in tombstones.entries),
                "kinds": sorted(kinds),
                "episode_id": episode_id,
                "requested_by": requested_by,
            },
            at,
            utc_now(),
            source=source,
            source_turn_key=through,
        )
        candidates = self.store.turns_containing(episode_id, longest_tokens(items), through)
        added_before = len(changes.added)
        changes.ledger = ledger = ErasureLedger()
        try:
            report = self._erase(tombstones, candidates, changes)
        finally:
            changes.ledger = None
        self.store.add_tombstones(tombstones.entries, episode_id, kinds, event)
        receipt = Receipt.of(
            ledger,
            store_id=self._store_id(),
            request={
                "requested_by": requested_by,
                "episode_id": episode_id,
                "items_sha256": sorted(d for _, d in tombstones.entries),
                "kinds": sorted(kinds),
                "through_turn": through_turn,
                "at": at,
            },
            issued_at=utc_now() + "Z",
            objects_added=[f"{kind}-{key}" for key, kind, _, _ in changes.added[added_before:]],
            tombstones_added=len(tombstones.entries),
        )
        report.receipt = sign(receipt, self._signing_key())
        self.store.add_receipt(report.receipt, event)
        return report

    def _erase(self, tombstones: Tombstones, turn_keys: Sequence[int], changes: _Changes) -> WriteReport:
        """Erase the sentences (or clauses) holding a tombstoned item from these turns and derive
        again every object drawn from a changed turn."""
        report = WriteReport()
        rewrites, emptied = [], []
        kept_parts: dict[int, tuple[tuple[int, int, int], ...]] = {}
        ledger, hashes = changes.ledger, {}  # hashes: key -> (before, after or None)
        apart = self.labeler().erasable_apart
        for key, (_, text, spans) in self.store.turn_spans(turn_keys).items():
            erasure = erase(text, tombstones, apart)
            if erasure is None:
                continue
            if ledger is not None:  # while the text is still here
                hashes[key] = (sha256_text(text), None if erasure.empty else sha256_text(erasure.text))
                ledger.collateral += collateral_sentences(text, erasure, tombstones)
            if erasure.empty:
                emptied.append(key)
                continue
            moved = moved_spans(spans, erasure)
            kept_parts[key] = erasure.kept
            facets = self._facets_of(label for _, _, label in moved)
            label = self._intern([frozenset().union(*facets.values())])[0] if facets else None
            spans_json = "[" + ",".join(f"[{a},{b},{c}]" for a, b, c in moved) + "]"
            rewrites.append((key, erasure.text, label, spans_json))
        if not rewrites and not emptied:
            return report
        changed = frozenset(key for key, *_ in rewrites) | frozenset(emptied)
        if ledger is not None:
            for stored in self.store.turns_by_keys(changed):
                before, after = hashes[stored.turn_key]
                if after is None:
                    ledger.deleted[stored.turn.turn_id] = before
                else:
                    ledger.rewritten[stored.turn.turn_id] = (before, after)
        self.store.rewrite_turns(rewrites)
        for key, kept in kept_parts.items():  # superseded statements follow their words
            self.store.move_statements(key, kept)
        for key in changed:  # their vectors were of the old text
            changes.turn_vectors.pop(key, None)
        self._close_over(changed, frozenset(emptied), changes)
        report.turns = len(changed)
        return report

    def _close_over(self, changed: frozenset[int], gone: frozenset[int], changes: _Changes) -> None:
        """Closure after turns changed or go: every object drawn from a ``changed`` turn
        is derived again without the ``gone`` ones, objects still drawn from a gone turn
        are deleted, then the gone turns (and the cached LLM replies drawn from them)."""
        derived = self.store.objects_derived_from(changed)
        for deriver in self.derivers:
            groups = {group for _, kind, group in derived if kind == deriver.kind}
            if groups:
                self._rederive(deriver, groups, {}, gone, changes)
        if gone:
            stale = sorted({key for key, _, _ in self.store.objects_derived_from(gone)})
            self._drop_objects(stale, changes)
            self.store.delete_turns(sorted(gone))
        changes.erased = True

    def _rederive(
        self,
        deriver: Deriver,
        group_ids: set[str],
        known: dict[int, StoredTurn],
        excluded: frozenset[int],
        changes: _Changes,
        inserted: set[int] | None = None,
        derived: set[str] = frozenset(),
    ) -> None:
        """Replace the objects of ``group_ids`` whose text or sources changed.

        A group whose members were all ``inserted`` by the current call, and that
        the call has not ``derived`` yet, has no objects: they are not looked up.
        """
        members = deriver.members(self.store, group_ids, known)
        if not deriver.verbatim and self.store.has_revocation_state():
            # a summary or fact states what is current: superseded turns and statements stay out of it
            keys = [t.turn_key for turns in members.values() for t in turns]
            excluded = excluded | self.store.superseded_keys(keys, "9999")
            members = _without_superseded_statements(members, self.store.superseded_statements(keys, "9999"))
        drafts: list[ObjectDraft] = []
        for group_id, turns in members.items():
            survivors = [t for t in turns if t.turn_key not in excluded] if excluded else turns
            drafts.extend(deriver.derive(group_id, survivors))
        if inserted is None:
            stored_groups = list(members)
        else:
            older = {group for group, turns in members.items() for t in turns if t.turn_key not in inserted}
            stored_groups = [group for group in members if group in derived or group in older]
        existing = {
            (group, text, sources): key
            for key, group, text, sources in self.store.objects_in_groups(deriver.kind, stored_groups)
        }
        fresh = drafts
        if existing:  # keep the objects whose text and sources are unchanged
            fresh = []
            for draft in drafts:
                signature = (draft.group_id, draft.text, tuple(sorted(set(draft.source_keys))))
                if existing.pop(signature, None) is None:
                    fresh.append(draft)
        self._drop_objects(sorted(existing.values()), changes)
        turns = {t.turn_key: t for group in members.values() for t in group}
        labels = [
            turns[d.source_keys[0]].label_key
            if len(d.source_keys) == 1 and d.source_keys[0] in turns
            else self._label_of_sources(d.source_keys, turns)
            for d in fresh
        ]
        vectors = self._vectors(fresh, turns, changes.turn_vectors)
        keys = self.store.insert_objects(fresh, vectors, labels)
        changes.added.extend(
            (key, d.kind, d.observed_at, label) for key, d, label in zip(keys, fresh, labels, strict=True)
        )
        changes.vectors.append(vectors)

    def _drop_objects(self, keys: Sequence[int], changes: _Changes) -> None:
        """Delete objects; while a deletion request runs, its ledger keeps their text's hash."""
        if changes.ledger is not None and keys:
            for obj in self.store.get_objects(keys).values():
                changes.ledger.removed[obj.object_id] = sha256_text(obj.text)
        self.store.delete_objects(keys)
        changes.removed.extend(keys)

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
        """After commit: bring the in-memory index in step with the store, and after an
        erasure copy the log into the database file and truncate it (the log still holds
        the pages as they were before, erased text included)."""
        if changes.erased:
            self.store.checkpoint()
        removed = set(changes.removed)
        self.retriever.removed(sorted(removed))
        if changes.added:
            vectors = np.concatenate(changes.vectors)
            live = [i for i, added in enumerate(changes.added) if added[0] not in removed]
            keys, kinds, observed, labels = (
                zip(*(changes.added[i] for i in live), strict=True) if live else ((), (), (), ())
            )
            self.retriever.added(list(keys), vectors[live], list(kinds), list(observed), list(labels))
        report.objects_added = len(live) if changes.added else 0
        report.objects_removed = len(removed - {added[0] for added in changes.added})
        return report

    # reads

    def recall(
        self,
        requester: str,
        query: str,
        k: int = 10,
        as_of: str | None = None,
        design: str | Sequence[str] | None = None,
        include_revoked: bool = False,
    ) -> RecallResult:
        """The memory ``requester`` may see that best answers ``query``.

        ``design`` restricts recall to one design or several (default: all). Records
        no longer current at the read (``as_of``, default now) are withheld and listed
        in ``result.withheld`` with their reason; ``include_revoked=True`` (an audit
        read, for principals added with :meth:`add_auditor`) returns them marked.
        """
        kinds = self._kinds(design)
        self._check_audit(requester, include_revoked)
        return recall(
            self.store,
            self.retriever,
            self.authorizer,
            requester,
            query,
            k,
            as_of,
            kinds,
            self.audit,
            self.revocation,
            include_revoked,
        )

    def _check_audit(self, requester: str, include_revoked: bool) -> None:
        if include_revoked and not self.store.is_auditor(
            resolve_requester(self.store, requester).principal_id
        ):
            raise PolicyError(
                f"{requester!r} may not read revoked history: only auditors can (see add_auditor)"
            )

    def add_auditor(self, principal_id: str) -> None:
        """Let a principal make audit reads (``include_revoked=True``); what they may read
        is still decided by the policy pack."""
        resolve_requester(self.store, principal_id)
        with self._write():
            self.store.record_event("auditor", {"principal_id": principal_id}, None, utc_now())
            self.store.add_auditor(principal_id)

    def remember(
        self,
        author: str,
        note: str,
        derived_from: Sequence[str] = (),
        *,
        episode_id: str = "default",
        turn_id: str | None = None,
        timestamp: str | None = None,
    ) -> WriteReport:
        """Store an agent's write-back ``note`` (a turn of kind ``note`` by ``author``)
        with the records it was derived from: object ids (``turn-12``, ``session-40``)
        or turn ids of ``episode_id``. While any of them is not current, the note is
        withheld as stale, also when they are superseded after the note was written."""
        sources = self._source_keys(author, derived_from, episode_id)
        turn_id = turn_id or f"note-{self.store.counts_of('turns') + 1}-{len(note)}"
        with self._write():
            report = self.ingest_many([Turn(turn_id, author, note, episode_id, timestamp, "note")])
            key = self.store.turn_keys(episode_id, [turn_id])[turn_id]
            self.store.add_derivations(key, sources)
        return report

    def _source_keys(self, author: str, references: Sequence[str], episode_id: str) -> set[int]:
        """Turn keys behind object ids or turn ids, as ``author`` was shown them (a window
        seen redacted stands for its readable turns only). A reference that is unknown, or
        that the author may not read any of, is the same error, for the first such one in
        the order given: a write must not tell its author whether unseen memory exists."""
        principal = self.store.get_principal(author) if isinstance(author, str) else None
        if principal is None and references:
            raise UnknownPrincipal(str(author), "author")
        at = utc_now()
        by_reference: dict[str, set[int]] = {}
        turn_ids = []
        for reference in references:
            key = _object_key(reference)
            found = self.store.get_objects([key]) if key is not None and "-" in reference else {}
            if key not in found:
                turn_ids.append(reference)
                continue
            (review,) = self.authorizer.review(self.store, principal, [found[key]], at)
            if review.visible is not None:
                shown = self.store.turn_keys(found[key].episode_id, list(review.visible.sources))
                by_reference[reference] = set(shown.values())
        if turn_ids:
            found_turns = self.store.turn_keys(episode_id, turn_ids)
            readable = self.authorizer.readable_turns(
                self.store, principal, found_turns.values(), at, whole=False
            )
            for turn_id, key in found_turns.items():
                if key in readable:
                    by_reference[turn_id] = {key}
        for reference in references:
            if reference not in by_reference:
                raise _unknown_source(reference, episode_id)
        return {key for keys in by_reference.values() for key in keys}

    def conflicts(self) -> list[dict]:
        """Every unresolved conflict: pairs of turns that contradict each other with no order."""
        return [
            {"turns": [ta, tb], "reasons": reasons} for _, _, ta, tb, reasons in self.store.conflicts_among()
        ]

    def validity(self, turn_id: str, episode_id: str = "default", at: str | None = None) -> dict:
        """A turn's status at ``at`` (default now), its valid-time interval and what superseded it."""
        keys = self.store.turn_keys(episode_id, [turn_id])
        if not keys:
            raise InputError(f"no turn {turn_id!r} in episode {episode_id!r}")
        at = normalize_timestamp(at, "at") or utc_now()
        status = self.revocation.source_statuses([keys[turn_id]], at)[keys[turn_id]]
        return {
            "turn_id": turn_id,
            "status": status.status,
            "valid_until": status.valid_until,
            "superseded_by": list(status.superseded_by),
            "reason": status.reason,
        }

    def get(
        self, requester: str, object_id: str, as_of: str | None = None, include_revoked: bool = False
    ) -> RecallItem:
        """One memory object by id, as ``requester`` may see it.

        A missing object and one the requester may not see raise the same
        :class:`NotVisible`, so the error confirms nothing; both are logged. An object
        no longer current raises it too, except in an audit read (``include_revoked``).
        """
        principal = resolve_requester(self.store, requester)
        self._check_audit(requester, include_revoked)
        as_of = normalize_timestamp(as_of, "as_of")
        key = _object_key(object_id)
        with self.store.snapshot():
            found = self.store.get_objects([key]) if key is not None else {}
            visible, withheld, rules = self._review(principal, list(found.values()), as_of, include_revoked)
        visible = [obj for obj in visible if obj[0].object_id == object_id]
        self._log(principal, "get", [obj for obj, _, _ in visible], withheld, rules, as_of)
        if not visible:
            raise NotVisible(object_id, requester)
        return item_of(visible[0][0], None, visible[0][1], visible[0][2])

    def export(
        self,
        requester: str,
        design: str | Sequence[str] | None = None,
        as_of: str | None = None,
        include_revoked: bool = False,
    ) -> Iterator[RecallItem]:
        """Every current memory object ``requester`` may see (redacted where needed), in
        key order; with ``include_revoked`` (auditors) history too, marked.

        One decision-log entry covers the whole export, written when it ends.
        """
        principal = resolve_requester(self.store, requester)
        self._check_audit(requester, include_revoked)
        as_of = normalize_timestamp(as_of, "as_of")
        kinds = self._kinds(design)
        returned: list[MemoryObject] = []
        withheld: list[dict] = []
        rules: set[str] = set()
        after = 0
        try:
            while True:
                with self.store.snapshot():
                    keys = self.store.object_keys(after, 512, kinds)
                    found = self.store.get_objects(keys)
                    page, page_withheld, page_rules = self._review(
                        principal, [found[k] for k in keys if k in found], as_of, include_revoked
                    )
                if not keys:
                    break
                returned.extend(obj for obj, _, _ in page)
                withheld.extend(page_withheld)
                rules.update(page_rules)
                yield from (item_of(obj, None, status, said) for obj, status, said in page)
                after = keys[-1]
        finally:
            self._log(principal, "export", returned, withheld, sorted(rules), as_of)

    def _review(
        self,
        principal: Principal,
        objects: list[MemoryObject],
        as_of: str | None,
        include_revoked: bool = False,
    ) -> tuple[list[tuple[MemoryObject, ObjectStatus | None, tuple[dict, ...]]], list[dict], list[str]]:
        """The one authorization and validity step of every read surface other than recall:
        (object, status, superseded statements) of what may be shown."""
        at = as_of or utc_now()
        successors = SuccessorView(self.store, self.authorizer, principal, at)
        validated = withhold_revoked(
            self.store,
            self.authorizer,
            self.revocation,
            principal,
            [(None, o) for o in objects],
            at,
            include_revoked,
            successors,
        )
        objects = [obj for _, obj in validated.kept]
        reviews = self.authorizer.review(self.store, principal, objects, at)
        shown = [(None, r) for r in reviews if r.visible is not None]
        shown, statements, cut, cut_unreported = cut_superseded_statements(
            self.revocation, shown, at, include_revoked, successors
        )
        visible = [
            (r.visible, validated.statuses.get(r.visible.object_id), statements.get(r.visible.object_id, ()))
            for _, r in shown
        ]
        withheld = [
            {"object_id": obj.object_id, "redacted": r.visible is not None, "rules": list(r.rules)}
            for obj, r in zip(objects, reviews, strict=True)
            if r.redacted
        ]
        withheld += [
            {"object_id": w["object_id"], "redacted": False, "rules": [w["reason"]]}
            for w in [*validated.withheld, *validated.unreported, *cut, *cut_unreported]
        ]
        return visible, withheld, sorted({rule for r in reviews for rule in r.rules})

    def _log(
        self,
        principal: Principal,
        surface: str,
        visible: Sequence[MemoryObject],
        withheld: list[dict],
        rules: Sequence[str],
        as_of: str | None,
    ) -> None:
        redacted = any(w["redacted"] for w in withheld)
        action = "answer_redacted" if redacted else "answer" if visible else "no_memory"
        self.audit.record(
            principal, surface, action, [o.object_id for o in visible], withheld, rules, None, as_of
        )

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

    def derived_from(self, requester: str, turn_id: str, episode_id: str = "default") -> list[MemoryObject]:
        """Every memory object whose sources include this turn (one indexed query), as
        ``requester`` may see them.

        A turn the requester can see nothing of is reported exactly like a missing one.
        """
        principal = resolve_requester(self.store, requester)
        with self.store.snapshot():
            keys = self.store.turn_keys(episode_id, [turn_id])
            derived = self.store.objects_derived_from(keys.values()) if keys else []
            found = self.store.get_objects([key for key, _, _ in derived])
            visible, withheld, rules = self._review(
                principal, [found[k] for k, _, _ in derived if k in found], None
            )
        self._log(principal, "provenance", [obj for obj, _, _ in visible], withheld, rules, None)
        if not visible:
            raise InputError(f"no turn {turn_id!r} in episode {episode_id!r}")
        return [obj for obj, _, _ in visible]

    def decisions(self, limit: int = 100) -> list[dict]:
        """The latest entries of the decision log, newest first."""
        return self.audit.recent(limit)

    def stats(self) -> dict[str, Any]:
        return {
            "path": self.store.path,
            "schema_version": self.store.schema_version,
            "driver": self.store.db.driver,
            "sqlite_version": self.store.db.sqlite_version,
            "embedder": self.embedder.name,
            "designs": list(self.designs),
            "policy": self.pack.name,
            "counts": self.store.counts(),
        }
