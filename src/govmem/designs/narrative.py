"""Narrative memory (Nemori style): topic episodes retold, plus their semantic facts.

Each session (group ``session/(episode, session)``) is cut into topic segments:
a turn joins the running segment while its cosine similarity to the segment's
centroid (the normalised mean of the segment's turn vectors) stays at or above
``threshold`` and the segment holds fewer than ``max_turns`` turns; otherwise
it starts the next one. Each segment gives

- a narrative, its turns retold in the third person by a
  :class:`NarrativeWriter` ("On 2026-03-09, ana told bo that ..."), whose
  sources are the segment's turns;
- its semantic facts: the :class:`FactExtractor` facts of the segment's turns,
  merged per (subject, attribute) as in the fact design (latest value wins),
  each with the segment turns that stated it as sources.

Every turn of a session is a source of its segment's narrative, so deleting
any turn derives the whole session again from its survivors: segments, their
narratives and facts depend only on the turns that remain.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np

from govmem.designs.base import ProvenanceMembers, TurnMemo, group_id_of, latest_timestamp
from govmem.designs.fact import FactsOf, fact_key, fact_text, merge_facts
from govmem.designs.writers import (
    ExtractedFact,
    FactExtractor,
    NarrativeWriter,
    RuleFactExtractor,
    TemplateNarrativeWriter,
)
from govmem.errors import InputError
from govmem.models import ObjectDraft, StoredTurn
from govmem.retrieval.embedders import Embedder
from govmem.store.base import Store

SESSION = "session"


def segment(vectors: np.ndarray, threshold: float = 0.1, max_turns: int = 8) -> list[range]:
    """Consecutive rows cut into segments where similarity to the running centroid drops.

    ``vectors`` are unit rows in stream order. Row ``i`` joins the current segment
    when the cosine of row ``i`` and the segment's (normalised) mean is at least
    ``threshold`` and the segment has fewer than ``max_turns`` rows.
    """
    if max_turns < 1:
        raise ValueError("a segment holds at least one turn")
    segments: list[range] = []
    start = 0
    total = np.zeros(vectors.shape[1] if vectors.ndim == 2 else 0, dtype=np.float64)
    for i in range(len(vectors)):
        row = vectors[i].astype(np.float64)
        if i > start:
            norm = float(np.linalg.norm(total))
            similarity = float(row @ total) / norm if norm > 0 else 0.0
            if similarity < threshold or i - start >= max_turns:
                segments.append(range(start, i))
                start = i
                total = np.zeros_like(total)
        total += row
    if len(vectors):
        segments.append(range(start, len(vectors)))
    return segments


def _session_group(turn: StoredTurn) -> Iterator[str]:
    yield group_id_of(SESSION, turn.turn.episode_id, turn.session_id)


class NarrativeDeriver:
    """Topic segments of each session, retold, with their facts.

    ``embedder`` segments the stream (required: :func:`govmem.designs.make_derivers`
    passes the store's); ``writer`` retells a segment (default: template);
    ``extractor`` finds its facts (default: rules); ``threshold`` and
    ``max_turns`` shape the segments (see :func:`segment`).
    """

    kind = "narrative"
    verbatim = False  # a narrative is withheld whole when any of its sources is denied

    def __init__(
        self,
        embedder: Embedder | None = None,
        writer: NarrativeWriter | None = None,
        extractor: FactExtractor | None = None,
        threshold: float = 0.1,
        max_turns: int = 8,
    ):
        if max_turns < 1:
            raise ValueError("a segment holds at least one turn")
        self.embedder = embedder
        self.writer = writer or TemplateNarrativeWriter()
        self.extractor = extractor or RuleFactExtractor()
        self.threshold = threshold
        self.max_turns = max_turns
        self._facts = FactsOf(self.extractor)
        self._members = ProvenanceMembers(self.kind, _session_group)
        self._vectors: TurnMemo[np.ndarray] = TurnMemo()

    def groups_of(self, turns: Iterable[StoredTurn]) -> set[str]:
        return self._members.groups_of(turns)

    def members(
        self, store: Store, group_ids: set[str], known: Mapping[int, StoredTurn]
    ) -> dict[str, list[StoredTurn]]:
        groups = self._members.members(store, group_ids, known)
        self._embed([t for turns in groups.values() for t in turns])  # one batch for all
        return groups

    def _embed(self, turns: Sequence[StoredTurn]) -> np.ndarray:
        """Unit vectors of the turns' texts, memoised per turn (a session derived again is not
        embedded again) and forgotten with the turn."""
        if self.embedder is None:
            raise InputError(
                "memory design 'narrative' needs an embedder to find topic segments "
                "(make_derivers(names, embedder=...))"
            )
        vectors = [self._vectors.get(t) for t in turns]
        missing = [i for i, v in enumerate(vectors) if v is None]
        if missing:
            embedded = self.embedder.embed_documents([turns[i].turn.text for i in missing])
            for i, vector in zip(missing, embedded, strict=True):
                vectors[i] = self._vectors.put(turns[i], vector)
        if not turns:
            return np.zeros((0, self.embedder.dim), np.float32)
        return np.stack(vectors)  # type: ignore[arg-type]

    def derive(self, group_id: str, turns: Sequence[StoredTurn]) -> list[ObjectDraft]:
        dropped = self._members.dropped(group_id, turns)
        self._facts.memo.forget(dropped)
        self._vectors.forget(dropped)
        if not turns:
            return []
        vectors = self._embed(turns)
        drafts: list[ObjectDraft] = []
        for part in segment(vectors, self.threshold, self.max_turns):
            drafts.extend(self._segment_objects(group_id, turns[part.start : part.stop]))
        return drafts

    def _segment_objects(self, group_id: str, turns: Sequence[StoredTurn]) -> list[ObjectDraft]:
        episode_id = turns[0].turn.episode_id
        day = next((t.turn.timestamp[:10] for t in turns if t.turn.timestamp), None)
        sources = tuple(t.turn_key for t in turns)
        narrative = self.writer.narrate(
            f"On {day}" if day else "In an undated conversation",
            [f"{t.turn.speaker}: {t.turn.text}" for t in turns],
            sources,
        )
        # A narrative retells its turns, so its vector is theirs pooled (the api has
        # them at hand) rather than its own text's; a fact is embedded as written.
        drafts = [
            ObjectDraft(self.kind, group_id, episode_id, narrative, sources, latest_timestamp(turns), False)
        ]
        stated: dict[tuple[str, str], list[tuple[StoredTurn, ExtractedFact]]] = {}
        for turn in turns:
            for fact in self._facts(turn):
                stated.setdefault(fact_key(fact), []).append((turn, fact))
        for entries in stated.values():
            fact, fact_sources, observed = merge_facts(entries)
            drafts.append(
                ObjectDraft(self.kind, group_id, episode_id, fact_text(fact), fact_sources, observed, True)
            )
        return drafts
