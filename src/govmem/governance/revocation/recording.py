"""Recording supersessions and conflicts in the store, explicit or detected at ingest."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from govmem.governance.revocation.claim_supersession import (
    ClaimRecord,
    Subjects,
    find_claim_supersessions,
    revising_claims,
)
from govmem.governance.revocation.phrase_supersession import names_replaced_things
from govmem.governance.revocation.supersession import Record, SupersessionDetector
from govmem.models import StoredTurn
from govmem.store.sqlite_engine import SQLiteStore


@dataclass
class RevisionReport:
    """Supersessions and unresolved conflicts a write recorded, by turn id."""

    superseded: list[dict] = field(default_factory=list)
    conflicts: list[dict] = field(default_factory=list)
    superseded_keys: set[int] = field(default_factory=set)
    """Turns superseded whole."""
    revised_keys: set[int] = field(default_factory=set)
    """Turns with a statement superseded (the rest of the turn stays current)."""


def record_supersession(
    store: SQLiteStore,
    pairs: Sequence[tuple[StoredTurn, StoredTurn, str]],
    recorded_at: str,
    source: str,
    report: RevisionReport,
) -> None:
    """(old, new, reason) pairs: old stops being current when new becomes valid (its
    timestamp; else now). One governance event per pair, holding keys and reasons."""
    rows = []
    for old, new, reason in pairs:
        if old.turn_key == new.turn_key:
            continue
        at = new.turn.timestamp or recorded_at
        event = store.record_event(
            "supersession",
            {"old_turn_key": old.turn_key, "new_turn_key": new.turn_key, "reason": reason},
            at,
            recorded_at,
            source,
            new.turn_key,
        )
        rows.append((old.turn_key, new.turn_key, at, reason, event))
        report.superseded.append(
            {
                "episode_id": old.turn.episode_id,
                "old": old.turn.turn_id,
                "new": new.turn.turn_id,
                "from": at,
                "reason": reason,
            }
        )
        report.superseded_keys.add(old.turn_key)
    store.supersede_turns(rows)


def detect(
    store: SQLiteStore,
    detector: SupersessionDetector,
    stored: Sequence[StoredTurn],
    vectors: Mapping[int, np.ndarray],
    recorded_at: str,
    report: RevisionReport,
) -> None:
    """Check each new turn against the earlier turns of its episode; record what is found."""
    by_episode: dict[str, list[StoredTurn]] = {}
    for turn in stored:
        by_episode.setdefault(turn.turn.episode_id, []).append(turn)
    for episode_id, new in by_episode.items():
        first = min(t.turn_key for t in new)
        earlier_rows = store.episode_turn_texts(episode_id, before=first)
        gone = store.superseded_keys([key for key, _, _ in earlier_rows], "9999")
        earlier = [Record(k, at, text) for k, at, text in earlier_rows if k not in gone]
        fresh = [Record(t.turn_key, t.turn.timestamp, t.turn.text) for t in new]
        findings = detector.find(fresh, earlier, vectors)
        turns = {t.turn_key: t for t in new}
        needed = {k for f in findings for k in (f.older, f.newer)} - turns.keys()
        turns.update({t.turn_key: t for t in store.turns_by_keys(needed)})
        ordered = [
            (turns[f.older], turns[f.newer], "detected:" + "+".join(f.reasons)) for f in findings if f.ordered
        ]
        record_supersession(store, ordered, recorded_at, "detector", report)
        unordered = [f for f in findings if not f.ordered]
        store.add_conflicts([(f.older, f.newer, f.reasons, recorded_at) for f in unordered])
        for f in unordered:
            report.conflicts.append(
                {
                    "episode_id": episode_id,
                    "turns": [turns[f.older].turn.turn_id, turns[f.newer].turn.turn_id],
                    "reasons": list(f.reasons),
                }
            )


def detect_statements(
    store: SQLiteStore,
    stored: Sequence[StoredTurn],
    subjects: Subjects,
    recorded_at: str,
    report: RevisionReport,
) -> None:
    """Check the claims of each new turn against the claims of the earlier turns of its
    episode; record each superseded statement (a span of its turn) as a governance event."""
    by_episode: dict[str, list[StoredTurn]] = {}
    for turn in stored:
        by_episode.setdefault(turn.turn.episode_id, []).append(turn)
    for episode_id, new in by_episode.items():
        if not any(revising_claims(t.turn.text) or names_replaced_things(t.turn.text) for t in new):
            continue  # the common case: nothing in these turns says a value changed
        first = min(t.turn_key for t in new)
        earlier = [
            ClaimRecord(k, at, text, speaker)
            for k, at, text, speaker in store.episode_turn_texts(episode_id, before=first, speakers=True)
        ]
        fresh = [ClaimRecord(t.turn_key, t.turn.timestamp, t.turn.text, t.turn.speaker) for t in new]
        # statements superseded before are superseded again only from an earlier time (batch invariance)
        already = {
            (key, start): since
            for key, rows in store.superseded_statements([r.key for r in earlier], "9999").items()
            for start, _, _, since, *_ in rows
        }
        findings = find_claim_supersessions(fresh, earlier, subjects, already)
        if not findings:
            continue
        turns = {t.turn_key: t for t in new}
        needed = {k for f in findings for k in (f.older, f.newer)} - turns.keys()
        turns.update({t.turn_key: t for t in store.turns_by_keys(needed)})
        rows = []
        for f in findings:
            old, replacing = turns[f.older], turns[f.newer]
            at = replacing.turn.timestamp or recorded_at
            reason = "detected:" + "+".join(f.reasons)
            event = store.record_event(
                "supersession",
                {
                    "old_turn_key": f.older,
                    "span": [f.start, f.end],
                    "new_turn_key": f.newer,
                    "reason": reason,
                    "whole": f.whole,
                },
                at,
                recorded_at,
                "detector",
                f.newer,
            )
            rows.append((f.older, f.start, f.end, at, f.newer, reason, f.whole, event))
            report.superseded.append(
                {
                    "episode_id": episode_id,
                    "old": old.turn.turn_id,
                    "span": [f.start, f.end],
                    "new": replacing.turn.turn_id,
                    "from": at,
                    "reason": reason,
                    "whole": f.whole,
                }
            )
            report.revised_keys.add(f.older)
        store.supersede_statements(rows)
