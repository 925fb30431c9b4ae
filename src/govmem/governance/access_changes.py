"""Access ended in conversation: "family logistics access for Nina Reed is revoked".

Permissions often end only in what people say (a patient withdraws a relative's
access, a covering clinician's weekend ends). This module finds such sentences and
says who loses what; the caller ends the matching relationships from the turn's
time on, or from the time the sentence gives ("Weekend coverage ends Sunday 8:00
PM", "The grant expires at the end of Saturday, November 21": a scheduled end,
not yet an end). Ending access only ever narrows what anyone may read, so a false
match costs utility, never privacy; a question ("did she revoke me?") or a negation
("access is not revoked") is not a revocation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from govmem.governance.labeling import Labeler, sentence_spans
from govmem.governance.prefilter import contains_any
from govmem.models import Relationship

_ENDED = re.compile(
    r"\b(?:access|permission|consent|authori[sz]ation|release|coverage|grant)\b[^?!]{0,80}?"
    r"\b(?:is |are |was |were |has |have |been |now |as of |to |will |automatically )*"
    r"(?:revoked|withdrawn|terminated|rescinded|ended|ends(?: now| today)?|end|is over"
    r"|expired|expires|expire|lapsed|lapses)\b"
    r"|\brevok(?:e|ed|ing)\b[^?!]{0,60}?\b(?:access|permission|consent)\b"
    r"|\bno (?:active |longer any )?access (?=after|beyond|from)\b",
    re.I,
)
_CUES = (
    "revok",
    "withdrawn",
    "terminated",
    "rescinded",
    "ended",
    "ends",
    " end",
    "is over",
    "expir",
    "lapse",
)
"""Lower-case fragments every ending holds one of: one literal scan settles most turns."""
_NEGATED = re.compile(
    r"\b(?:not|never|no longer being|\w+n['’]t|nobody|no one|refused|declined|failed|forgot)\s+(?:\w+\s+)?$",
    re.I,
)


@dataclass(frozen=True)
class AccessEnded:
    """A sentence ending someone's access; ``named`` is the text up to the ending,
    ``rest`` what follows it (where a scheduled end says when)."""

    sentence: str
    named: str
    rest: str = ""
    before: str = ""
    """The sentence before it in the same turn ("Alastair may receive the Friday pickup
    time. Permission ends after Friday.")."""

    @property
    def scheduled(self) -> bool:
        """Whether the ending is said in the present or future ("ends Sunday 8:00 PM",
        "to expire after Saturday"), so that it takes effect when it says."""
        return _SCHEDULED.search(self.named) is not None


_SCHEDULED = re.compile(r"\b(?:ends|end|expires|expire|lapses|no (?:active |longer any )?access)\W*$", re.I)
_NOW = re.compile(r"^\W*(?:now|today|immediately|effective (?:now|immediately))\b", re.I)
_CLOCK = re.compile(r"\d:\d\d|\b\d{1,2}\s*[ap]\.?m\b|\b(?:noon|midnight)\b", re.I)
_END_OF = re.compile(
    r"^\W*(?:(?:at|on|by)\s+)?(?:the\s+)?end\s+of\s+|^\W*(?:automatically\s+)?after\s+", re.I
)
"""Words before the day an access lasts through ("at the end of Saturday", "after Saturday")."""


def ending_time(ending: AccessEnded, at: str) -> str:
    """When ``ending``, said at ``at``, takes effect: the time it gives ("Sunday 8:00 PM",
    "the end of Saturday, November 21": the day's end when it gives a day alone), else
    ``at``. A time said in the past tense ("ended Sunday at 8:00 PM") is the last such
    time before ``at``; none is ever later than a scheduled one would be read."""
    rest = ending.rest
    if not rest.strip() or _NOW.match(rest):
        return at
    from dateparser.search import search_dates  # only for the rare sentence that gives a time

    base = datetime.fromisoformat(at)
    future = ending.scheduled
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future" if future else "past"}
    found = search_dates(_END_OF.sub("", rest), languages=["en"], settings=settings)
    if not found:
        return at
    said, moment = found[0]
    if not _CLOCK.search(said):
        moment = moment.replace(hour=0, minute=0, second=0) + timedelta(days=1)  # the whole day
    if (moment > base) != future:
        return at  # a scheduled end already past, or a past end read as still to come
    return moment.isoformat(timespec="seconds")


def endings_in(text: str) -> list[AccessEnded]:
    """The sentences of ``text`` that end someone's access (questions excluded)."""
    if (
        not contains_any(text.lower(), _CUES) or _ENDED.search(text) is None
    ):  # most turns: a few substring tests
        return []
    found = []
    spans = sentence_spans(text)
    for index, (start, end) in enumerate(spans):
        sentence = text[start:end].strip()
        previous = text[spans[index - 1][0] : spans[index - 1][1]].strip() if index else ""
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
        found.append(AccessEnded(sentence, sentence[: match.end()], sentence[match.end() :], previous))
    return found


_OWN = re.compile(r"\b(?:my|mine)\b", re.I)
_NOT_A_TYPE = frozenset({"for", "of", "to", "the", "and", "a", "an", "in", "on", "with", "by", "at"})
"""Words no relationship type is named by ("advisor_for" is not ended by "access for ...")."""


def relationships_ended(
    ending: AccessEnded,
    speaker: str,
    labeler: Labeler,
    relationships: list[Relationship],
    at: str,
    about: frozenset[str] = frozenset(),
) -> list[Relationship]:
    """The relationships ``ending`` closes, from the time it gives (:func:`ending_time`)
    or else ``at`` (already closed ones left alone).

    Whose access ends: the principals named before the ending who are not subjects
    ("Marcus revoked family access" names the grantor). Which access: relationship
    types sharing a word with the sentence ("family", "covering"); with no such word,
    all of the named principal's. With nobody named, a type word alone ends that kind
    of access to the subjects the sentence is about: those it names, the speaker if a
    subject, else ``about`` (whom its label says it is about). With nobody named and no
    type word, the grantee named in the sentence before ("Alastair may receive the pickup
    time. Permission ends after Friday.").
    """
    roles = labeler.roles
    named = labeler.mentioned(ending.named) - {speaker}
    grantees = {p for p in named if p in roles and not labeler.pack.is_subject_role(roles[p])}
    own = not grantees and bool(_OWN.search(ending.named))
    if own and not labeler.pack.is_subject_role(roles.get(speaker, "")):
        grantees = {speaker}  # "My coverage ends Monday"; only what it names, not "my room-booking access"
    words = set(re.findall(r"[a-z]+", ending.named.lower())) - _NOT_A_TYPE
    subjects = {p for p in named if p in roles and labeler.pack.is_subject_role(roles[p])}
    if labeler.pack.is_subject_role(roles.get(speaker, "")):
        subjects.add(speaker)
    subjects = subjects or {p for p in about if labeler.pack.is_subject_role(roles.get(p, ""))}

    stems = {w[:5] for w in words if len(w) >= 5}

    def typed(r: Relationship) -> bool:  # "coverage" ends a covering_clinician relationship
        parts = [p for p in r.type.split("_") if p not in _NOT_A_TYPE]
        return not words.isdisjoint(parts) or not stems.isdisjoint(p[:5] for p in parts if len(p) >= 5)

    open_ones = [r for r in relationships if r.valid_until is None or r.valid_until > at]
    if grantees:
        theirs = [r for r in open_ones if r.principal_id in grantees]
        chosen = [r for r in theirs if typed(r)] or ([] if own else theirs)
    elif subjects:
        chosen = [r for r in open_ones if r.target_id in subjects and typed(r)]
    else:
        chosen = []
    if not chosen and not named and not any(typed(r) for r in open_ones):
        # "Alastair may receive the pickup time. Permission ends after Friday." / "... His
        # one-day permission has now expired": the grantee the sentence before named
        before = labeler.mentioned(ending.before) - {speaker}
        chosen = [
            r
            for r in open_ones
            if r.principal_id in before and not labeler.pack.is_subject_role(roles[r.principal_id])
        ]
    until = ending_time(ending, at)
    return [
        replace(r, valid_until=until)
        for r in chosen
        if (r.valid_from is None or r.valid_from < until) and (r.valid_until is None or r.valid_until > until)
    ]
