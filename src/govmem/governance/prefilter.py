"""Required literals of a regular expression: a cheap test before the search.

``required_literals(pattern)`` gives strings of which every match of the pattern
contains at least one (or None when it cannot tell). A text holding none of them
cannot match, and ``str.__contains__`` settles that far faster than Python's
``re`` scanning every position: most turns carry no tag cue at all.

Only case-sensitive patterns are analysed (labelling lower-cases text and drops
IGNORECASE when a pattern has no capitals); anything the analysis does not know
makes the answer None, so the prefilter is never wrong, only sometimes absent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from re import _constants as sre  # the parser's opcodes, stable across 3.11-3.13
from re import _parser

Literals = frozenset[str]

_NEUTRAL = {sre.AT, sre.ASSERT, sre.ASSERT_NOT, sre.GROUPREF, sre.GROUPREF_EXISTS}
"""Elements that match no text of their own; a sequence's literals come from the rest."""


def required_literals(pattern: str) -> Literals | None:
    """Strings one of which every match contains; None if unknown or the pattern ignores case."""
    try:
        parsed = _parser.parse(pattern)
    except re.error:
        return None
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    found = _of_sequence(list(parsed))
    return found if found and all(found) else None


def _of_sequence(items: list) -> Literals | None:
    """The most selective requirement of a sequence: its longest literal run, or a
    requirement of one of its elements (a group, a branch, a repeated group)."""
    candidates: list[Literals] = []
    run: list[str] = []
    for op, argument in items:
        if op is sre.LITERAL:
            run.append(chr(argument))
            continue
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        if op in _NEUTRAL:
            continue
        inner = _of_element(op, argument)
        if inner:
            candidates.append(inner)
    if run:
        candidates.append(frozenset({"".join(run)}))
    if not candidates:
        return None
    return max(candidates, key=lambda c: (min(map(len, c)), -len(c)))


def _of_element(op, argument) -> Literals | None:
    if op is sre.SUBPATTERN:
        _, add_flags, _, body = argument
        return None if add_flags & re.IGNORECASE else _of_sequence(list(body))
    if op is sre.ATOMIC_GROUP:
        return _of_sequence(list(argument))
    if op is sre.BRANCH:
        branches = [_of_sequence(list(branch)) for branch in argument[1]]
        if any(b is None for b in branches):
            return None
        return frozenset().union(*branches)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _, body = argument
        return _of_sequence(list(body)) if low >= 1 else None
    return None


def contains_any(lowered: str, fragments: Sequence[str]) -> bool:
    """Whether ``lowered`` holds one of ``fragments``: a few substring tests cost about
    half of one ``re`` scan for the same fragments (which tries every position)."""
    for fragment in fragments:  # noqa: SIM110 (a loop: any() with a generator is slower here)
        if fragment in lowered:
            return True
    return False
