"""govmem's own reads: the validity of memory objects at read time.

An object is as current as its source turns: a turn is current unless it was
superseded or expired at or before the read (see :mod:`validity`), and a turn
derived from others (an agent's note) is ``stale`` while any of them is not
current. For an object with some sources no longer current:

- a verbatim design (turn, session window) is derived again from its current
  sources alone, so a window keeps its other turns;
- any other design (summary, fact, narrative) is withheld as ``stale`` until it is
  derived again without them (ingest does that when it records a supersession);
- an audit read keeps it, marked with its status.

A **statement** inside a turn can be superseded on its own (conversations: "the
follow-up moved to Thursday" supersedes the sentence that gave Tuesday). Its turn
stays current; every read cuts the statement's text out of the objects drawn from
the turn (or, when the statement also says something its replacement does not
restate, marks it in place as superseded) (:meth:`RevocationReview.cut_statements`, after authorization, so a
redacted copy derived again from the stored text loses it too), a turn left with
nothing else counts as superseded, summaries and facts are derived from the cut
text at ingest, and a note derived from the turn is ``stale``. An audit read keeps
the text and lists the statements, marked.

The same marks feed the :class:`~govmem.governance.revocation.guard.Guard`, the
one component that decides what is withheld, for govmem as for any backend.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from govmem.designs.base import Deriver
from govmem.governance.labeling import sentence_spans
from govmem.governance.revocation.guard import Guard, GuardRecord, GuardResult
from govmem.governance.revocation.validity import CURRENT, STALE, SUPERSEDED, Validity
from govmem.models import MemoryObject, StoredTurn
from govmem.store.base import Store

SEVERITY = {SUPERSEDED: 4, "expired": 3, STALE: 2, "pending": 1, CURRENT: 0}
HIDDEN_REASON = "superseded"
"""The reason given for a supersession by a turn the reader may not be told of."""


@dataclass(frozen=True)
class ObjectStatus:
    """The validity of one object as returned: its status and, when not current, why."""

    status: str = CURRENT
    superseded_by: tuple[str, ...] = ()
    valid_from: str | None = None
    valid_until: str | None = None
    reason: str = ""


@dataclass
class RevocationOutcome:
    kept: list[tuple[MemoryObject, ObjectStatus]]
    withheld: list[tuple[MemoryObject, ObjectStatus]]
    conflicts: list[dict]


class RevocationReview:
    """Validity of memory objects at read time, through the guard."""

    def __init__(self, store: Store, derivers: Mapping[str, Deriver]):
        self.store = store
        self.derivers = dict(derivers)
        self.guard = Guard(detect=False)  # detection already ran at ingest, over the whole episode

    def source_statuses(self, keys: Sequence[int], at: str) -> dict[int, ObjectStatus]:
        """Status of each source turn at ``at`` (turns without revocation state are current)."""
        rows = self.store.validity_rows(keys)
        ancestors = self.store.ancestors(keys)
        ancestor_keys = {a for found in ancestors.values() for a in found}
        ancestor_rows = self.store.validity_rows(ancestor_keys)
        cuts = self.store.superseded_statements([*keys, *ancestor_keys], at)
        emptied = self._emptied(cuts)
        statuses = {}
        for key in keys:
            valid_from, valid_until, superseded_at, by, reason = rows.get(key, (None, None, None, None, ""))
            validity = Validity(valid_from, valid_until, superseded_at, (by,) if by else (), reason)
            status = validity.status_at(at)
            if status == CURRENT and key in emptied:
                _, _, by, since, why, _ = next(c for c in cuts[key] if c[5])
                validity = Validity(valid_from, valid_until, since, (by,) if by else (), why)
                status, superseded_at, reason = SUPERSEDED, since, why
            if (
                status == CURRENT
                and any(
                    Validity(*ancestor_rows[a][:3]).status_at(at) != CURRENT
                    for a in ancestors.get(key, ())
                    if a in ancestor_rows
                )
            ) or any(a in cuts for a in ancestors.get(key, ())):
                status, reason = STALE, "derived-from-revoked-source"
            end = min((t for t in (valid_until, superseded_at) if t), default=None)
            statuses[key] = ObjectStatus(status, validity.superseded_by, valid_from, end, reason)
        return statuses

    def _emptied(self, cuts: Mapping[int, list[tuple]]) -> set[int]:
        """Turns whose every word is in a superseded statement."""
        if not cuts:
            return set()
        turns = self.store.turns_by_keys(sorted(cuts))
        emptied = set()
        for turn in turns:
            text = turn.turn.text
            for start, end, *_ in sorted((c for c in cuts[turn.turn_key] if c[5]), reverse=True):
                text = text[:start] + text[end:]
            if not text.strip():
                emptied.add(turn.turn_key)
        return emptied

    def cut_statements(
        self,
        objects: Sequence[MemoryObject],
        at: str,
        include_revoked: bool = False,
        shown: Callable[[str, str | None], bool] | None = None,
        change_readable: Callable[[str, str | None], bool] | None = None,
    ) -> list[tuple[MemoryObject, tuple[dict, ...]]]:
        """Each object with the superseded statements of its sources cut out of its text
        (marked instead when superseded in part; in an audit read: kept), and those
        statements (turn id, text, superseded_by, from, reason, whole).

        ``shown(episode, turn id)``: whether the reader may be told of a superseding turn.
        When not, the statement is listed without its successor, time and signals, and is
        cut with its whole sentence even if superseded in part (a mark would say a newer
        record exists), unless ``change_readable(episode, turn id)``: the reader may read
        what that turn says changed, so a mark tells them nothing they cannot read."""
        keys = sorted({k for obj in objects for k in obj.source_keys})
        cuts = (
            self.store.superseded_statements(keys, at) if keys and self.store.has_revocation_state() else {}
        )
        if not cuts:
            return [(obj, ()) for obj in objects]
        turns = {t.turn_key: t for t in self.store.turns_by_keys(sorted(cuts))}
        done = []
        for obj in objects:
            statements: list[dict] = []
            edits = []  # (start, end, new text) of the object's text, one per source turn edited
            regions: dict[tuple[int, int], list[int]] = {}
            for key, region in self._segments(obj, turns).items():
                regions.setdefault(region, []).append(key)
            for (a, b), keys_here in regions.items():
                part = obj.text[a:b]
                rows = [
                    (turns[k], row)
                    for k in keys_here
                    for row in _as_shown(turns[k], cuts.get(k, ()), shown, change_readable)
                ]
                for turn, (start, end, by, since, reason, whole) in sorted(rows, key=lambda r: not r[1][5]):
                    said = turn.turn.text[start:end].strip()
                    if not said or said not in part:
                        continue
                    statements.append(
                        {
                            "turn": turn.turn.turn_id,
                            "text": said,
                            "superseded_by": by,
                            "from": since,
                            "reason": reason,
                            "whole": whole,
                        }
                    )
                    if not include_revoked:
                        part = _without(part, said) if whole else part.replace(said, _marked(said))
                if part != obj.text[a:b]:
                    edits.append((a, b, part))
            text = obj.text
            for a, b, part in sorted(edits, reverse=True):
                text = closed_up(text[:a], part + text[b:], "") if a else part + text[b:]
            if text == obj.text:
                done.append((obj, tuple(statements)))
                continue
            changed = replace(obj, text=text)
            deriver = self.derivers.get(obj.kind)
            if not include_revoked and hasattr(deriver, "without_empty_lines"):
                # a window drops the line of a turn left with nothing to say, and names it no more
                cut_turns = [turns[k] for k in obj.source_keys if k in turns]
                window = self.store.turns_by_keys([k for k in obj.source_keys if k not in turns])
                text, dropped = deriver.without_empty_lines(text, cut_turns, window)
                if dropped:
                    ids = {turns[k].turn.turn_id for k in dropped}
                    changed = replace(
                        changed,
                        text=text,
                        sources=tuple(s for s in obj.sources if s not in ids),
                        source_keys=tuple(k for k in obj.source_keys if k not in dropped),
                    )
            done.append((changed, tuple(statements)))
        return done

    def _segments(self, obj: MemoryObject, turns: Mapping[int, StoredTurn]) -> dict[int, tuple[int, int]]:
        """Where each source turn with superseded statements is in the object's text, so
        that its statements are cut or marked there and nowhere else (another turn may
        say the same sentence and keep it). A window is cut at its turns' line prefixes;
        any other object is one part, shared by its sources."""
        deriver = self.derivers.get(obj.kind)
        keys = [k for k in obj.source_keys if k in turns]
        if not keys:
            return {}
        if len(obj.source_keys) == 1 or not hasattr(deriver, "segments"):
            return dict.fromkeys(keys, (0, len(obj.text)))
        window = {t.turn_key: t for t in self.store.turns_by_keys(list(obj.source_keys))}
        found = deriver.segments(obj.text, [window[k] for k in obj.source_keys if k in window])
        return {k: found[k] for k in keys if k in found}

    def review(
        self, objects: Sequence[MemoryObject], at: str, include_revoked: bool = False
    ) -> RevocationOutcome:
        if not objects or not self.store.has_revocation_state():
            return RevocationOutcome([(obj, ObjectStatus()) for obj in objects], [], [])
        keys = sorted({k for obj in objects for k in obj.source_keys})
        statuses = self.source_statuses(keys, at)
        records, candidates = [], []
        for obj in objects:
            own = [statuses[k] for k in obj.source_keys if k in statuses]
            worst = max(own, key=lambda s: SEVERITY[s.status], default=ObjectStatus())
            current = [k for k in obj.source_keys if statuses.get(k, ObjectStatus()).status == CURRENT]
            if (
                worst.status != CURRENT
                and not include_revoked
                and current
                and len(current) < len(obj.source_keys)
            ):
                partial = self._current_part(obj, current)
                if partial is not None:
                    obj, worst = partial, ObjectStatus()
            status = worst
            deriver = self.derivers.get(obj.kind)
            if (
                status.status != CURRENT
                and deriver is not None
                and not deriver.verbatim
                and len(obj.source_keys) > 1
            ):
                status = replace(status, status=STALE, reason="derived-from-revoked-source")
            candidates.append((obj, status))
            records.append(
                GuardRecord(
                    obj.object_id,
                    obj.text,
                    status=None if status.status == CURRENT or include_revoked else status.status,
                    superseded_by=status.superseded_by,
                )
            )
        result: GuardResult = self.guard.filter(records, at)
        withheld_ids = {w.record.record_id for w in result.withheld}
        kept = [pair for pair in candidates if pair[0].object_id not in withheld_ids]
        withheld = [pair for pair in candidates if pair[0].object_id in withheld_ids]
        return RevocationOutcome(kept, withheld, self._conflicts([obj for obj, _ in kept]))

    def _current_part(self, obj: MemoryObject, current: Sequence[int]) -> MemoryObject | None:
        """A verbatim object derived again from its current sources alone."""
        deriver = self.derivers.get(obj.kind)
        if deriver is None or not deriver.verbatim:
            return None
        turns = self.store.turns_by_keys(current)
        drafts = deriver.derive(obj.group_id, turns)
        if len(drafts) != 1:
            return None
        return replace(
            obj,
            text=drafts[0].text,
            sources=tuple(sorted(t.turn.turn_id for t in turns)),
            source_keys=tuple(t.turn_key for t in turns),
            observed_at=drafts[0].observed_at,
        )

    def _conflicts(self, objects: Sequence[MemoryObject]) -> list[dict]:
        """Unresolved conflicts among the sources of ``objects``, by turn id."""
        keys = {k for obj in objects for k in obj.source_keys}
        if not keys:
            return []
        rows = self.store.conflicts_among(keys)
        return [
            {"turns": [ta, tb], "reasons": reasons}
            for a, b, ta, tb, reasons in rows
            if a in keys and b in keys
        ]


def _as_shown(
    turn: StoredTurn,
    rows: Sequence[tuple],
    shown: Callable[[str, str | None], bool] | None,
    change_readable: Callable[[str, str | None], bool] | None = None,
) -> list[tuple]:
    """A turn's superseded statements as a reader may be told of them: one superseded by
    a turn they may not be told of names no successor, and is cut with its whole sentence
    (a mark, or a cut inside the sentence, would show where something changed) unless
    it is superseded in part and the reader may read the change (``change_readable``):
    then it is marked where it stands. Cuts come before marks, and a statement inside a
    cut one is gone with it."""
    told = []
    for start, end, by, since, reason, whole in rows:
        episode_id = turn.turn.episode_id
        if shown is not None and not shown(episode_id, by):
            if not whole and change_readable is not None and change_readable(episode_id, by):
                by, since, reason = None, None, HIDDEN_REASON
            else:
                start, end = _sentence_around(turn.turn.text, start, end)
                by, since, reason, whole = None, None, HIDDEN_REASON, True
        told.append((start, end, by, since, reason, whole))
    cuts = [row for row in told if row[5]]
    marks = [row for row in told if not row[5] and not any(a <= row[0] and row[1] <= b for a, b, *_ in cuts)]
    return sorted(set(cuts), key=lambda row: row[0]) + sorted(marks, key=lambda row: row[0])


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentences of ``text`` that ``start:end`` touches, as one span."""
    touched = [(a, b) for a, b in sentence_spans(text) if a < end and start < b]
    return (min(a for a, _ in touched), max(b for _, b in touched)) if touched else (start, end)


def _marked(statement: str) -> str:
    """The statement marked as superseded, the mark before its closing punctuation. The
    mark names no turn: the superseding one may be one the reader cannot see, or one
    since deleted (an audit read lists it in ``superseded_statements``)."""
    body = statement.rstrip(".!?;,")
    return f"{body} [SUPERSEDED: not current]{statement[len(body) :]}"


def _without(text: str, statement: str) -> str:
    """``text`` with ``statement`` removed wherever it occurs (see :func:`closed_up`)."""
    index = text.find(statement)
    while index >= 0:
        text = closed_up(text[:index], text[index + len(statement) :], statement)
        index = text.find(statement)
    return text


def closed_up(before: str, after: str, removed: str) -> str:
    """``before + after`` once ``removed`` was cut from between them, the gap closed so
    that no trace of the cut shows: no doubled blank line or comma ("9 AM, , painter"),
    no comma left before the end of the sentence ("9 AM, ." becomes "9 AM.")."""
    before, after = before.rstrip(" \t"), after.lstrip(" \t")
    if before.endswith("\n") and after.startswith("\n"):
        after = after[1:]
    if before.endswith((",", ";")) and after.startswith((",", ";")):
        after = after[1:].lstrip(" \t")
    if before.endswith((",", ";")) and (not after or after.startswith((".", "\n"))):
        end = "." if removed.rstrip().endswith((".", "!", "?")) and not after.startswith(".") else ""
        before = before[:-1].rstrip() + end
    joined = before and after and not before.endswith("\n") and not after.startswith("\n")
    glue = " " if joined and not after.startswith((".", ",", ";", ":", "!", "?")) else ""
    return before + glue + after
