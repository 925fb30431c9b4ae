"""Queries that ask for what was forgotten.

After a deletion, questions about the item come in many shapes: "what was the
deleted code?", "was it 5942, yes or no?", "I only need the first two digits",
"compare the current PIN with the earlier deleted one". Erasure already keeps the
item out of every context; these queries must also get ``no_memory`` with nothing
at all, since any context (even the current value, even the word "no") answers
or confirms something about the deleted item.

A query is such a probe when its question (after any leading "After ...,",
"Before ...," or "Now that ...," clause) refers to deleted content outright ("deleted", "retired",
"the number I asked you to delete"); or when it asks for a former value
("earlier", "before", "used to") of a kind of thing this store has forgotten (a
PIN, a code, a label: the kinds deletion requests named), other than asking
whether it is "still available". It is decided from the query and the store's
tombstone kinds alone, never from what is stored, so the answer confirms nothing.
"""

from __future__ import annotations

import re

_DELETED = re.compile(
    r"\b(?:deleted|removed|erased|purged|wiped|scrubbed|retired)\b|\bbefore (?:the )?(?:deletion|cleanup)\b"
    r"|\b(?:asked (?:you )?to|did (?:we|you|i)|told you to) (?:delete|remove|erase|forget)\b",
    re.I,
)
_STATUS = re.compile(r"\bstill (?:available|active|valid|usable|in use|on file)\b", re.I)
_PREFACE = re.compile(
    r"^\s*(?:(?:right\s+|just\s+)?(?:after|before)|now\s+that|since|once|given\s+that)\b[^,?]*,", re.I
)
"""A leading time clause ("After the old details were deleted," "Right before deletion,"
"Now that the shelter details are removed,"): the question is what follows it."""
_PRESENT = re.compile(
    r"\b(?:now|current(?:ly)?|today|should|will|what['’]s|(?:what|which|who|where|when|how)\s+(?:is|are))\b",
    re.I,
)
_PAST = re.compile(r"\b(?:was|were|did|had|first|again|anyway|digits?)\b", re.I)
"""With :data:`_FORMER`: a question about the past, or about the value itself ("tell me
the PIN anyway"), which no leading clause turns into a question about the present."""
_BACK = re.compile(r"\b(?:it|them|that one|those|compare|comparison)\b", re.I)
"""Words by which the question after a leading clause still asks about what the clause named."""
_FORMER = re.compile(
    r"\b(?:earlier|previous|prior|former|old|older|original|originally|used to|replaced|before)\b", re.I
)
_RELATED = {
    "token": {"credential", "token", "code"},
    "code": {"code", "credential", "pin", "keypad"},
    "pin": {"pin", "code", "keypad"},
    "mapping": {"mapping", "customer", "name"},
    "wording": {"wording", "label", "phrase", "language"},
    "label": {"label", "wording", "phrase", "identifier"},
    "phrase": {"phrase", "wording", "label"},
    "number": {"number", "line", "phone", "extension", "callback"},
    "line": {"line", "number", "callback", "phone"},
    "contact": {"contact", "callback", "number", "line", "backup"},
    "amount": {"amount", "figure", "number"},
    "location": {"location", "where", "kept"},
    "alias": {"alias", "name"},
}
"""Words a question may use for a kind of forgotten thing (the kinds deletion requests name)."""


def _leads_in(query: str, preface: re.Match[str]) -> bool:
    """Whether a leading clause only sets the scene for a question about something else:
    "After X was deleted, what is current?" does; "Now that / Since / Once X was deleted,"
    only before a question about the present ("what is my current contact plan?"), and
    none before one that refers back ("compare it with the current number")."""
    rest = query[preface.end() :]
    if _BACK.search(rest):
        return False
    if preface.group(0).lstrip().lower().startswith(("after", "before", "right", "just")):
        return True
    # "what is my current contact plan?", "which number should the nurse call?"
    return bool(_PRESENT.search(rest)) and not _PAST.search(rest) and not _FORMER.search(rest)


def asks_for_forgotten(query: str, forgotten_kinds: frozenset[str]) -> bool:
    """Whether the query asks about deleted content (see the module docstring).

    A leading "After ...," or "Before ...," clause is left out, and a question whether a former
    value is "still available" asks about status, not the value.
    """
    preface = _PREFACE.match(query)
    # "After X was deleted, what is current?" asks what follows the clause; "Since the old
    # line was removed, compare it with the current number" still asks about X
    leads_in = preface is not None and _leads_in(query, preface)
    question = query[preface.end() :] if leads_in else query
    if _DELETED.search(question):
        return True
    if not forgotten_kinds or not _FORMER.search(question) or _STATUS.search(question):
        return False
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", query)}
    words |= {w[:-1] for w in words if w.endswith("s")}
    related = set().union(*(_RELATED.get(kind, {kind}) for kind in forgotten_kinds))
    return bool(words & related)
