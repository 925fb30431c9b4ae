"""Claims: the statements inside a conversation turn, each with its subject and its values.

A chat turn states several things ("Your MRI is Tuesday at 10:00, and the
metoprolol stays at 25 mg"), so supersession in conversations works on parts of
turns, not on whole turns. :func:`claims_of` cuts a turn into **claims**:

- sentences (the labeller's :func:`~govmem.governance.labeling.sentence_spans`),
  and a sentence that lists several values for different things ("Wednesday 2 PM
  nephrology and Friday 11 AM rheumatology") into its list items, cut at ``;``,
  ``,`` and ``and`` where each side holds a value and a word of its own;
- **values** by attribute: ``date``, ``weekday``, ``clock`` (times; "6:10" without
  AM/PM matches either), ``dose``
  (a number with a dose unit), ``amount`` (money), ``percent`` and ``code``
  (a token mixing digits with letters, ``_`` or ``-``, or a bare number of three
  or more digits: room and suite numbers, door codes, phone numbers, case codes);
- **replaced** values: those the claim says are the old ones ("from Tuesday 10:00
  to Thursday", "LH-318, replacing the earlier LH-314");
- **roles** of times: a clock, date or weekday takes a role from the word next to it
  ("arrive by 8:50" is ``clock:arrival``, "checked in for your 8:15" ``clock:check-in``,
  "started March 9" ``date:start``), so an arrival time never replaces the time of the
  event itself;
- **anchor**: the content stems that say what the values are of ("follow-up",
  "metoprolol tartrate", "Beacon Hall temporary code", "Saturday" in "the Saturday
  summary"), without the words that only say something changed or holds ("moved",
  "remains", "first", "booked") and without names of people ("Dr. Varga", "Elena's",
  "Walter Brandt, you're ..."), whom the subject check compares; a **heading** before a
  colon is noted, weekdays naming a thread are kept apart (``threads``), and whether
  the claim says "my" (``mine``); the anchor of a sentence just before it that says
  what changes and gives no value (``introduced``), the name of a record its sentence
  opens on (``record``: "Current support note ..."), and whether it lists items of
  words beside its values (``lists_more``);
- whether it **revises** (change wording not under a negation nor inside a condition:
  "... unless we reschedule") and whether it
  **asserts** at all: a question, a condition ("If you move Monday, ...") or a
  request ("Please move ...") states no value.

The rules are general English (units, weekdays, months, change verbs), not
phrases of particular conversations.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from govmem.governance.labeling import sentence_spans
from govmem.governance.prefilter import contains_any
from govmem.governance.revocation.statements import (
    FUNCTION_WORDS,
    MONTHS,
    NEGATORS,
    REVISION_PATTERN,
    SHORT_MONTHS,
    SHORT_WEEKDAYS,
    WEEKDAYS,
    entity_spans,
    stem,
    words_of,
)

ATTRIBUTES = ("date", "weekday", "clock", "dose", "amount", "percent", "code")

CHANGE_PATTERN = re.compile(
    r"\b(?:(?:is|are)\s+now|now\s+(?:is|are|at|on|in|says|reads|set|due)|mov(?:e|ed|es|ing)|"
    r"reschedul\w*|chang(?:e|ed|es|ing)|switch\w*|increas\w*|decreas\w*|reduc\w*|"
    r"rais(?:e|ed|es|ing)|lower(?:ed|s|ing)?|replac\w*|updat\w*|instead|new|newer|newest|"
    r"no\s+longer|rotat\w*|revis\w*|supersed\w*|adjust\w*|shift(?:ed|s)?|corrected|correction|"
    r"narrow(?:ed|s|ing)|(?:will|to|can|please|we|i)\s+narrow|"
    r"narrow(?=\s+(?:the|your|my|our|their|his|her|its|it|this|that|down)\b)|"
    r"shorten\w*|extend(?:ed|s|ing)?|push(?:ed|es)?\s+back|bump(?:ed|s)?|"
    r"postpon\w*|brought\s+forward|pulled\s+forward|moved\s+up|rather\s+than|swap(?:s|ped|ping)?|"
    r"delay(?:ed|s|ing)?|widen(?:ed|s|ing)?|lengthen(?:ed|s|ing)?|tighten(?:ed|s|ing)?|"
    r"relocat\w*|reassign\w*|re-?book\w*|trimm(?:ed|ing)|cut\s+back|scaled\s+back|"
    r"revert\w*|amend\w*|taper(?:s|ed|ing)?|(?:up|down)\s+from(?=\s+[$€£\d])|"
    r"(?:went|goes)\s+(?:up|down)(?!\s+to\s+[A-Za-z])|"
    r"(?:went|goes|dropp(?:ed|ing)|drops|ris(?:es|ing)|rose|fell|falls)\s+(?:to|from)(?=\s+[$€£\d]))\b",
    re.IGNORECASE,
)
"""Words saying that a value changed (general English; ``REVISION_PATTERN`` adds more).
"Current" and "remains" say what holds, not that it changed."""
CHANGE_STEMS = frozenset(
    stem(w)
    for w in words_of(
        """
        now move moved moving reschedule rescheduled change changed changes switch switched
        increase increased decrease decreased reduce reduced raise raised lower lowered replace
        replaced replacing replaces update updated updates new newer newest current currently old
        older earlier previous previously former formerly instead revised revision supersede
        superseded rotate rotated rotation adjust adjusted shift shifted correct corrected
        correction longer latest original narrow narrowed shorten shortened extend extended
        push pushed bump bumped postpone postponed rather swap swapped delay delayed widen widened
        lengthen lengthened tighten tightened relocate relocated reassign reassigned rebook rebooked
        trim trimmed revert reverted amend amended anymore remain remains remained stay stays stayed
        """
    )
)
"""Stems that say *that* something changed or holds, not *what*: kept out of a claim's
anchor. ("first", "initial", "booked", "planned", "confirmed" were here for a few hours:
review found them merging "the first dose" with "the second dose", "the initial consult"
with "the follow-up consult".)"""

RECORD_STEMS = frozenset(
    stem(w)
    for w in words_of(
        """
        schedule scheduled calendar recap summary snapshot note notes log logged logging entered
        record recorded recording item items entry detail details status state
        """
    )
)
"""Words about the record rather than about what a value is of ("I updated the schedule
to Wednesday 2:00 PM nephrology", "calendar recap: ..."): kept out of anchors, like
change words."""

CONNECTIVES = words_of(
    """
    but because since yet unless also please ok okay yes thanks use uses used using
    """
)
"""Conversation words that say nothing about what a value is of ("Orbit Mentors uses
Commons 804" and "Orbit Mentors moves its hall to Commons 805" are about one hall)."""

REPLACED_CUE = re.compile(
    r"\b(?:from|replacing|replaces|replaced|instead\s+of|rather\s+than|previously|formerly|was|were|"
    r"old|older|earlier|original(?:ly)?|prior|retired|stale|expired|deactivated|historical|former|"
    r"(?:is|are|was|were)\s+no\s+longer)\b",
    re.IGNORECASE,
)
"""Words after which a value is the one replaced ("from Tuesday", "replacing LH-314", "is no
longer Pod 1405"; not "Ben no longer takes the 7:45 AM bus", which says nothing of Mia's)."""
_RETIRES = re.compile(
    r"\b(?:retir\w*|no\s+longer|supersed\w*|stale|obsolete|historical|history|replac\w*|"
    r"instead\s+of|rather\s+than|revoked|expired|deactivated)\b",
    re.IGNORECASE,
)
_SAID_OLD = re.compile(
    r"\s*(?:USD|EUR|GBP|dollars)?\s*(?:figure|amount|code|badge|number|value|pair|date|line)?\s+"
    r"(?:is|are|was|were|becomes|become|has\s+become)\s+(?:now\s+)?(?:just\s+)?(?:the\s+|an?\s+)?"
    r"(?:earlier|old|older|previous|prior|former|historical|history|retired|stale|obsolete|superseded|"
    r"no\s+longer\s+(?:current|active|valid|in\s+use|the\s+active))\b",
    re.IGNORECASE,
)
"""After a value: words saying it is the old one ("3,390 USD is now earlier history",
"CR-8804 becomes retired history", "JRX-7794 is no longer active")."""
_CHANGED_FROM = re.compile(
    r"\b(?:mov(?:e|ed|es|ing)|chang\w*|shift\w*|narrow\w*|widen\w*|revis\w*|reschedul\w*|switch\w*|"
    r"push\w*|bump\w*|postpon\w*|delay\w*|relocat\w*|reassign\w*|updat\w*|extend\w*|shorten\w*|"
    r"reduc\w*|increas\w*|decreas\w*|rais(?:e|ed|es|ing)|lower\w*|adjust\w*|swap\w*|trimm\w*|cut|"
    r"revert\w*|amend\w*|rotat\w*|replac\w*|transfer\w*|went|goes|go|going|got|dropp\w*|drops|"
    r"ris(?:e|es|ing|en)|rose|falls?|fell|taper\w*|titrat\w*)\b"
    r"\S*(?:\s+(?!(?:to|until|till|through|now|is|are)\b)\S+){0,8}\s+$",
    re.IGNORECASE,
)
"""A verb of change up to eight words before "from", none of them "to", "is" or "now" ("moves
from", "moves the private review date from", "increased the evening dose of Dad's lisinopril
from"; not "moved it to Friday, now open from ...")."""
_RANGE_FROM = re.compile(
    r"\s*(?:\S+\s+){1,8}?(?:to|until|till|through)\s+"
    r"(?=[$€£\d]|noon\b|midnight\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun))"
    r"|\s*\d{1,2}(?::\d\d)?\s*(?:[ap]\.?m\.?)?\s*[-–—]\s*\d",
    re.IGNORECASE,
)
"""After "from": a value and then the end of a range, itself a value ("from 4:35 PM to 6:30
PM", "from 9-5"; not "up from 10 mg, according to ...", "(from 555-0144)")."""
_NOT_A_CHANGE_FROM = re.compile(r"\b(?:separate|separated|distinct|apart|away|different|far|aside)\s+$", re.I)
_SHARED_TAIL = re.compile(
    r"(?i:[\s,;:]*(?:(?:both|each|all)\s+)?(?:for|with|at|in|of|by)\b)"
    r"|[\s,;:(–—-]*(?:(?i:both|each|all|that['’]s|that\s+is)\s+)?[A-Z][a-z]+(?:['’]s)?[\s).!]*$"
)
"""After the last value of a sentence, a tail naming whom every item is about ("..., both
for Leo", "..., both Leo's", "(Leo)")."""
_QUOTED = re.compile(r"\s*(['‘\"“])[^'’\"”]*['’\"”]")
_NEAR = re.compile(r"(?:\W*[\w$€£.,:-]+){1,4}")
"""At most four words: how far a replaced value may stand from its cue."""
REPLACED_END = re.compile(r"\bto\b|\bnow\b|\bis\b|\bare\b|[,;]|\bwith\b|\bfor\b", re.IGNORECASE)

CONDITIONAL = re.compile(r"^\W*(?:if|unless|whether|in\s+case|suppose|once|when|should)\b", re.IGNORECASE)
REQUEST = re.compile(
    r"\b(?:please|can\s+(?:you|we|i)|could\s+(?:you|we|i)|would\s+(?:you|it)|will\s+you|"
    r"do\s+you|did\s+you|is\s+it|are\s+you|let\s+me\s+know|tell\s+(?:me|us)|"
    r"(?:confirm|check)\s+(?:whether|if))\b",
    re.IGNORECASE,
)
_CONDITION_IN = re.compile(r"\b(?:if|unless|whether|in\s+case|otherwise)\b", re.IGNORECASE)
_CLAUSE_START = re.compile(r"[;:,(]")
_CLAUSE_END = re.compile(
    r"[;,(]|[.:](?!\d)|\b(?:and|because|so|but|which|when|whenever|while|will)\b", re.IGNORECASE
)
_CONDITION_AFTER = re.compile(r"\b(?:if|unless)\b(?!\s+(?:needed|necessary|possible|so)\b)", re.IGNORECASE)
"""A condition after the change in its own clause ("goes up to 20 mg if his pressure stays
high"): nothing changed yet. One after a comma qualifies something else ("is now 10:25 AM
to 10:40 AM, still by the front desk if Naomi signs")."""
_NEGATED = re.compile(r"\b(?:not|no|never|n't|without)\W+(?:\w+\W+){0,2}$", re.IGNORECASE)

DOSE_UNITS = {
    "mg": "mg", "milligram": "mg", "milligrams": "mg", "mcg": "mcg", "microgram": "mcg",
    "micrograms": "mcg", "g": "g", "gram": "g", "grams": "g", "ml": "ml", "milliliter": "ml",
    "milliliters": "ml", "units": "unit", "unit": "unit", "iu": "unit", "tablet": "tablet",
    "tablets": "tablet", "pill": "tablet", "pills": "tablet", "capsule": "capsule",
    "capsules": "capsule", "puff": "puff", "puffs": "puff", "drop": "drop", "drops": "drop",
}  # fmt: skip

DAY_PREPOSITIONS = words_of(
    """
    on to from until till by before after next every moved moves
    """
)
DAY_FOLLOWERS = words_of(
    """
    morning afternoon evening night noon midnight am pm through
    """
)
_CLOCK = re.compile(
    r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?|\b(\d{1,2}):(\d{2})\b|\b(noon|midnight)\b", re.I
)
_DATE = re.compile(
    r"\b(" + "|".join([*MONTHS, *SHORT_MONTHS]) + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?", re.I
)
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")
_WEEKDAY = re.compile(r"\b(" + "|".join([*WEEKDAYS, *SHORT_WEEKDAYS]) + r")\b\.?", re.I)
_DOSE = re.compile(
    r"\b(\d+(?:\.\d+)?)\s*(" + "|".join(sorted(DOSE_UNITS, key=len, reverse=True)) + r")\b", re.I
)
_MONEY = re.compile(
    r"[$€£]\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?)\s*(?:dollars|euros|pounds|usd|eur|gbp)\b", re.I
)
_PERCENT = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:%|percent\b)", re.I)
_CODE = re.compile(
    r"(?<![\w$€£])(?=[\w-]*\d)[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+(?![\w-])"  # LH-318, bh_temp_5926, 555-0144
    r"|\b(?!\d+(?:st|nd|rd|th)\b)(?=\w*\d)(?=\w*[A-Za-z])\w+\b"  # 4C, 7Q4N (not ordinals)
    r"|(?<![\d,.])\b(?!(?:19|20)\d\d\b)\d{3,}\b(?![,.]\d)"  # 5274 (not a year, not 3,980)
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*")
_DIGIT = re.compile(r"\d")
_RUN = re.compile(r"[\w-]+")
_MONTH_CUES = tuple(sorted({m[:3].casefold() for m in (*MONTHS, *SHORT_MONTHS)}))
_WEEKDAY_CUES = tuple(sorted({d[:3].casefold() for d in (*WEEKDAYS, *SHORT_WEEKDAYS)}))
_MONEY_CUES = ("dollars", "pounds", "usd", "eur", "gbp")
"""What a text holds when the pattern above it can match (casefolded, as ``re.I`` folds)."""

TIME_ATTRIBUTES = frozenset(("date", "weekday", "clock"))
ROLE_WORDS = {
    **dict.fromkeys(("arrive", "arrives", "arrived", "arriving", "arrival"), "arrival"),
    **dict.fromkeys(("checkin",), "check-in"),
    **dict.fromkeys(("start", "starts", "started", "starting", "begin", "begins", "began", "beginning",
                     "begun", "commence", "commences", "commenced", "commencing", "since"), "start"),
    **dict.fromkeys(("effective",), "effective"),
    **dict.fromkeys(("end", "ends", "ended", "ending", "expire", "expires", "expired", "expiring", "expiry",
                     "expiration"), "end"),
    **dict.fromkeys(("deadline", "due"), "deadline"),
    **dict.fromkeys(("remind", "reminds", "reminded", "reminder", "reminders"), "reminder"),
    **dict.fromkeys(("leaving", "depart", "departs", "departing", "departure"), "departure"),
    **dict.fromkeys(("pickup",), "pickup"),
    **dict.fromkeys(("dropoff",), "dropoff"),
    **dict.fromkeys(("fast", "fasting"), "fasting"),
}  # fmt: skip
"""Words that give a time the role it plays beside the event it belongs to ("arrive by 8:50",
"8:50 arrival", "checked in at 8:15", "started March 9"): a time with one role is never
the replacement of a time with another (or with none, the event's own time)."""
PARTICLE_VERBS = {
    **dict.fromkeys(("check", "checks", "checked", "checking"), ("in", "check-in")),
    **dict.fromkeys(("pick", "picks", "picked", "picking"), ("up", "pickup")),
    **dict.fromkeys(("drop", "drops", "dropped", "dropping"), ("off", "dropoff")),
}
"""Verbs that give a role with their particle ("check in", "checked in", "pick up")."""
_NAME_RUN = r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)*"
_PERSONS = (re.compile(rf"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.\s+(?P<name>{_NAME_RUN})"),)  # a title
"""Names of people taken out of anchors: only a clinician or official after a title (whom
two different slots often share). An owner ("Elena's appointment") or an addressee
("Walter, your ...") says whose slot it is and stays: review found "Elena's appointment"
superseded by "Marco's appointment moved" when owners were taken out."""
_OWNER = re.compile(r"\b([A-Z][a-z]+)['’]s\b")
_KIN = re.compile(r"\b(?!(?:it|that|what|he|she|who|there|here|let|where)['’]s\b)[a-z]+['’]s\b")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b(?!['’]s)")
_HEADING = re.compile(r":\s+")
_MINE = re.compile(r"\b(?:my|mine)\b", re.IGNORECASE)
_ROLE_STOP = re.compile(r"[.;:!?,()]")
_RUN_GAP = re.compile(r"^[\s,]*(?:(?:at|on|the|to|through|until|till)\b[\s,]*|[-–—]\s*)?$", re.IGNORECASE)
_REASON = re.compile(r"\b(?:because|due\s+to|given\s+that|now\s+that|as\s+a\s+result\s+of)\b", re.IGNORECASE)
_CONTRAST = re.compile(
    r"\b(?:distinct\s+from|separate\s+from|apart\s+from|unlike|as\s+opposed\s+to|"
    r"not\s+to\s+be\s+confused\s+with|so\s+(?:that\s+)?it|while|whereas|pending"
    r"|(?:should|must|does|do|did|will|would|can)(?:\s+not|n['’]t)\s+(?:trigger|affect|change|alter|mean"
    r"|imply|touch|move|apply\s+to|reveal|say|tell|hint|suggest|be\s+(?:used|read|taken)\s+(?:to|for|as))"
    r"|without\s+(?:changing|affecting|touching|moving))\b",
    re.IGNORECASE,
)
_REASON_END = re.compile(r"[,;:]")
_QUOTATION = re.compile(r"(?<!\w)['‘\"“][^'’\"”]+['’\"”](?!\w)")
_OWNS = re.compile(
    r"\s*(?:(?:also|then)\s+)?(?:(?:the|(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.)\s+)?(?:[A-Z][a-z]+['’]s|[A-Z][a-z]+s['’]|her|his|their)\s"
)
_SHARES_VALUE = re.compile(  # "... moved to 12:50 PM and Tuesday's ECG too": the same value
    r"\b(?:too|as\s+well|also|likewise|with\s+it|the\s+same|along\s+with|to\s+match|follows?\s+suit"
    r"|stays?|remains?)\b",
    re.I,
)
_AFTER_WHILE = re.compile(r"\s(?:while|whereas)\s+$", re.I)
_CUT = re.compile(r";\s+|,\s+and\s+|,\s+(?!\d)|\s+and\s+(?!\d)|\s+(?:while|whereas)\s+")


@dataclass(frozen=True)
class Claim:
    """One statement inside a turn: its character span, what it is about and what it says."""

    start: int
    end: int
    anchor: frozenset[str]
    entities: frozenset[str]
    values: dict[str, frozenset[str]] = field(hash=False)
    replaced: dict[str, frozenset[str]] = field(hash=False)
    revises: bool = False
    asserts: bool = True
    sentence: bool = True
    """Whether the claim is its whole sentence (not one item of a listing sentence)."""
    names: frozenset[str] = frozenset()
    """Stems of the name words in the claim (kept out of ``anchor``)."""
    threads: frozenset[str] = frozenset()
    """Weekdays its sentence uses to name a thread ("the Saturday setup window")."""
    mine: bool = False
    """Whether it says "my" or "mine": what it is about belongs to its speaker."""
    heading: frozenset[str] = frozenset()
    """Anchor stems of a heading before a colon ("Final Saturday update: ..."), also in ``anchor``."""
    owners: frozenset[str] = frozenset()
    """Stems of the names it gives an owner of ("Elena's review date"), also in ``anchor``."""
    capitals: frozenset[str] = frozenset()
    """Stems of its capitalised words outside a heading (a person may be one: "Mia takes")."""
    kin: bool = False
    """Whether it names an owner in lower case ("my husband's", "the baby's")."""
    retires: bool = False
    """Whether it says in so many words that a value is retired ("is retired", "no longer
    active", "is superseded", "replaces 231,000 USD"): "was" or "from" before a value do not."""
    record: frozenset[str] = frozenset()
    """Stems of the name of the record a sentence opens on ("Current support note is now ...",
    "Current support summary still uses ...": ``support``); empty when it opens on none."""
    lists_more: bool = False
    """Whether it lists items of words beside its values ("..., side door keypad, kitchen plus
    Helen's bedroom"): what a change of its values leaves standing."""
    introduced: frozenset[str] = frozenset()
    """Anchor stems of a sentence just before it that says what changes but gives no value
    ("The storage-cabinet PIN also rotates. The current Walnut Wrap PIN is now 9136.")."""


def _codes(text: str) -> Iterator[re.Match[str]]:
    """``_CODE``'s matches, searched only in the runs of word characters and hyphens that
    hold a digit (every code does, and lies inside one such run); each search reaches two
    characters past its run for the pattern's lookaheads, and keeps matches starting in it."""
    for run in _RUN.finditer(text):
        start, end = run.span()
        if _DIGIT.search(text, start, end) is None:
            continue
        for m in _CODE.finditer(text, start, min(len(text), end + 2)):
            if m.start() < end:
                yield m


def _located(text: str) -> list[tuple[str, str, int, int]]:
    """(attribute, normalised value, start, end) of every value in ``text``, without overlaps."""
    found: list[tuple[str, str, int, int]] = []
    taken: list[tuple[int, int]] = []

    def add(attribute: str, value: str, start: int, end: int) -> None:
        if any(start < b and a < end for a, b in taken):
            return
        taken.append((start, end))
        found.append((attribute, value, start, end))

    # Each pattern runs only on a text holding what all its matches hold (a digit, a
    # month's first letters, ...): most sentences state no value, and eight scans of
    # every sentence were most of the cost of detection.
    digits = _DIGIT.search(text) is not None
    folded = text.casefold()
    for m in _DATE.finditer(text) if digits and contains_any(folded, _MONTH_CUES) else ():
        month = m.group(1).lower()
        add("date", f"{SHORT_MONTHS.get(month, month)} {int(m.group(2))}", m.start(), m.end())
    for m in _NUMERIC_DATE.finditer(text) if digits and "/" in text else ():
        add("date", f"{int(m.group(1))}/{int(m.group(2))}", m.start(), m.end())
    for m in _CLOCK.finditer(text) if digits or contains_any(folded, ("noon", "midnight")) else ():
        if m.group(6):
            add("clock", m.group(6).lower(), m.start(), m.end())
            continue
        if m.group(4):
            hour, minute = int(m.group(4)), int(m.group(5))
            if 1 <= hour <= 12:  # "6:10" with no AM/PM: morning or evening
                add("clock", f"{hour % 12:02d}:{minute:02d}~", m.start(), m.end())
                continue
        else:
            hour, minute = (
                int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0),
                int(m.group(2) or 0),
            )
        if hour < 24 and minute < 60:
            add("clock", f"{hour:02d}:{minute:02d}", m.start(), m.end())
    for m in _WEEKDAY.finditer(text) if contains_any(folded, _WEEKDAY_CUES) else ():
        if not _names_a_thread(text, m):
            day = m.group(1).lower()
            add("weekday", SHORT_WEEKDAYS.get(day, day), m.start(), m.end())
    if not digits:
        return _with_roles(text, found)
    for m in _DOSE.finditer(text):
        unit = DOSE_UNITS.get(m.group(2).lower())  # None: a unit matched only by case folding ("İU")
        if unit is not None:
            add("dose", f"{float(m.group(1)):g} {unit}", m.start(), m.end())
    for m in _MONEY.finditer(text) if contains_any(text, "$€£") or contains_any(folded, _MONEY_CUES) else ():
        add("amount", f"{float((m.group(1) or m.group(2)).replace(',', '')):g}", m.start(), m.end())
    for m in _PERCENT.finditer(text) if "%" in text or "percent" in folded else ():
        add("percent", f"{float(m.group(1)):g}", m.start(), m.end())
    for m in _codes(text):
        add("code", m.group(0).upper(), m.start(), m.end())
    return _with_roles(text, found)


def _role_of(words: list[str], forward: bool) -> str:
    """The role the words next to a time give it: ``words`` in order away from the time
    (after it: only the next word; before it: back over up to three function words)."""
    lowered = [w.lower().split("'")[0] for w in words]
    for i, low in enumerate(lowered):
        further = lowered[i + 1] if i + 1 < len(lowered) else ""
        if forward:
            if low in PARTICLE_VERBS and further == PARTICLE_VERBS[low][0]:
                return PARTICLE_VERBS[low][1]
            return ROLE_WORDS.get(low, "") if not (low == "due" and further == "to") else ""
        if further in PARTICLE_VERBS and low == PARTICLE_VERBS[further][0]:
            return PARTICLE_VERBS[further][1]
        if low in ROLE_WORDS:
            return ROLE_WORDS[low]
        if low not in FUNCTION_WORDS or i >= 3:
            return ""
    return ""


def _with_roles(text: str, found: list[tuple[str, str, int, int]]) -> list[tuple[str, str, int, int]]:
    """Time values whose neighbouring word gives them a role ("arrive by 8:50") get the
    attribute ``clock:arrival`` (``date:start``, ...); a run of adjacent time values
    ("Friday March 13 at 9:45") shares one role."""
    times = sorted((v for v in found if v[0] in TIME_ATTRIBUTES), key=lambda v: v[2])
    runs: list[list[tuple[str, str, int, int]]] = []
    for value in times:
        if runs and _RUN_GAP.match(text[runs[-1][-1][3] : value[2]]):
            runs[-1].append(value)
        else:
            runs.append([value])
    role_of: dict[int, str] = {}
    ends = sorted(v[3] for v in found)
    starts = sorted(v[2] for v in found)
    for run in runs:
        start, end = run[0][2], run[-1][3]
        # neither side reaches past punctuation or another value
        left = max([0, *(e for e in ends if e <= start)])
        left = max([left, *(m.end() for m in _ROLE_STOP.finditer(text, left, start))])
        right = min([len(text), *(b for b in starts if b >= end)])
        stop = _ROLE_STOP.search(text, end, right)
        after = _WORD.findall(text[end : stop.start() if stop else right])
        before = _WORD.findall(text[left:start])
        role = _role_of(after[:2], forward=True)
        if not role:
            role = _role_of(before[::-1][:6], forward=False)
        for value in run:
            role_of[value[2]] = role
    return [
        (f"{a}:{role_of[start]}" if role_of.get(start) else a, v, start, end) for a, v, start, end in found
    ]


def _names_a_thread(text: str, match: re.Match[str]) -> bool:
    """Whether a weekday qualifies a noun ("the Saturday summary", "Tuesday's ECG") rather
    than giving a day ("moved to Saturday", "Friday July 10 at 11:00")."""
    if text[match.end() : match.end() + 2] in ("'s", "’s"):
        return True
    before = _WORD.findall(text[max(0, match.start() - 20) : match.start()])
    if before and before[-1].lower() in DAY_PREPOSITIONS:
        return False
    after = _WORD.match(text, match.end() + 1) if text[match.end() : match.end() + 1] == " " else None
    if after is None:
        return False
    word = after.group(0).lower()
    return (
        word not in FUNCTION_WORDS
        and word not in DAY_FOLLOWERS
        and word not in MONTHS
        and word not in WEEKDAYS
        and word not in SHORT_MONTHS
    )


_KEPT_BEFORE = re.compile(
    r"\b(?:keep|keeps|kept|keeping|retain|retains|retained|retaining)\s+(?:the\s+|that\s+|this\s+)?$", re.I
)
"""Just before a cue of an old value: words keeping it ("keep the older fallback 4408")."""
_LEFT_OUT = re.compile(r"\b(?:out\s+of|away\s+from|off\s+(?:the\s+)?\w+|hidden|private)\b", re.I)
"""Keeping a value out of something is no keeping ("keep the old code out of notes")."""


def _replaced_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges holding the values a text says were replaced: from a cue to the
    next stop word, and no further than a few words ("the earlier room TC-204", not "the
    earlier code will retire once the BH-238 move completes"), or to the end of a quotation
    the cue opens ("narrowed from 'arrival window ... through March 20' to ..."). "From" is
    a cue after a verb of change ("moves from June 25 to July 2"), or alone after change
    wording ("now 10 mg, up from 5 mg", "moved it to Thursday from Tuesday"); "from X to Y"
    otherwise is a range ("Friday from 4:35 PM to 6:30 PM"), and "separate from", "away
    from" or "call from" replace nothing."""
    ranges = []
    for cue in REPLACED_CUE.finditer(text):
        if _KEPT_BEFORE.search(text, 0, cue.start()) and not _LEFT_OUT.search(text, cue.end()):
            continue  # "Keep the older garage fallback 4408 only as emergency backup"
        if (
            cue.group(0).lower() == "from"
            and _CHANGED_FROM.search(text, text.rfind(":", 0, cue.start()) + 1, cue.start()) is None
        ):
            if _RANGE_FROM.match(text, cue.end()) is not None:
                continue  # "Friday from 4:35 PM to 6:30 PM": a range
            changed = any(m.start() < cue.end() for m in CHANGE_PATTERN.finditer(text))
            if _NOT_A_CHANGE_FROM.search(text, 0, cue.start()) or not changed:
                continue  # "separate from public 4,015 USD", "the nurse will call from 555-0144"
        quoted = _QUOTED.match(text, cue.end()) if cue.group(0).lower() not in ("was", "were") else None
        if quoted is not None:  # 'the message was "..."' quotes what it is now
            ranges.append((cue.end(), quoted.end()))
            continue
        end = REPLACED_END.search(text, cue.end())
        stop = end.start() if end else len(text)
        near = _NEAR.match(text, cue.end())
        ranges.append((cue.end(), min(stop, near.end() if near else stop)))
    return ranges


def _anchor(
    text: str, located: list[tuple[str, str, int, int]], names: frozenset[str] = frozenset()
) -> frozenset[str]:
    """Content stems saying what the values are of: no change words, and no names of
    people or places (``names``: words of the sentence's entities, which are compared on
    their own); an acronym ("CT", "MRI") names the thing itself and stays. A reason
    ("because mornings are hard", "due to the incident") says why, not what, and a contrast
    holding no value ("..., distinct from the public line") what it is not: both left out
    ("separate from the public line of 3,775 USD" says what its value is of: kept)."""
    words = set()
    reasons = [(m.start(), _REASON_END.search(text, m.end())) for m in _REASON.finditer(text)]
    skipped = [(a, end.start() if end else len(text)) for a, end in reasons]
    quoted = [q.span() for q in _QUOTATION.finditer(text)]
    for m in _CONTRAST.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue  # words quoted ("'... review pending committee note'") are the wording itself
        end = _REASON_END.search(text, m.end())
        aside = (m.start(), end.start() if end else len(text))
        if not any(aside[0] <= a < aside[1] for _, _, a, _ in located):
            skipped.append(aside)
    for m in _WORD.finditer(text):
        if any(a <= m.start() < b for _, _, a, b in located) or any(a <= m.start() < b for a, b in skipped):
            continue
        low = m.group(0).lower()
        base = low.replace("’", "'").split("'")[0]
        token = m.group(0)
        if base in FUNCTION_WORDS or (token[:1].isupper() and not token.isupper() and base in names):
            continue
        if low in FUNCTION_WORDS or low in NEGATORS or len(low) < 2 or low in MONTHS or low in SHORT_MONTHS:
            continue
        if (
            low in ("am", "pm", "noon", "midnight", "dr", "mr", "mrs", "ms", "mx", "prof")
            or low in CONNECTIVES
        ):
            continue
        for part in low.split("-"):
            st = stem(part)
            if (
                len(part) > 1
                and part not in FUNCTION_WORDS
                and st not in CHANGE_STEMS
                and st not in RECORD_STEMS
            ):
                words.add(st)
    return frozenset(words)


_NOW_DOING = re.compile(
    r"\bnow\s+(?:uses|lists|shows|points|starts|ends|begins|runs|sits|opens|closes|has|have)\b", re.IGNORECASE
)
"""A present tense after "now" beside a value ("Willow Tutors now lists May 16, 2027", "Registrar
now shows April 11, 2027"): change wording for claims of values only, not for things named
as replaced, whose rule does not compare whom they are said of ("June now uses the
Withings cuff instead of the Omron cuff" replaces nothing of Arthur's)."""


_ADDING = re.compile(r"\b(?:second|another|also|too|as\s+well|extra|added|additional)\b", re.IGNORECASE)


def _revises(text: str, patterns: tuple[re.Pattern[str], ...] = (CHANGE_PATTERN, REVISION_PATTERN)) -> bool:
    """Change wording that is neither negated nor inside or before a condition ("... unless
    we reschedule by Tuesday", "goes up to 20 mg if ..." say nothing changed)."""
    for pattern in patterns:
        for m in pattern.finditer(text):
            before = text[max(0, m.start() - 40) : m.start()]
            clause = _CLAUSE_START.split(text[: m.start()])[-1]
            after = _CLAUSE_END.split(text[m.end() :], maxsplit=1)[0]
            if (
                not _NEGATED.search(before)
                and not _CONDITION_IN.search(clause)
                and not _CONDITION_AFTER.search(after)
            ):
                return True
    return False


def _asserts(sentence: str) -> bool:
    stripped = sentence.strip()
    return (
        bool(stripped)
        and not stripped.endswith("?")
        and not CONDITIONAL.search(stripped)
        and not (REQUEST.search(stripped))
    )


def _names_in(text: str, names: frozenset[str]) -> frozenset[str]:
    """Stems of the words of ``text`` that belong to a name of its sentence (see :func:`_anchor`)."""
    found = set()
    for m in _WORD.finditer(text):
        token = m.group(0)
        base = token.lower().replace("’", "'").split("'")[0]
        if token[:1].isupper() and not token.isupper() and base in names and base not in FUNCTION_WORDS:
            found.add(stem(base))
    return frozenset(found)


_CALENDAR_WORDS = frozenset({*MONTHS, *SHORT_MONTHS, *WEEKDAYS, *SHORT_WEEKDAYS})


def _capitalised(piece: str, header: int) -> frozenset[str]:
    words = {m.group(0).lower() for m in _CAPITALISED.finditer(piece, header)} - _CALENDAR_WORDS
    return frozenset(
        stem(w) for w in words if w not in FUNCTION_WORDS and stem(w) not in CHANGE_STEMS | RECORD_STEMS
    )


def _header_end(sentence: str) -> int:
    """Where a heading ("Final Saturday update before the next summary: ...") ends: after
    a colon that comes before every value of the sentence (0 when there is none)."""
    colon = _HEADING.search(sentence)
    if colon is None:
        return 0
    located = _located(sentence)
    if not located or min(a for _, _, a, _ in located) < colon.start():
        return 0
    return colon.end()


def _heading(piece: str, names: frozenset[str], header: int) -> frozenset[str]:
    """Anchor stems of the sentence's heading, when the piece holds it."""
    return _anchor(piece[:header], [], names) if header > 0 else frozenset()


def _name_words(sentence: str) -> frozenset[str]:
    """Words of the names of people in ``sentence``: a name after a title ("Dr. Varga"),
    a name that owns something ("Elena's review"), or one addressed at the start of a
    sentence ("Walter Brandt, you're checked in"). Other names (a programme, a hall, a
    room) say what a value is of and stay in the anchor."""
    return frozenset(
        word.lower()
        for pattern in _PERSONS
        for m in pattern.finditer(sentence)
        for word in _WORD.findall(m.group("name"))
    )


def _pieces(sentence: str, names: frozenset[str] = frozenset()) -> list[tuple[int, int, bool]]:
    """A listing sentence cut into its items: each keeps a value and a word of its own. An
    item after "and" that names its own owner and holds no value ("... at 8:40 AM and
    Tuesday's ECG plus cardiology visit") is an item too, not words of the value before,
    unless it says it shares it ("... moved to 12:50 PM and Tuesday's ECG too"). With each
    item: whether it took in a listed item of words and no value ("Friday 4:35 PM to 6:40
    PM, side door keypad, kitchen plus Helen's bedroom"), which says more than its values."""
    cuts = [(m.start(), m.end()) for m in _CUT.finditer(sentence)]
    if not cuts:
        return [(0, len(sentence), False)]
    bounds, start, listed = [], 0, [False]
    for a, b in cuts:
        bounds.append((start, a))
        listed.append(sentence[a:b].strip() != ";")  # after "and" or a list's comma
        start = b
    bounds.append((start, len(sentence)))
    merged: list[tuple[int, int, bool]] = []
    pending: tuple[int, int, bool] | None = None
    for (a, b), in_list in zip(bounds, listed, strict=True):
        more = False
        if pending is not None:
            a, more, pending = pending[0], pending[2], None
        piece = sentence[a:b]
        located = _located(piece)
        if (
            merged
            and in_list
            and not located
            and _OWNS.match(piece)
            and not _SHARES_VALUE.search(piece)
            and _anchor(piece, located, names)
        ):
            # "... at 8:40 AM and Tuesday's ECG plus cardiology visit": an item of its own, no value
            merged.append((a, b, False))
            continue
        replaced = _replaced_ranges(piece)
        current = [
            v
            for v in located
            if not any(lo <= v[2] < hi for lo, hi in replaced) and _SAID_OLD.match(piece, v[3]) is None
        ]
        whole = bool(current) and bool(_anchor(piece, located, names))
        if not whole:
            words = in_list and not located and bool(_anchor(piece, located, names))
            if merged:
                merged[-1] = (merged[-1][0], b, merged[-1][2] or words)
            else:
                pending = (a, b, more or words)
            continue
        merged.append((a, b, more))
    if pending is not None:
        if merged:
            merged[-1] = (merged[-1][0], pending[1], merged[-1][2] or pending[2])
        else:
            merged.append(pending)
    return merged


_RECORD_OPENING = re.compile(
    r"\s*(?:(?:current|updated|latest|active|final|working)\s+)?((?:[A-Za-z][\w-]*\s+){1,3}?)"
    r"(?:note|summary|recap|snapshot|state)\b(?!\s+(?:of|for)\b)",
    re.IGNORECASE,
)


def _record_name(sentence: str) -> frozenset[str]:
    """The record a sentence opens on, by the stems of its name's words (see ``Claim.record``)."""
    opening = _RECORD_OPENING.match(sentence)
    if opening is None:
        return frozenset()
    words = [w.lower() for w in _WORD.findall(opening.group(1))]
    if any(w in FUNCTION_WORDS or stem(w) in CHANGE_STEMS | RECORD_STEMS for w in words):
        return frozenset()  # "Logging Saturday current state", "My current note"
    return frozenset(stem(w) for w in words)


def _lead(sentence: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The anchor and threads of a sentence giving no value that says something changes
    ("The storage-cabinet PIN also rotates."), or None."""
    if not (_revises(sentence) and _asserts(sentence)):
        return None
    return _anchor(sentence, [], _name_words(sentence)), _threads(sentence)


def _threads(sentence: str) -> frozenset[str]:
    """The weekdays ``sentence`` uses to name a thread (see :func:`_names_a_thread`)."""
    return frozenset(
        SHORT_WEEKDAYS.get(m.group(1).lower(), m.group(1).lower())
        for m in _WEEKDAY.finditer(sentence)
        if _names_a_thread(sentence, m)
    )


@lru_cache(maxsize=32768)
def claims_of(text: str) -> tuple[Claim, ...]:
    """The claims of a turn's text that state at least one value, in text order."""
    found = []
    valueless = ""  # the sentence before when it gives no value: it may say what changes
    for s_start, s_end in sentence_spans(text):
        sentence = text[s_start:s_end]
        in_sentence = _located(sentence)
        plain, valueless = valueless, ""
        if not in_sentence:
            valueless = sentence
            continue
        introduced = _lead(plain) if plain else None
        asserts = _asserts(sentence)
        revises = _revises(sentence) or (  # "now has a second session on Thursday" adds one
            "now" in sentence.lower()
            and _ADDING.search(sentence) is None
            and _revises(sentence, (_NOW_DOING,))
        )
        named_at = entity_spans(sentence)
        name_words = _name_words(sentence)
        threads = _threads(sentence)
        pieces = _pieces(sentence, name_words)
        header = _header_end(sentence)
        last_value = max(end for *_, end in in_sentence)
        after_values = (  # "Piano is Monday at 4 PM, and swim is Wednesday at 4 PM, both for Leo."
            {name for name, at in named_at if at >= last_value}
            if _SHARED_TAIL.match(sentence, last_value)
            else set()
        )
        before: frozenset[str] = frozenset()  # the owners of the piece before
        for p_start, p_end, lists_more in pieces:
            context = frozenset(name for name, at in named_at if at < p_end) | after_values
            owners = frozenset(stem(m.group(1).lower()) for m in _OWNER.finditer(sentence, p_start, p_end))
            if (
                not owners
                and not any(p_start <= at < p_end for _, at in named_at)
                and _AFTER_WHILE.search(sentence, 0, p_start)
            ):
                owners = before  # "Dad's metoprolol is 25 mg in the morning while it's 12.5 mg at night"
            before = owners
            piece = sentence[p_start:p_end]
            located = _located(piece)
            if not located:
                continue
            replaced_ranges = _replaced_ranges(piece)
            values: dict[str, set[str]] = {}
            replaced: dict[str, set[str]] = {}
            for attribute, value, a, b in located:
                old = any(lo <= a < hi for lo, hi in replaced_ranges) or _SAID_OLD.match(piece, b) is not None
                (replaced if old else values).setdefault(attribute, set()).add(value)
            start = s_start + p_start + (len(piece) - len(piece.lstrip()))
            end = s_start + p_end
            own_anchor = _anchor(piece, located, name_words)
            # "Sunday release is moving slightly later. Make it release after 1:20 PM.": the
            # sentence before says what changes when this one names nothing else ("The
            # pharmacy changed its hours. Your MRI is now Tuesday ..." is the MRI's alone)
            led = introduced is not None and len(pieces) == 1 and own_anchor <= introduced[0]
            lead_anchor, lead_threads = introduced if led and introduced else (frozenset(), frozenset())
            found.append(
                Claim(
                    start=start,
                    end=end,
                    anchor=own_anchor,
                    introduced=lead_anchor,
                    heading=_heading(piece, name_words, header - p_start),
                    entities=context,  # names up to its end or after every value, not later items'
                    values={k: frozenset(v) for k, v in values.items()},
                    replaced={k: frozenset(v) for k, v in replaced.items()},
                    revises=revises or led,
                    asserts=asserts,
                    sentence=len(pieces) == 1,
                    lists_more=lists_more,
                    record=_record_name(sentence) if p_start == pieces[0][0] else frozenset(),
                    names=_names_in(piece, name_words),
                    threads=threads or (lead_threads if "weekday" not in values else frozenset()),
                    mine=bool(_MINE.search(piece)),
                    retires=bool(replaced) and _RETIRES.search(piece) is not None,
                    owners=owners,
                    capitals=_capitalised(piece, max(0, header - p_start)),
                    kin=_KIN.search(piece) is not None,
                )
            )
    return tuple(found)
