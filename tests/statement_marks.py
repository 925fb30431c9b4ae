"""What reads do with superseded statements, written out independently for test oracles.

A statement superseded whole is a whole stored sentence and reads leave it out; any
other superseded statement (a list item inside a sentence, or a sentence that also
says something its replacement does not restate) is kept and marked in place. So a
returned text is stored sentences, possibly marked: these helpers remove the marks
and apply the cuts to stored text, so tests compare like with like. A statement
superseded in part by a turn the reader may not read whole is cut with its whole
sentence instead (a mark, or a cut inside the sentence, would tell of that turn), unless
they may read every sentence of it stating the change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from govmem.governance.labeling import sentence_spans
from govmem.governance.revocation.review import closed_up

MARK = re.compile(r" \[SUPERSEDED: not current\]")


def unmarked(text: str) -> str:
    """``text`` without supersession marks."""
    return MARK.sub("", text)


def squeeze(text: str) -> str:
    """Whitespace closed up, for comparing texts a cut may have re-spaced."""
    return " ".join(text.split())


def current(text: str, rows: Iterable[tuple], offset: int = 0, marks: bool = True) -> str:
    """``text`` (a part of a stored turn starting at ``offset``) as a default read returns
    it, given the turn's superseded statements ``rows`` (start, end, superseding turn id,
    from, reason, whole): whole ones cut, the others marked (or left as they are); a
    statement inside a cut one goes with it."""
    rows = list(rows)
    cut = [(r[0], r[1]) for r in rows if r[5]]
    rows = [r for r in rows if r[5] or not any(a <= r[0] and r[1] <= b for a, b in cut)]
    length = len(text)
    for start, end, _, _, _, whole in sorted(set(rows), key=lambda r: r[0], reverse=True):
        a, b = start - offset, end - offset
        if a < 0 or b > length:
            continue
        said = text[a:b].rstrip()  # a later cut may have closed up the space this one ended on
        if whole:  # the gap closed as reads close it (formatting, not what is tested)
            text = closed_up(text[:a], text[a + len(said) :], said)
        elif marks:  # the mark goes before the statement's closing punctuation
            body = said.rstrip(".!?;,")
            text = text[: a + len(body)] + " [SUPERSEDED: not current]" + text[a + len(body) :]
    return text


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the sentences of ``text`` that ``start:end`` touches."""
    touched = [(a, b) for a, b in sentence_spans(text) if a < end and start < b]
    return (min(a for a, _ in touched), max(b for _, b in touched)) if touched else (start, end)
