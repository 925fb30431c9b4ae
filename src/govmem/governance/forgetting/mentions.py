"""What a turn mentions: names, numbers, amounts, dates and times, as normalised keys.

The forgetting planner links turns through what they mention (the evidence of a
secret rarely repeats the request's words, but it names the same clinic, street or
amount). This module only extracts; weighting and linking live in
:mod:`govmem.governance.forgetting.entity_graph`.

Keys are strings with a kind prefix so that different kinds never collide:

- ``name:juniper mental health centre``: a run of capitalised words (honorifics such
  as "Dr." dropped, possessive "'s" cut, leading "the" dropped). Whether a
  capitalised word is a name is decided per episode by :class:`CaseProfile`: a word
  that also occurs in lower case (a sentence-initial "Moved", "Three") is not one.
- ``num:138``: a number (thousands separators removed); ``amt:£2280`` an amount with
  its currency sign; ``time:15:50`` a clock time.
- ``date:11-22`` a day of a month and ``month:11`` the month of any date or a month
  name on its own.
- pieces of a longer digit string are numbers too (a 4-digit code "4817" also
  mentions ``num:48`` and ``num:17``): a code is often assembled from a house number
  and an age said elsewhere.

English-only and rule-based, deliberately: it is cheap (one pass per turn), needs
no model, and does not depend on any data set's vocabulary.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from govmem.retrieval.lexical import STOP_WORDS

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
HONORIFICS = frozenset(
    "dr mr mrs ms mx miss prof professor sir dame st saint sister nurse".split()  # noqa: SIM905
)
CONNECTORS = frozenset(["of", "for", "de", "la", "del", "van", "von", "der", "du"])
"""Lower-case words that may sit inside a name ("Castillo Centre for Conception")."""
CALENDAR = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "mondays",
        "tuesdays",
        "wednesdays",
        "thursdays",
        "fridays",
        "saturdays",
        "sundays",
        "today",
        "tomorrow",
        "yesterday",
        "christmas",
        "easter",
    ]
)
PRONOUNS = frozenset(["i", "i'm", "i've", "i'd", "i'll", "i’m", "i’ve", "i’d", "i’ll"])

_TOKEN = re.compile(r"[A-Za-z][\w’'&-]*\.?|[£$€¥]?\d[\d,.:]*\d|[£$€¥]?\d|[.,;:!?()\"“”]")
_ORDINAL = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$", re.I)
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]{3,9})\b")
_MONTH_DAY = re.compile(r"\b([A-Za-z]{3,9})\s+(\d{1,2})(?:st|nd|rd|th)?\b")
_CURRENCY = "£$€¥"
PART_OF_NAME = "word"
"""Kind of the keys for the single words of a longer name ("ashby" of "Ashby Visa Advice")."""


def _strip(word: str) -> str:
    word = word.rstrip(".")
    for suffix in ("'s", "’s"):
        if word.endswith(suffix):
            return word[: -len(suffix)]
    return word.rstrip("'’")


def _is_punctuation(token: str) -> bool:
    return not token[0].isalnum() and token[0] not in _CURRENCY


class CaseProfile:
    """Which capitalised words of an episode are names.

    Inside a sentence a capital marks a name. At the start of a sentence it marks
    nothing, so a sentence-initial word counts as a name only when it is capitalised
    in at least ``min_share`` of its occurrences and also seen capitalised inside a
    sentence, or when it starts a run of such words ("Copper Mental Health Centre is
    ..."): "Moved", "Three" or "Drove" at the start of a turn are not names.
    """

    def __init__(self, texts: Iterable[str], min_share: float = 0.9):
        upper: Counter[str] = Counter()
        inner: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for text in texts:
            initial = True
            for match in _TOKEN.finditer(text):
                token = match.group()
                if _is_punctuation(token) or token[0].isdigit() or token[0] in _CURRENCY:
                    initial = token in ".!?" if _is_punctuation(token) else False
                    continue
                word = _strip(token)
                key = word.lower()
                total[key] += 1
                if word[:1].isupper():
                    upper[key] += 1
                    if not initial:
                        inner[key] += 1
                initial = token.endswith(".") and key not in HONORIFICS
        self._total, self._upper = total, upper
        self._names = frozenset(
            key
            for key, count in upper.items()
            if count >= min_share * total[key]
            and inner[key]
            and key not in HONORIFICS
            and key not in MONTHS
            and key not in CALENDAR
            and key not in PRONOUNS
        )

    def seen_lower(self, word: str) -> bool:
        """Whether ``word`` (lower case) occurs in lower case somewhere in the episode."""
        return self._total.get(word, 0) > self._upper.get(word, 0)

    def is_name(self, word: str) -> bool:
        return word.lower() in self._names


def _number_keys(token: str) -> list[str]:
    currency = token[0] if token[0] in _CURRENCY else ""
    digits = token.lstrip(_CURRENCY).rstrip(".,:")
    if ":" in digits:
        hours, _, minutes = digits.partition(":")
        if hours.isdigit() and minutes.isdigit():
            return [f"time:{int(hours)}:{minutes}"]
        return []
    value = digits.replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".") if value.replace(".", "").isdigit() else value
    if not value.replace(".", "").isdigit():
        return []
    keys = [f"amt:{currency}{value}" if currency else f"num:{value}"]
    if currency:
        keys.append(f"num:{value}")
    if not currency and value.isdigit() and len(value) >= 4:
        # a code may be assembled from pieces said elsewhere ("4817": 48 and 17), which
        # other turns state as numbers of their own
        for cut in range(2, len(value) - 1):
            keys.append(f"num:{value[:cut].lstrip('0') or '0'}")
            keys.append(f"num:{value[cut:].lstrip('0') or '0'}")
    return keys


def _dates(text: str) -> list[str]:
    keys: list[str] = []
    pairs = [(m.group(1), m.group(2)) for m in _DAY_MONTH.finditer(text)]
    pairs += [(m.group(2), m.group(1)) for m in _MONTH_DAY.finditer(text)]
    for day, month in pairs:
        number = MONTHS.get(month.lower())
        if number is not None and 1 <= int(day) <= 31:
            keys.append(f"date:{number:02d}-{int(day):02d}")
    return keys


def mentions(text: str, profile: CaseProfile) -> list[str]:
    """The keys of everything ``text`` mentions, in order, without repeats."""
    found: dict[str, None] = {}
    run: list[str] = []
    pending: list[str] = []  # a sentence-initial capitalised word: a name if another follows
    joined: list[bool] = []
    initial = True

    def close() -> None:
        while run and run[-1] in CONNECTORS:
            run.pop()
        if len(run) == 2 and joined:
            run.pop(0)  # "Drove Sven": a sentence-initial word before a one-word name is not part of it
        joined.clear()
        if run:
            found[f"name:{' '.join(run)}"] = None
            for part in run:  # "Harrowgate" links to "Harrowgate Renal Unit" through its words
                if part not in CONNECTORS:
                    found[f"{PART_OF_NAME}:{part}"] = None
        run.clear()

    for match in _TOKEN.finditer(text):
        token = match.group()
        if _is_punctuation(token):
            close()
            initial = token in ".!?"
            continue
        if token[0].isdigit() or token[0] in _CURRENCY:
            close()
            initial = False
            ordinal = _ORDINAL.match(token)
            for key in _number_keys(ordinal.group(1) if ordinal else token):
                found[key] = None
            continue
        bare = _strip(token)
        lower = bare.lower()
        was_initial, initial = initial, token.endswith(".") and lower not in HONORIFICS
        held, pending[:] = list(pending), []
        if lower in MONTHS and bare[:1].isupper() and len(bare) > 3:
            close()
            found[f"month:{MONTHS[lower]:02d}"] = None
        elif (
            bare[:1].isupper()
            and lower not in HONORIFICS
            and lower not in CALENDAR
            and lower not in PRONOUNS
            and (profile.is_name(bare) or (not was_initial and lower not in MONTHS))
        ):
            if held and not run:
                run.extend(held)
                joined.append(True)
            run.append(lower)
        elif run and lower in CONNECTORS:
            run.append(lower)
            continue
        else:
            close()
            if (
                was_initial
                and bare[:1].isupper()
                and bare == token
                and lower not in STOP_WORDS
                and not profile.seen_lower(lower)
            ):
                pending.append(lower)
            continue
        if initial:
            close()  # a full stop ends the name
    close()
    ordinal_text = re.sub(r"\b(\d{1,2})(?:st|nd|rd|th)\b", r"\1", text)
    for key in _dates(ordinal_text):
        found[key] = None
        found[f"month:{key[5:7]}"] = None
    return list(found)


def kind(key: str) -> str:
    """The kind of a mention key: name, num, amt, time, date, month or part."""
    return key.partition(":")[0]


def label(key: str) -> str:
    """A mention key as a person would read it in a reason ("'Dr. Kaur'" style, without kind)."""
    return key.partition(":")[2]
