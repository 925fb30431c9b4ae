"""Lexical retrieval: BM25 through SQLite FTS5.

Queries are plain text from people, so they are never passed to FTS5 as syntax:
words are extracted, stop words dropped, each word quoted, and the words joined
with OR so that BM25 ranks partial matches instead of requiring all of them.

FTS5 scores every matching row (about 2 us each here) and has no early
termination, so on large stores words that occur in many objects make a query
slow while adding little to its ranking (their IDF is low). :func:`select_terms`
keeps the rarest words within a budget of postings; on small stores it keeps
every word.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been
    before being below between both but by can could did do does doing down during
    each few for from further had has have having he her here hers herself him
    himself his how i if in into is it its itself just me more most my myself no nor
    not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where
    which while who whom why will with would you your yours yourself yourselves tell
    please know say said
    """.split()  # noqa: SIM905
)


def query_terms(text: str, max_terms: int = 32) -> list[str]:
    """Distinct lower-cased content words of ``text``, in order of first use."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        if word not in STOP_WORDS and word not in seen:
            seen[word] = None
    return list(seen)[:max_terms]


POSTINGS_BUDGET = 8_000


def select_terms(terms: list[str], frequencies: dict[str, int], budget: int = POSTINGS_BUDGET) -> list[str]:
    """The rarest ``terms`` whose document frequencies add up to at most ``budget``.

    Terms found in no object are dropped (they cannot match); order is kept.
    """
    kept: set[str] = set()
    spent = 0
    for term in sorted((t for t in terms if frequencies.get(t, 0) > 0), key=lambda t: frequencies[t]):
        if spent + frequencies[term] > budget:
            break
        kept.add(term)
        spent += frequencies[term]
    return [t for t in terms if t in kept]


def or_expression(terms: list[str]) -> str | None:
    """An FTS5 MATCH expression matching any of ``terms``, or None for no terms."""
    return " OR ".join(f'"{term}"' for term in terms) or None


def match_expression(text: str) -> str | None:
    """An FTS5 MATCH expression for free text, or None when it has no content words."""
    return or_expression(query_terms(text))
