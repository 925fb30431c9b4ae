"""Fact memory (LightMem / mem0 style): compressed atomic facts, no raw text kept.

A :class:`FactExtractor` reads (subject, attribute, value) triples off each turn
(first person resolves to the speaker). Facts merge by group
``fact/(episode, subject, attribute)`` (the subject case-folded): the group's
one object states the latest value, by timestamp then ingest order, as
``"Bo — address: 12 Oak St"``. Its sources are *all* the group's turns, the
superseded values' included, so deleting the latest turn derives the group
again and states the previous value, and a fact whose every source is gone is
deleted with the last of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from govmem.designs.base import ProvenanceMembers, TurnMemo, group_id_of, latest_timestamp
from govmem.designs.writers import ExtractedFact, FactExtractor, RuleFactExtractor
from govmem.models import ObjectDraft, StoredTurn
from govmem.store.base import Store

FACT = "fact"


def subject_key(subject: str) -> str:
    """The subject a fact is grouped under: case-folded, without dots, single spaces."""
    return " ".join(subject.replace(".", " ").split()).casefold()


def fact_text(fact: ExtractedFact) -> str:
    return f"{fact.subject} — {fact.attribute}: {fact.value}"


class FactsOf:
    """Each turn's facts from ``extractor``, memoised per turn (groups_of, members
    and derive all need them) and forgotten with the turn."""

    def __init__(self, extractor: FactExtractor):
        self.extractor = extractor
        self.memo: TurnMemo[tuple[ExtractedFact, ...]] = TurnMemo()

    def __call__(self, turn: StoredTurn) -> tuple[ExtractedFact, ...]:
        facts = self.memo.get(turn)
        if facts is None:
            t = turn.turn
            facts = self.memo.put(
                turn, tuple(self.extractor.extract(t.speaker, t.text, t.timestamp, (turn.turn_key,)))
            )
        return facts


def fact_key(fact: ExtractedFact) -> tuple[str, str]:
    """What facts merge by: the subject (see :func:`subject_key`) and the case-folded attribute."""
    return subject_key(fact.subject), " ".join(fact.attribute.split()).casefold()


def fact_group(episode_id: str, fact: ExtractedFact) -> str:
    return group_id_of(FACT, episode_id, *fact_key(fact))


def merge_facts(
    entries: Sequence[tuple[StoredTurn, ExtractedFact]],
) -> tuple[ExtractedFact, tuple[int, ...], str | None]:
    """The latest fact among ``entries`` (by timestamp, then ingest order), all their turn keys,
    and the latest timestamp."""
    latest = max(
        range(len(entries)), key=lambda i: (entries[i][0].turn.timestamp or "", entries[i][0].turn_key, i)
    )
    turns = [turn for turn, _ in entries]
    sources = tuple(sorted({t.turn_key for t in turns}))
    return entries[latest][1], sources, latest_timestamp(turns)


class FactDeriver:
    """One object per (episode, subject, attribute): the latest value, every stating turn as a source."""

    kind = "fact"
    verbatim = False  # a fact is withheld whole when any of its sources is denied

    def __init__(self, extractor: FactExtractor | None = None):
        self.extractor = extractor or RuleFactExtractor()
        self._facts = FactsOf(self.extractor)
        self._members = ProvenanceMembers(self.kind, self._groups_of_turn)

    def _groups_of_turn(self, turn: StoredTurn) -> Iterator[str]:
        for fact in self._facts(turn):
            yield fact_group(turn.turn.episode_id, fact)

    def groups_of(self, turns: Iterable[StoredTurn]) -> set[str]:
        return self._members.groups_of(turns)

    def members(
        self, store: Store, group_ids: set[str], known: Mapping[int, StoredTurn]
    ) -> dict[str, list[StoredTurn]]:
        return self._members.members(store, group_ids, known)

    def derive(self, group_id: str, turns: Sequence[StoredTurn]) -> list[ObjectDraft]:
        self._facts.memo.forget(self._members.dropped(group_id, turns))
        entries = [
            (turn, fact)
            for turn in turns
            for fact in self._facts(turn)
            if fact_group(turn.turn.episode_id, fact) == group_id
        ]
        if not entries:
            return []
        fact, sources, observed = merge_facts(entries)
        return [
            ObjectDraft(
                kind=self.kind,
                group_id=group_id,
                episode_id=entries[0][0].turn.episode_id,
                text=fact_text(fact),
                source_keys=sources,
                observed_at=observed,
                embed_text=True,
            )
        ]
