"""Things replaced in words: "this week I will use the gray Highlander rather than the red
Subaru", "The blocker is now the faculty archive note rather than the earlier
external-review memo".

Claims (:mod:`claims`) carry values: times, dates, doses, amounts, codes. A vehicle, a
document or a route is named instead, so the value rules never see it change. A sentence
that says something changed (change wording besides the cue itself: "update", "now", "will
use ... this week"; not "Helpers should hear the broad wording rather than the exact
phrase", a rule) and names what it replaces after "rather than", "instead of",
"replacing" or "in place of" supersedes an earlier clause that names that thing, when:

- the thing is a phrase of at least two words, or one capitalised name, with no digit
  (a figure is a value, for the claims) and not only function words;
- the earlier clause asserts it (not a question, request or condition), does not itself
  replace or deny it ("rather than the red Subaru", "not the red Subaru"), states no
  value (a clause with one is the claims' to judge) and does not straddle a claim;
- the new turn does not still state it elsewhere ("Thursday stays the gray Highlander");
- a weekday the new sentence names is named by the earlier sentence too: "for the Friday
  run I will use the blue RAV4 rather than the gray Highlander" says nothing of the
  Thursday vehicle;
- the two are not about different people (the labeller's subjects), and the earlier one
  was said before.

A clause that is its whole sentence is superseded whole; one of several is marked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from govmem.governance.labeling import sentence_spans
from govmem.governance.revocation.claims import (
    _CUT,
    _QUOTATION,
    CHANGE_STEMS,
    _asserts,
    _located,
    _revises,
    claims_of,
)
from govmem.governance.revocation.statements import FUNCTION_WORDS, SHORT_WEEKDAYS, WEEKDAYS, stem

_ARTICLE = r"(?:(?:the|a|an|my|our|your|his|her|their|this|that)\s+)?"
_OLDNESS = r"(?:(?:earlier|old|older|previous|prior|former|original|usual)\s+)?"
_STOP = (
    r"(?=\s*(?:[.,;:!?()]|$|\s+(?:and|or|but|because|after|before|for|so|unless|until|while|when|"
    r"which|that|this|on|at|in|to|from|with|since|as|if|now|today|tomorrow)\b))"
)
_REPLACEMENT = re.compile(
    r"\b(?:rather\s+than|instead\s+of|replacing|in\s+place\s+of|(?P<stop>(?:is|are)\s+no\s+longer))\s+"
    + _ARTICLE
    + _OLDNESS
    + r"(?P<old>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,3}?)"
    + _STOP,
    re.IGNORECASE,
)
_DENIED_BEFORE = re.compile(
    r"\b(?:rather\s+than|instead\s+of|replacing|in\s+place\s+of|not|no\s+longer|never|without|"
    r"from|formerly|previously|was|were)\s+" + _ARTICLE + _OLDNESS + r"$",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|never|no|nothing|none)\b|n['’]t\b", re.IGNORECASE)
_PHRASE_HEAD = re.compile(r"(?<![\w-])" + _ARTICLE + _OLDNESS + r"$", re.IGNORECASE)
_NORMATIVE = re.compile(r"\b(?:should|must|ought|needs?\s+to|has\s+to|have\s+to)\b", re.IGNORECASE)
"""A rule ("broad updates should use the insurance pilot instead of exact customer
identity"), not a change."""
_NOT_DONE = re.compile(
    r"\b(?:would|could|might|may|prefer\w*|consider\w*|evaluat\w*|plan|plans|planned|planning|propos\w*|"
    r"suggest\w*|recommend\w*|guidance|polic(?:y|ies)|covers?|covered|next\s+(?:week|month|quarter|year|time)|"
    r"undecided|if)\b",
    re.IGNORECASE,
)
"""A wish, a plan, a policy or a cover, not something that changed ("Update: Arthur would
prefer Northgate Heart rather than Lakeside Cardiology", "the plan now covers the Omnipod
pump rather than the Tandem insulin pump")."""
_ONE_PURPOSE = re.compile(
    r"\b(?:only\s+for|just\s+for|for\s+(?:the|this|that|one|a)\s+(?:[\w'-]+\s+){1,4}?only|this\s+time|"
    r"one-off|temporar\w*|for\s+today)\b",
    re.IGNORECASE,
)
"""A replacement for one occasion ("for the March MRI only, ... instead of the Lakeside
Imaging Center") says nothing of the rest."""
_CUT_PUNCTUATION = re.compile(r"[,;]?\s*")
_TITLES = frozenset(("dr", "mr", "mrs", "ms", "mx", "st", "prof", "sr", "jr"))
_WORDS = re.compile(r"[A-Za-z][\w'-]*")
_WEEKDAY = re.compile(r"\b(" + "|".join([*WEEKDAYS, *SHORT_WEEKDAYS]) + r")s?\b", re.IGNORECASE)


def names_replaced_things(text: str) -> bool:
    """Whether a text may name a thing as replaced (the cheap test before any other)."""
    return _REPLACEMENT.search(text) is not None and any(
        replaced_things(text[a:b]) for a, b in sentence_spans(text)
    )


@dataclass(frozen=True)
class Replacement:
    """A thing a sentence names as replaced."""

    thing: str
    """Lower-cased."""
    holder: str | None
    """For "X is no longer the Y": X's last content word, which the old clause must name."""
    start: int
    end: int
    """The cue and the thing, in the sentence."""
    words: frozenset[str]
    """Stems of the sentence's other content words."""


def replaced_things(sentence: str) -> list[Replacement]:
    """What a sentence that says something changed names as replaced: "The current blocker
    is no longer the conduct memo" retires the memo as the blocker (and "Tessa is no longer
    the primary driver" says nothing of Ben as one)."""
    found = []
    for m in _REPLACEMENT.finditer(sentence):
        rest = sentence[: m.start()] + " " + sentence[m.end() :]
        if not _asserts(sentence) or _NORMATIVE.search(sentence[: m.start()]) or _NOT_DONE.search(rest):
            continue
        if _NEGATION.search(rest) or _ONE_PURPOSE.search(sentence):
            continue
        holder = None
        if m.group("stop"):  # "X is no longer the Y": itself the change, about X
            before = [w for w in _WORDS.findall(sentence[: m.start()]) if w.lower() not in FUNCTION_WORDS]
            if not before:
                continue
            holder = before[-1].lower()
        elif not _revises(rest):
            continue
        old = m.group("old")
        words = old.split()
        if any(c.isdigit() for c in old) or words[-1].lower() in FUNCTION_WORDS:
            continue
        if len(words) < 2 and (not old[:1].isupper() or len(old) <= 3 or old.lower() in _TITLES):
            continue  # "the transcript"; "Dr." of "rather than Dr. Okafor"
        content = {stem(w.lower()) for w in _WORDS.findall(rest) if w.lower() not in FUNCTION_WORDS}
        found.append(Replacement(old.lower(), holder, m.start(), m.end(), frozenset(content - CHANGE_STEMS)))
    return found


def _inside(at: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in spans)


def _article_start(clause: str, at: int) -> int:
    """Where the noun phrase ending in the name at ``at`` starts (its article and old-ness word)."""
    return _PHRASE_HEAD.search(clause[:at]).start()


def _straddles(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two spans overlap with neither inside the other (their marks would collide)."""
    overlap = a[0] < b[1] and b[0] < a[1]
    nested = (a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1])
    return overlap and not nested


def _weekdays(text: str) -> frozenset[str]:
    return frozenset(SHORT_WEEKDAYS.get(d.lower(), d.lower()) for d in _WEEKDAY.findall(text))


def _naming(text: str, thing: str) -> list[re.Match[str]]:
    return list(re.finditer(rf"(?<![\w-]){re.escape(thing)}(?![\w-])", text, re.IGNORECASE))


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The sentence ``text[start:end]`` cut where the claims cut a listing ("; ", ", and ",
    ", ", " and "): each part says something of its own."""
    spans, at = [], start
    for cut in _CUT.finditer(text, start, end):
        if cut.start() > at:
            # "memo, " of "memo, and the ...": the part keeps its comma, the mark goes before it
            spans.append((at, _CUT_PUNCTUATION.match(text, cut.start()).end()))
            at = cut.end()
    spans.append((at, end))
    return spans


def phrase_findings(
    new_key: int,
    new_text: str,
    new_time: str | None,
    earlier: Sequence[tuple[int, str | None, str]],
    subjects: Callable[[int, int, int], frozenset[str]],
    is_open: Callable[[int, int], bool],
) -> list[tuple[int, int, int, bool]]:
    """(old turn key, start, end, whole) of the earlier clauses ``new_text`` supersedes by
    naming what it replaces; ``earlier`` holds (key, time, text) of the records before it."""
    replacements = []
    for s_start, s_end in sentence_spans(new_text):
        sentence = new_text[s_start:s_end]
        for r in replaced_things(sentence):
            if not restated_elsewhere(
                new_text[: s_start + r.start] + " " + new_text[s_start + r.end :], r.thing
            ):
                replacements.append((r, _weekdays(sentence), s_start, s_end))
    found: list[tuple[int, int, int, bool]] = []
    for r, weekdays, s_start, s_end in replacements:
        theirs = subjects(new_key, s_start, s_end)
        for key, time, text in earlier:
            if key == new_key or (time and new_time and time > new_time) or r.thing not in text.lower():
                continue
            pieces = [(c.start, c.end) for c in claims_of(text)]
            starts = {a for a, _ in pieces}  # a statement is stored by its start: one per start
            quoted = [(q.start(), q.end()) for q in _QUOTATION.finditer(text)]
            for a, b in sentence_spans(text):
                if not _asserts(text[a:b]):
                    continue
                clauses = _clauses(text, a, b)
                for c_start, c_end in clauses:
                    clause = text[c_start:c_end]
                    if weekdays and not weekdays & (_weekdays(clause) or _weekdays(text[a:b])):
                        continue
                    named = [m for m in _naming(clause, r.thing) if not _inside(c_start + m.start(), quoted)]
                    if not named or any(_DENIED_BEFORE.search(clause[: m.start()]) for m in named):
                        continue
                    if _NEGATION.search(clause[: named[0].start()]) or _located(clause):
                        continue  # "We are not waiting on ..."; a value in it is the claims' to judge
                    if not _about_the_same(clause, named[0], r):
                        continue
                    whole = len(clauses) == 1
                    # one of several clauses: from the thing's name on, the claims' own spans apart
                    start = c_start if whole else c_start + _article_start(clause, named[0].start())
                    span = (start, c_end)
                    if start in starts or any(_straddles(span, piece) for piece in pieces):
                        continue
                    if not is_open(key, start):
                        continue
                    mine = subjects(key, c_start, c_end)
                    if mine and theirs and not mine & theirs:
                        continue
                    found.append((key, start, c_end, whole))
    return found


def _about_the_same(clause: str, named: re.Match[str], r: Replacement) -> bool:
    """ "X is no longer the Y" supersedes "X is the Y" ("the Y is X", a few words apart); a
    person or other one-word thing replaced ("Sam now owns the alerts instead of Priya")
    only a clause sharing another word of the change ("Priya owns the alerts")."""
    if r.holder is not None:
        holder = re.escape(r.holder)
        thing = re.escape(r.thing)
        copula = (  # a few words apart, none starting another clause ("Rehab because it is the ...")
            r"(?:(?!(?:because|since|as|so|which|that|it|who|while)\b)\S+\s+){0,6}?"
            r"(?:is|are|remains|stays|was)\s+(?:still\s+)?(?:\S+\s+){0,3}?"
        )
        return bool(
            re.search(rf"\b{holder}\w*\s+{copula}{thing}\b", clause, re.IGNORECASE)
            or re.search(rf"\b{thing}\s+{copula}{holder}", clause, re.IGNORECASE)
        )
    if " " in r.thing:
        return True
    others = {stem(w.lower()) for w in _WORDS.findall(clause) if w.lower() not in FUNCTION_WORDS}
    return bool((others - {stem(r.thing)}) & r.words)


def restated_elsewhere(text: str, thing: str) -> bool:
    """Whether ``text`` names ``thing`` other than as the one replaced."""
    return any(not _DENIED_BEFORE.search(text[: m.start()]) for m in _naming(text, thing))
