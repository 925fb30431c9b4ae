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
from govmem.governance.revocation.statements import MONTHS, SHORT_MONTHS, SHORT_WEEKDAYS, WEEKDAYS
from govmem.models import Relationship
from govmem.timestamps import normalize_timestamp

_ENDED = re.compile(
    r"\b(?:access|permission|consent|authori[sz]ation|release|coverage|grant)\b[^?!]{0,80}?"
    r"\b(?:is |are |was |were |has |have |been |now |as of |to |will |automatically )*"
    r"(?:revoked|withdrawn|terminated|rescinded|ended|ends(?: now)?|end|is over"
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
_NOW = re.compile(r"^\W*(?:now|immediately|effective (?:now|immediately))\b", re.I)
_CLOCK = re.compile(r"\d:\d\d|\b\d{1,2}\s*[ap]\.?m\b|\b(?:noon|midnight)\b", re.I)
_END_OF = re.compile(
    r"^\W*(?:(?:at|on|by)\s+)?(?:the\s+)?end\s+of\s+|^\W*(?:automatically\s+)?after\s+", re.I
)
"""Words before the day an access lasts through ("at the end of Saturday", "after Saturday")."""


def ending_time(ending: AccessEnded, at: str) -> str:
    """When ``ending``, said at ``at``, takes effect: the time it gives ("Sunday 8:00 PM",
    "the end of Saturday, November 21": the day's end when it gives a day alone), else
    ``at``. A time said in the past tense ("ended Sunday at 8:00 PM") is the last such
    time before ``at``. Only a time said right after the verb and in calendar words
    counts (a weekday, a month, a clock time, today, tonight, tomorrow), within
    :data:`HORIZON` of ``at``: "ends after Ada's visit in Room 2031", "ends on the 3rd",
    "ends Sunday at 8" (read as August by the parser) end access when said."""
    at = normalize_timestamp(at, "at") or at
    rest = _END_OF.sub("", ending.rest)
    if not rest.strip() or _NOW.match(rest) or not _CALENDAR_START.match(rest):
        return at
    from dateparser.search import search_dates  # only for the rare sentence that gives a time

    base = datetime.fromisoformat(at)
    future = ending.scheduled
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future" if future else "past"}
    found = search_dates(rest, languages=["en"], settings=settings)
    if not found or not _CALENDAR.search(found[0][0]):
        return at
    said, moment = found[0]
    if not _CLOCK.search(said):
        moment = moment.replace(hour=0, minute=0, second=0) + timedelta(days=1)  # the whole day
    if future and _WEEKDAY.search(said) and moment - timedelta(days=7) > base:
        moment -= timedelta(days=7)  # "ends Sunday 8:00 PM" said on Sunday afternoon: today
    if (moment > base) != future or abs(moment - base) > HORIZON:
        return at  # a scheduled end already past, a past end read as to come, or too far to trust
    return moment.isoformat(timespec="seconds")


HORIZON = timedelta(days=31)
"""How far from its sentence a stated end is trusted; beyond it, access ends when said."""
_WEEKDAY = re.compile(rf"\b(?:{'|'.join([*WEEKDAYS, *SHORT_WEEKDAYS])})s?\b\.?", re.I)
_CALENDAR = re.compile(
    rf"{_WEEKDAY.pattern}|\b(?:{'|'.join([*MONTHS, *SHORT_MONTHS])})\.?\s+\d"
    r"|\d:\d\d|\b\d{1,2}\s*[ap]\.?m\b|\b(?:today|tonight|tomorrow|noon|midnight)\b",
    re.I,
)
_CALENDAR_START = re.compile(
    rf"^\W*(?:(?:at|on|by|after|this|next|the|end of|automatically)\s+)*(?:{_CALENDAR.pattern})", re.I
)
"""A time said right after the verb ("ends Sunday 8:00 PM", "expires at the end of Saturday,
November 21", "ends tonight"), not one further on ("ends after Ada's visit on Friday")."""


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


_OWN = re.compile(
    r"\bmy\s+(?:[\w-]+\s+){0,2}(?:access|coverage|grant|permission|consent|authori[sz]ation|release)\b", re.I
)
"""The speaker's own access ("My coverage ends Monday"), not "Per my call with Ada, her access ..."."""
_INSURANCE = frozenset(
    {"insurance", "plan", "policy", "benefits", "medicare", "medicaid", "dental", "insurer"}
)
_NOT_A_TYPE = frozenset({"for", "of", "to", "the", "and", "a", "an", "in", "on", "with", "by", "at"})
"""Words no relationship type is named by ("advisor_for" is not ended by "access for ...")."""


_GRANTS = re.compile(
    r"\b(?:may|can)\s+(?:receive|see|get|have|hold|read|keep)\b|\ballowed\b|\bpermission\b|\bconsent\b"
    r"|\bgrant(?:ed|s)?\b",
    re.I,
)
_THEIR = re.compile(r"^\W*(?:his|her|their)\b", re.I)
"""A sentence the fallback to the grantee before may follow: one that grants, or an ending
that opens on whose it is ("His one-day permission has now expired"); not "Dr. Lee saw
Ada today. The research grant ends in June"."""


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
    subject_named = any(p in roles and labeler.pack.is_subject_role(roles[p]) for p in named)
    own = not grantees and not subject_named and bool(_OWN.search(ending.named))
    if own and not labeler.pack.is_subject_role(roles.get(speaker, "")):
        grantees = {speaker}  # "My coverage ends Monday"; only what it names, not "my room-booking access"
    words = set(re.findall(r"[a-z]+", ending.named.lower())) - _NOT_A_TYPE
    subjects = {p for p in named if p in roles and labeler.pack.is_subject_role(roles[p])}
    if labeler.pack.is_subject_role(roles.get(speaker, "")):
        subjects.add(speaker)
    subjects = subjects or {p for p in about if labeler.pack.is_subject_role(roles.get(p, ""))}

    stems = {w[:5] for w in words if len(w) >= 5}
    if words & _INSURANCE:
        stems.discard("cover")  # "My insurance coverage ends Friday" ends no covering clinician

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
    refers_back = _GRANTS.search(ending.before) or _THEIR.match(ending.sentence)
    if not chosen and not named and refers_back and not any(typed(r) for r in open_ones):
        # "Alastair may receive the pickup time. Permission ends after Friday." / "... His
        # one-day permission has now expired": the grantee the sentence before named
        before = labeler.mentioned(ending.before) - {speaker}
        chosen = [
            r
            for r in open_ones
            if r.principal_id in before and not labeler.pack.is_subject_role(roles[r.principal_id])
        ]
    if not chosen:
        return []  # no need to read a time
    until = ending_time(ending, at)
    return [
        replace(r, valid_until=until)
        for r in chosen
        if (r.valid_from is None or r.valid_from < until) and (r.valid_until is None or r.valid_until > until)
    ]
