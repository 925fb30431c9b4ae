"""Erasing the clauses of a turn that hold a forgotten item.

A deletion request names items (a phone number, a code, a name, a phrase). Every
clause of a stored turn that holds one is erased from the turn's text (the whole
sentence unless the item is a code or phrase and the rest are plain time clauses, see
``DELETION_CUES``); the other clauses and sentences stay,
with the labels they had (their subjects and tags do not change because a neighbour
went): "keypad 2745 before 10:05 AM, desk buzz after 10:05 AM" keeps the desk buzz
when 2745 is forgotten. A turn with nothing left is deleted whole.

Items and sentences are compared as sequences of normalised tokens (lower case;
"617-555-0140", "4,800" and "bh_temp_4471" are one token each), so case,
punctuation between words and runs of whitespace do not matter. A forgotten item
is kept only as the SHA-256 of its token sequence (a tombstone): a sentence holds
it when one of its n-grams of the same length has that digest. That is how turns
arriving after the request are checked without the item's text being kept.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from govmem.governance.labeling import (
    Span,
    TurnLabel,
    clause_spans,
    holds_code_or_quote,
    is_plain_time_clause,
    sentence_spans,
)
from govmem.governance.prefilter import contains_any

DELETION_CUES = (
    "delet",
    "remov",
    "eras",
    "forget",
    "purg",
    "scrub",
    "wipe",
    "treated as",
    "marked as",
    "should no",
)
"""Lower-cased fragments every request or "treated as deleted" sentence holds one of.

A sentence holding one lists what goes, so at erasure it goes whole: not every item of
the list may have been recognised. Otherwise a sentence is cut in part only when
what it forgets is a code or a phrase and every other clause is a plain time clause
(:func:`labeling.is_plain_time_clause`): beside a forgotten time or place ("5:55 PM, east
rideshare curb bay 3"), or beside other codes ("SOL-9206 is retired, and the new badge is
SOL-9214"), the rest may be part of the same secret, and the sentence goes whole."""


_TOKEN = re.compile(r"\w+(?:[-.,:'’/]\w+)*")

MIN_ITEM_CHARS = 3
"""Shorter items ("a", "12") would erase far more than was asked for."""


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def digest(words: Sequence[str]) -> str:
    return hashlib.sha256(" ".join(words).encode()).hexdigest()


@dataclass(frozen=True)
class Tombstones:
    """Forgotten items as (number of tokens, digest) pairs: no text."""

    entries: frozenset[tuple[int, str]]

    @classmethod
    def of_items(cls, items: Iterable[str]) -> Tombstones:
        found = set()
        for item in items:
            words = tokens(item)
            if words and len(" ".join(words)) >= MIN_ITEM_CHARS:
                found.add((len(words), digest(words)))
        return cls(frozenset(found))

    def __bool__(self) -> bool:
        return bool(self.entries)

    @property
    def lengths(self) -> set[int]:
        return {n for n, _ in self.entries}

    def held_by(self, text: str) -> bool:
        """Whether the text holds a forgotten item (some n-gram has its digest)."""
        words = tokens(text)
        digests = {d for _, d in self.entries}
        for n in self.lengths:
            for start in range(len(words) - n + 1):
                if digest(words[start : start + n]) in digests:
                    return True
        return False


@dataclass(frozen=True)
class Erasure:
    """What erasing does to one turn: its new text and, per kept stretch of the
    old text, (old start, old end, new start)."""

    text: str
    kept: tuple[tuple[int, int, int], ...]
    cut: tuple[tuple[int, int], ...] = ()
    """The old (start, end) of the sentences erased in part: what is kept of them keeps
    the whole sentence's label (a clause does not lose the name its sentence gave it)."""

    @property
    def empty(self) -> bool:
        return not self.text.strip()


def text_digest(text: str) -> str:
    """A whole text as a digest of its tokens (the tombstone of a deleted turn)."""
    return digest(tokens(text))


def erase(
    text: str, tombstones: Tombstones, apart: Callable[[str, str], bool] | None = None
) -> Erasure | None:
    """The text without its sentences that hold a forgotten item; None when none does.

    Given ``apart`` (whether a clause may go and leave the rest of its sentence:
    :meth:`Labeler.erasable_apart`), a sentence is cut in part instead when what it
    forgets is a code or quotation in such clauses and the rest are plain time clauses
    (``DELETION_CUES``): labelled again on its own later, what is kept keeps its
    subjects and tags."""
    if not tombstones.held_by(text):
        return None
    pieces = []
    doomed = set()
    cut = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        if not tombstones.held_by(sentence):
            pieces.append((start, end))
            continue
        clauses = clause_spans(text, start, end)
        held = {(s, e) for s, e in clauses if tombstones.held_by(text[s:e])}
        rest = [text[s:e] for s, e in clauses if (s, e) not in held]
        if (
            apart is None
            or not held
            or contains_any(sentence.lower(), DELETION_CUES)
            or not all(holds_code_or_quote(text[s:e]) and apart(sentence, text[s:e]) for s, e in held)
            or not all(map(is_plain_time_clause, rest))
        ):
            held = set(clauses)  # "I am deleting 2745, 'apricot echo', ...": the whole list goes
        else:
            cut.append((start, end))
        pieces += clauses
        doomed |= held
    if not doomed:  # an item spanning a sentence break: erase every sentence
        return Erasure("", ())
    survivors = [(s, e) for s, e in pieces if (s, e) not in doomed]
    if survivors:  # no whitespace left dangling after the last kept sentence
        last_start, last_end = survivors[-1]
        survivors[-1] = (last_start, last_start + len(text[last_start:last_end].rstrip()))
    pieces, kept, position = [], [], 0
    for start, end in survivors:
        kept.append((start, end, position))
        pieces.append(text[start:end])
        position += end - start
    new_text = "".join(pieces)
    if tombstones.held_by(new_text):  # formed across the seam of two kept sentences
        return Erasure("", ())
    return Erasure(new_text, tuple(kept), tuple(cut))


def collateral_sentences(text: str, erasure: Erasure, tombstones: Tombstones) -> int:
    """How many sentences the erasure took that held no item themselves (an item
    spanning a sentence break, or formed across the seam of two kept sentences,
    takes the whole turn)."""
    kept = {start for start, _, _ in erasure.kept}
    return sum(1 for s, e in sentence_spans(text) if s not in kept and not tombstones.held_by(text[s:e]))


def moved_spans(spans: Sequence[tuple[int, int, int]], erasure: Erasure) -> list[tuple[int, int, int]]:
    """Stored (start, end, label) spans carried onto the erased text, clipped to what was kept."""
    moved: list[tuple[int, int, int]] = []
    for old_start, old_end, new_start in erasure.kept:
        for start, end, label in spans:
            lo, hi = max(start, old_start), min(end, old_end)
            if lo >= hi:
                continue
            span = (lo - old_start + new_start, hi - old_start + new_start, label)
            if moved and moved[-1][2] == label and moved[-1][1] == span[0]:
                moved[-1] = (moved[-1][0], span[1], label)
            else:
                moved.append(span)
    return moved


def longest_tokens(items: Collection[str]) -> list[str]:
    """Each item's longest token: a coarse search string for the turns that may hold it."""
    return [max(words, key=len) for words in map(tokens, items) if words]


def kept_label(whole: TurnLabel, kept: TurnLabel, erasure: Erasure) -> TurnLabel:
    """The label of a turn whose kept text (``erasure.text``) was labelled on its own:
    the kept label's spans moved back onto the turn's text (the inverse of
    :func:`moved_spans`), the erased stretches, and what is kept of a sentence cut in
    part, with the spans ``whole`` gave them (the erased ones go at ingest, with their
    labels)."""
    pieces: list[Span] = []
    for old_start, old_end, new_start in erasure.kept:
        if any(start <= old_start < end for start, end in erasure.cut):
            continue  # what is kept of a sentence cut in part keeps the whole sentence's label
        offset = old_start - new_start
        for span in kept.spans:
            lo, hi = max(span.start, new_start), min(span.end, new_start + old_end - old_start)
            if lo < hi:
                pieces.append(Span(lo + offset, hi + offset, span.facets))
    covered = sorted((a.start, a.end) for a in pieces)
    gaps, position = [], 0
    end = max(s.end for s in whole.spans)
    for start, stop in covered:
        if start > position:
            gaps.append((position, start))
        position = max(position, stop)
    if position < end:
        gaps.append((position, end))
    for lo, hi in gaps:
        for span in whole.spans:
            a, b = max(span.start, lo), min(span.end, hi)
            if a < b:
                pieces.append(Span(a, b, span.facets))
    merged: list[Span] = []
    for span in sorted(pieces):
        if merged and merged[-1].facets == span.facets and merged[-1].end == span.start:
            merged[-1] = Span(merged[-1].start, span.end, span.facets)
        else:
            merged.append(span)
    return TurnLabel(tuple(merged))
