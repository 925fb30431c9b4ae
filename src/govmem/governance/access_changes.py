"""Access ended in conversation: "family logistics access for Nina Reed is revoked".

Permissions often end only in what people say (a patient withdraws a relative's
access, a covering clinician's weekend ends). This module finds such sentences and
says who loses what; the caller ends the matching relationships from the turn's
time on. Ending access only ever narrows what anyone may read, so a false match
costs utility, never privacy; a question ("did she revoke me?") or a negation
("access is not revoked") is not a revocation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from govmem.governance.labeling import Labeler, sentence_spans
from govmem.governance.prefilter import contains_any
from govmem.models import Relationship

_ENDED = re.compile(
    r"\b(?:access|permission|consent|authori[sz]ation|release)\b[^?!]{0,80}?"
    r"\b(?:is |are |was |were |has |have |been |now |as of )*"
    r"(?:revoked|withdrawn|terminated|rescinded|ended|ends(?: now| today)?|is over)\b"
    r"|\brevok(?:e|ed|ing)\b[^?!]{0,60}?\b(?:access|permission|consent)\b",
    re.I,
)
_CUES = ("revok", "withdrawn", "terminated", "rescinded", "ended", "ends", "is over")
"""Lower-case fragments every ending holds one of: one literal scan settles most turns."""
_NEGATED = re.compile(
    r"\b(?:not|never|no longer being|\w+n['’]t|nobody|no one|refused|declined|failed|forgot)\s+(?:\w+\s+)?$",
    re.I,
)


@dataclass(frozen=True)
class AccessEnded:
    """A sentence ending someone's access; ``named`` is the text up to the ending."""

    sentence: str
    named: str


def endings_in(text: str) -> list[AccessEnded]:
    """The sentences of ``text`` that end someone's access (questions excluded)."""
    if (
        not contains_any(text.lower(), _CUES) or _ENDED.search(text) is None
    ):  # most turns: a few substring tests
        return []
    found = []
    for start, end in sentence_spans(text):
        sentence = text[start:end].strip()
        match = _ENDED.search(sentence)
        if match is None or sentence.rstrip("\"'”’) ").endswith("?"):
            continue  # a question, quoted or not
        verb_at = (
            match.start()
            if match.group(0).lower().startswith("revok")
            else match.end() - len(match.group(0).split()[-1])
        )
        if _NEGATED.search(sentence[:verb_at]):
            continue  # "is not revoked", "We never actually revoked ...", "Nobody has revoked ..."
        found.append(AccessEnded(sentence, sentence[: match.end()]))
    return found


def relationships_ended(
    ending: AccessEnded,
    speaker: str,
    labeler: Labeler,
    relationships: list[Relationship],
    at: str,
    about: frozenset[str] = frozenset(),
) -> list[Relationship]:
    """The relationships ``ending`` closes at ``at`` (already closed ones left alone).

    Whose access ends: the principals named before the ending who are not subjects
    ("Marcus revoked family access" names the grantor). Which access: relationship
    types sharing a word with the sentence ("family", "covering"); with no such word,
    all of the named principal's. With nobody named, a type word alone ends that kind
    of access to the subjects the sentence is about: those it names, the speaker if a
    subject, else ``about`` (whom its label says it is about).
    """
    roles = labeler.roles
    named = labeler.mentioned(ending.named) - {speaker}
    grantees = {p for p in named if p in roles and not labeler.pack.is_subject_role(roles[p])}
    words = set(re.findall(r"[a-z]+", ending.named.lower()))
    subjects = {p for p in named if p in roles and labeler.pack.is_subject_role(roles[p])}
    if labeler.pack.is_subject_role(roles.get(speaker, "")):
        subjects.add(speaker)
    subjects = subjects or {p for p in about if labeler.pack.is_subject_role(roles.get(p, ""))}

    def typed(r: Relationship) -> bool:
        return not words.isdisjoint(r.type.split("_"))

    open_ones = [r for r in relationships if r.valid_until is None or r.valid_until > at]
    if grantees:
        theirs = [r for r in open_ones if r.principal_id in grantees]
        chosen = [r for r in theirs if typed(r)] or theirs
    elif subjects:
        chosen = [r for r in open_ones if r.target_id in subjects and typed(r)]
    else:
        chosen = []
    return [replace(r, valid_until=at) for r in chosen if r.valid_from is None or r.valid_from < at]
