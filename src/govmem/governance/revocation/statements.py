"""What a record states, as far as supersession needs it: its subject, its stance, its values.

A :class:`Statement` is read off plain text by general rules of English, not by a
list of phrases from particular policies:

- **terms**: content-word stems (function words, modal and polarity words dropped),
  the bag that subject agreement compares;
- **identifiers**: codes such as ``DEPLOY-APPROVAL-01`` or ``CP-0042`` (a token of
  capitals and digits joined by hyphens), which name a document or a case exactly;
- **entities**: names, as runs of capitalised words ("the Harbor Locker Room",
  "Dana Whitfield") and short acronyms ("MFA", "PII"); a capitalised word that
  only starts a sentence is no name, nor is a long word in capitals for emphasis
  ("IMMEDIATELY");
- **stances**: per clause, whether it affirms/licenses (+1) or negates/prohibits
  (-1) what it says, with the clause's terms; a word negated by a prefix
  ("unescorted", "non-certified") counts as its stem under the opposite stance;
- **quantities**: numbers with what they measure (a unit class such as time,
  money, dose or percent, or the noun they count or label), clock times and
  weekdays;
- **revision**: whether the text says it revises something (explicit revision
  wording: "revised", "supersedes", "replaces", "no longer", "moved to", ...).

Stems come from a small suffix stripper, applied alike to both sides of a
comparison, so "waived"/"waivers" and "deletion"/"delete" meet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


def words_of(text: str) -> frozenset[str]:
    return frozenset(text.split())


FUNCTION_WORDS = words_of(
    """
    a an the this that these those it its it's they them their there here is are was were be
    been being am do does did doing have has had having of to in on at by for with from into
    onto upon about as than then so such and or if when while once until after before over
    under up down out off again further very too also just any all each every both either
    some more most other own same only per via within without against between through during
    above below i me my we us our you your he him his she her who whom whose which what
    where why how because whatever whichever whenever wherever whoever will would shall
    should could might can may must need needs needed ought let lets let's get gets got make
    makes made keep keeps one's anything everything something nothing anyone everyone
    someone nobody now still already ever yet even though although however thus therefore
    hence plus including include includes
    """
)
"""Words that carry no subject. Modal words live here too: their force is read as a stance."""

NEGATORS = words_of(
    """
    not no never none nor neither cannot can't won't don't doesn't didn't isn't aren't
    wasn't weren't shouldn't mustn't mayn't hasn't haven't without
    """
)
PROHIBITIVE_STEMS = (
    "prohibit",
    "forbid",
    "forbad",
    "ban",
    "deny",
    "deni",
    "disallow",
    "bar",
    "refus",
    "reject",
)
"""Verbs whose clause forbids or refuses what it names (matched as stem prefixes)."""

MODAL_WORDS = words_of(
    """
    may can must shall should need needs needed required requires require always mandatory
    allowed permitted authorized authorised approved only
    """
)
MODAL_STEMS = ("allow", "permit", "authoriz", "authoris", "approv", "requir", "mandat", "oblig", "entitl")
"""What makes a clause normative (it licenses, obliges or restricts) rather than descriptive."""
NOT_NEGATED_PREFIX = frozenset(("under", "until", "unit", "union", "universal", "unique", "uniform", "none"))

REVISION_PATTERN = re.compile(
    r"\b(?:revis(?:ed|es|ion)|supersed(?:es|ed|ing)|replac(?:es|ing)|replaced\s+by|in\s+place\s+of|amend(?:s|ed|ment)|"
    r"rescind(?:s|ed)|withdrawn|retir(?:es|ed)|deprecat(?:es|ed)|updated|changed?\s+(?:to|from)|"
    r"no\s+longer|not\s+any\s+more|anymore|instead\s+of|from\s+now\s+on|has\s+moved|have\s+moved|"
    r"moved\s+(?:to|from)|rescheduled|postponed|brought\s+forward|switched|increased\s+to|"
    r"decreased\s+to|reduced\s+to|raised\s+to|lowered\s+to|stopp(?:ed|ing)|discontinued|"
    r"cancel(?:l?ed|s)|effective\s+immediately|with\s+immediate\s+effect|new\s+(?:rule|policy|"
    r"version|dose|time|date))\b",
    re.IGNORECASE,
)
"""Explicit revision wording: words English uses to say that something changed.

A record's own claim to override or supersede others ("this overrides any later
policy") is wording too; the detector lets it order records only when chronology
cannot, and never against chronology."""

NUMBER_WORDS = {
    "zero": 0, "one": 1, "single": 1, "two": 2, "twice": 2, "double": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90,
    "hundred": 100, "thousand": 1000, "dozen": 12, "half": 0.5,
}  # fmt: skip
UNIT_CLASSES = {
    "time": ("second", "sec", "minute", "min", "mins", "hour", "hr", "hrs", "day", "week", "month",
             "year", "yr", "yrs", "quarter", "night", "shift"),
    "money": ("dollar", "usd", "eur", "euro", "gbp", "pound", "cent", "k"),
    "dose": ("mg", "mcg", "microgram", "milligram", "g", "gram", "ml", "milliliter", "unit", "iu",
             "tablet", "pill", "capsule", "puff", "drop"),
    "percent": ("percent", "pct"),
    "distance": ("km", "kilometer", "mile", "meter", "metre", "m", "ft", "foot", "feet"),
}  # fmt: skip
UNIT_OF = {unit: name for name, units in UNIT_CLASSES.items() for unit in units}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")  # fmt: skip
SHORT_WEEKDAYS = {
    "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
    "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
}  # fmt: skip
SHORT_MONTHS = {
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december",
}  # fmt: skip
"""Abbreviations as schedules write them ("Tue Mar 10"): dates, never names."""
TIME_UNIT_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800, "month": 2629800,
                     "year": 31557600, "quarter": 7889400, "night": 86400, "shift": 28800}  # fmt: skip

_TOKEN = re.compile(
    r"\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?|[$€£]?\d[\d,]*(?:\.\d+)?(?:\s?(?:[ap]\.?m\.?)\b|%|k\b)?|"
    r"[A-Za-z][A-Za-z0-9]*(?:['’][a-z]+)?(?:-[A-Za-z0-9]+)*"
)
_CLOCK = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s?([ap])\.?m\.?$|^(\d{1,2}):(\d{2})$", re.IGNORECASE)
_IDENTIFIER = re.compile(r"^(?=[A-Z0-9-]*\d)[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$")
_CLAUSE_BREAK = re.compile(r"[.;!?:]+(?:\s+|$)|\s+but\s+|\s+whereas\s+|,\s+(?=(?:and\s+)?(?:never|not|no)\b)")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude, consistent stem: lower case, possessive and common suffixes removed."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    for suffix, keep in (("ational", "ate"), ("ization", "ize"), ("ations", "ate"), ("ation", "ate"),
                         ("ments", ""), ("ment", ""), ("ness", ""), ("ities", ""), ("ity", ""),
                         ("ingly", ""), ("edly", ""), ("ings", ""), ("ing", ""), ("ions", ""), ("ion", ""),
                         ("ies", "y"), ("ied", "y"), ("sses", "ss"), ("ers", ""), ("er", ""), ("ed", ""),
                         ("ly", ""), ("al", ""), ("es", "e"), ("s", "")):  # fmt: skip
        if (
            w.endswith(suffix)
            and len(w) - len(suffix) >= 3
            and not (suffix == "s" and w[-2:] in ("ss", "us", "is"))
        ):
            w = w[: len(w) - len(suffix)] + keep
            break
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # "stopp" -> "stop"
    return w


@dataclass(frozen=True)
class Quantity:
    """A value and what it measures: ``dimension`` is a unit class ("time", "money",
    "dose", "percent", "distance", "clock", "weekday", "month") or "count"/"label"
    with ``head`` the noun it counts or follows ("reviewer", "room")."""

    dimension: str
    head: str
    value: float | str


@dataclass(frozen=True)
class Clause:
    """One clause: its stance, whether it is normative, and each term with the stance it is said under and
    whether a negation has it in scope (after the negator, or its own prefix)."""

    stance: int  # +1 affirms or licenses, -1 negates or prohibits
    marked: bool  # normative: a modal or deontic word (may, must, allowed, requires, banned, ...)
    entries: tuple[tuple[str, int, bool], ...]  # (term, stance, in negation scope)

    @property
    def terms(self) -> frozenset[str]:
        return frozenset(term for term, _, _ in self.entries)


@dataclass(frozen=True)
class Statement:
    text: str
    terms: frozenset[str]
    identifiers: frozenset[str]
    entities: frozenset[str]
    clauses: tuple[Clause, ...]
    quantities: frozenset[Quantity]
    revision: bool

    def entries(self) -> list[tuple[str, int, bool, bool]]:
        """(term, stance, in negation scope, clause is normative) of every term said."""
        return [(t, s, scoped, c.marked) for c in self.clauses for t, s, scoped in c.entries]


def _number(token: str) -> float | None:
    cleaned = token.lstrip("$€£").rstrip("%").replace(",", "")
    if cleaned.lower().endswith("k"):
        try:
            return float(cleaned[:-1]) * 1000
        except ValueError:
            return None
    try:
        return float(cleaned)
    except ValueError:
        return NUMBER_WORDS.get(token.lower())


def _clock(token: str) -> str | None:
    match = _CLOCK.match(token.strip())
    if not match:
        return None
    if match.group(1):
        hour, minute, half = int(match.group(1)), int(match.group(2) or 0), match.group(3).lower()
        hour = hour % 12 + (12 if half == "p" else 0)
    else:
        hour, minute = int(match.group(4)), int(match.group(5))
    return f"{hour:02d}:{minute:02d}"


def _quantities(tokens: list[str]) -> set[Quantity]:
    found: set[Quantity] = set()
    for i, token in enumerate(tokens):
        low = token.lower()
        if low in WEEKDAYS:
            found.add(Quantity("weekday", "", low))
            continue
        if low in MONTHS and low != "may":
            found.add(Quantity("month", "", low))
            continue
        clock = _clock(token) if (":" in token or token[-1:].lower() == "m") and token[:1].isdigit() else None
        if (
            clock is None
            and i + 1 < len(tokens)
            and tokens[i + 1].lower().rstrip(".") in ("am", "pm", "a.m", "p.m")
        ):
            clock = _clock(token + tokens[i + 1][0]) if token.isdigit() or ":" in token else None
        if clock is not None:
            found.add(Quantity("clock", "", clock))
            continue
        value = _number(token)
        if value is None:
            continue
        if token[:1] in "$€£":
            found.add(Quantity("money", "", value))
            continue
        if token.endswith("%"):
            found.add(Quantity("percent", "", value))
            continue
        following = [
            t for t in tokens[i + 1 : i + 4] if t.lower() not in FUNCTION_WORDS or t.lower() in UNIT_OF
        ]
        nxt = following[0] if following else ""
        unit = stem(nxt) if nxt else ""
        unit = nxt.lower() if nxt.lower() in UNIT_OF else unit
        if unit in UNIT_OF:
            dimension = UNIT_OF[unit]
            if dimension == "time":  # compare durations, not their wording
                seconds = TIME_UNIT_SECONDS.get(_time_unit(unit))
                found.add(Quantity("time", "", value * seconds if seconds else value))
            else:
                found.add(Quantity(dimension, "", value))
        elif nxt and _number(nxt) is None and nxt[:1].isalpha():
            # the noun counted may follow an adjective ("two independent reviewers")
            for word in following[:2]:
                if word[:1].islower() and _number(word) is None:  # a noun, not a name ("Dr. Varga")
                    found.add(Quantity("count", stem(word), value))
        elif i > 0 and tokens[i - 1][:1].isalpha() and tokens[i - 1].lower() not in FUNCTION_WORDS:
            found.add(Quantity("label", stem(tokens[i - 1]), value))
    return found


def _time_unit(unit: str) -> str:
    for name in TIME_UNIT_SECONDS:
        if name.startswith(unit) or unit.startswith(name[:3]):
            return name
    return unit


def _is_content(token: str) -> bool:
    low = token.lower()
    return (
        token[:1].isalpha()
        and low not in FUNCTION_WORDS
        and low not in NEGATORS
        and len(low) > 1
        and _number(token) is None
        and low not in WEEKDAYS
    )


def _clause(text: str) -> Clause | None:
    tokens = _TOKEN.findall(text)
    if not tokens:
        return None
    lowered = [t.lower().replace("’", "'") for t in tokens]
    stems = [stem(t) for t in lowered]
    prohibitive = [i for i, st in enumerate(stems) if st.startswith(PROHIBITIVE_STEMS) and len(st) <= 9]
    negations = [i for i, low in enumerate(lowered) if low in NEGATORS or low.endswith("n't")] + prohibitive
    stance = -1 if negations else 1
    scope_start = min(negations) if negations else len(tokens)
    marked = bool(prohibitive) or any(
        low in MODAL_WORDS or st.startswith(MODAL_STEMS) for low, st in zip(lowered, stems, strict=True)
    )
    entries: dict[str, tuple[int, bool]] = {}
    for index, token in enumerate(tokens):
        for part in token.split("-") if not _IDENTIFIER.match(token) else [token]:
            if not _is_content(part):
                continue
            low = part.lower()
            if low.startswith(("un", "non")) and len(low) > 5 and low not in NOT_NEGATED_PREFIX:
                base = stem(low[3:] if low.startswith("non") else low[2:])
                entries[base] = (-stance, True)  # "unescorted": negated by its own prefix
                continue
            entries.setdefault(stem(part), (stance, index > scope_start))
    return Clause(stance, marked, tuple((t, s, scoped) for t, (s, scoped) in sorted(entries.items())))


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:['’]s)?(?:-[A-Za-z0-9]+)*\.?|[^\sA-Za-z]+")
HONORIFICS = frozenset(("mr.", "mrs.", "ms.", "dr.", "mx.", "prof."))
_POSSESSIVE = re.compile(r"['’]s$")


def _name_word(word: str) -> bool:
    bare = word.rstrip(".").split("'")[0].split("’")[0]
    if not bare[:1].isupper() or bare.lower() in FUNCTION_WORDS or bare.lower() in NEGATORS:
        return False
    if bare.isupper() and len(bare) > 5:
        return False  # emphasis ("IMMEDIATELY"), not an acronym
    low = bare.lower()
    calendar = low in WEEKDAYS or low in MONTHS or low in SHORT_WEEKDAYS or low in SHORT_MONTHS
    return _number(bare) is None and not calendar and low not in ("am", "pm")


def entities(text: str) -> frozenset[str]:
    """Names in ``text``: runs of capitalised words and acronyms, case-folded, without a
    leading article; a lone capitalised word that starts a sentence is not a name."""
    return frozenset(name for name, _ in entity_spans(text))


def entity_spans(text: str) -> list[tuple[str, int]]:
    """The names of :func:`entities` with where each starts, in text order. A possessive
    ends a name: "Elena's Orbit Review" names Elena and Orbit Review."""
    found: list[tuple[str, int]] = []
    run: list[re.Match[str]] = []
    starts_sentence = True
    run_at_start = False

    def close() -> None:
        if run and not (run_at_start and len(run) == 1 and not run[0].group().rstrip(".").isupper()):
            words = (m.group().rstrip(".").split("'")[0].split("’")[0].lower() for m in run)
            found.append((" ".join(words), run[0].start()))

    for match in _WORD.finditer(text):
        word = match.group()
        low = word.lower()
        if word[:1].isalpha() and (_name_word(word) or (run and low in HONORIFICS) or low in HONORIFICS):
            if not run:
                run_at_start = starts_sentence
            run.append(match)
            starts_sentence = False
            if _POSSESSIVE.search(word):
                close()
                run = []
                continue
            if not word.endswith(".") or low in HONORIFICS:
                continue
            close()
            run = []
            starts_sentence = True
            continue
        close()
        run = []
        starts_sentence = not word[:1].isalnum() and any(c in word for c in ".!?:;")
        if word[:1].isalpha():
            starts_sentence = word.endswith(".")
    close()
    return found


AUDIENCE_WORDS = frozenset({"public", "private", "open"})
"""First words that say which side of a thing a name means, not which thing ("Public Makers"
for "Raven Makers")."""


def unmatched_entities(
    these: frozenset[str],
    those: frozenset[str],
    sides: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
) -> frozenset[str]:
    """Entities of ``these`` naming nothing of ``those``. Two names match when one ends the
    other ("pin" and "walnut wrap pin", "cedar care" and "updating cedar care", which a
    sentence's first word, capitalised only for starting it, may have joined), or when
    both differ only in a first word of three or more ("provisional cedar care" and
    "updating cedar care") or in a first word saying which side of it is meant, when what
    names the other calls its thing that side too (``sides``: the side words said beside
    ``these`` and beside ``those``; "public makers" is "raven makers" in "Public update:
    Raven Makers is moving ...", "Public Storage" no "Cube Storage"); "helen chen" and
    "rosa chen" do not."""
    mine, theirs = sides
    return frozenset(
        name
        for name in these - those
        if not any(_same_name(name, other) or _same_side(name, other, theirs, mine) for other in those)
    )


def _same_side(a: str, b: str, said_with_b: frozenset[str], said_with_a: frozenset[str]) -> bool:
    """Whether two names differ only in a first word saying which side is meant, said
    beside the other name too ("Public Makers" and "Raven Makers" called public)."""
    first, second = a.split(" "), b.split(" ")
    if len(first) != len(second) or len(first) < 2 or first[1:] != second[1:]:
        return False
    return (first[0] in AUDIENCE_WORDS and first[0] in said_with_b) or (
        second[0] in AUDIENCE_WORDS and second[0] in said_with_a
    )


def _same_name(a: str, b: str) -> bool:
    first, second = a.split(" "), b.split(" ")
    if len(first) < len(second):
        first, second = second, first
    if first[-len(second) :] == second and len(first) > len(second):
        return True  # "Walnut Wrap PIN" and "PIN", "Cinder Annex Pod" and "Annex Pod"
    return len(first) == len(second) >= 3 and first[1:] == second[1:]


@lru_cache(maxsize=16384)
def analyse(text: str) -> Statement:
    """The :class:`Statement` of ``text`` (cached: texts are compared many times)."""
    clauses = tuple(c for part in _CLAUSE_BREAK.split(text) if part.strip() for c in [_clause(part)] if c)
    tokens = _TOKEN.findall(text)
    identifiers = frozenset(t.upper() for t in tokens if _IDENTIFIER.match(t))
    terms = frozenset().union(*(c.terms for c in clauses)) if clauses else frozenset()
    return Statement(
        text=text,
        terms=terms,
        identifiers=identifiers,
        entities=entities(text),
        clauses=clauses,
        quantities=frozenset(_quantities(tokens)),
        revision=REVISION_PATTERN.search(text) is not None,
    )
