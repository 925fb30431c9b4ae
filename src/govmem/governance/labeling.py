"""Labelling: what each sentence of a turn is about, and on which topics.

A turn is cut into sentences (its *spans*). Each span gets topic tags from the
policy pack's patterns and subjects from the names it mentions (principals by
display name, first or last name; resources by the name in their id, such as
``project_lighthouse`` for "Lighthouse"). A span's **label** is the set of its
(subject, tag) *facets*; subject ``""`` is shared information about no one.

The policy engine decides per facet; a span is readable when every facet of it
is. Labels are interned in the store, so an
object's label is one integer and authorization can filter by label before
ranking.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from govmem.governance.policy_pack import (
    GENERAL,
    SCOPE_ATTRIBUTES,
    SCOPE_GLUE,
    PolicyPack,
    scope_things,
    vocabulary,
)
from govmem.governance.prefilter import required_literals
from govmem.governance.revocation.statements import FUNCTION_WORDS, MONTHS, WEEKDAYS
from govmem.models import Principal, Relationship

Facet = tuple[str, str]

RESOURCE_PREFIXES = ("project_", "program_", "course_", "case_", "building_", "household_", "team_")
ABBREVIATIONS = frozenset(
    [
        "dr",
        "mr",
        "mrs",
        "ms",
        "mx",
        "st",
        "prof",
        "no",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "approx",
        "dept",
        "inc",
        "ltd",
        "jr",
        "sr",
        "fig",
        "ave",
        "rd",
        "blvd",
    ]
)
_REFERENCE = re.compile(
    r"\b(he|she|him|her|his|hers|himself|herself|they|them|their|theirs|you|your|yours|yourself"
    r"|the patient|the student|the guest|the child|the resident|dad|mom|mum|mother|father)\b"
)
"""Words that refer back to someone already named (a coreference cue); matched on lower-cased text."""


class TagMatcher:
    """One tag's pattern, searched the cheapest way that gives the same answer.

    Case-insensitive matching costs Python's ``re`` about twice as much; a pattern
    with no upper-case character matches lower-cased text the same way without it.
    Such a pattern is first checked for its required literals (substring tests for
    a few, one prefix-factored pattern for many), and only a text holding one is
    searched.
    """

    __slots__ = ("literals", "lower", "pattern", "prefilter", "tag")

    def __init__(self, tag: str, pattern: re.Pattern[str]):
        self.tag = tag
        self.lower = pattern.pattern == pattern.pattern.lower()
        self.pattern = re.compile(pattern.pattern) if self.lower else pattern
        literals = required_literals(pattern.pattern) if self.lower else None
        self.literals = tuple(sorted(literals)) if literals and len(literals) <= 4 else None
        self.prefilter = re.compile(trie_pattern(literals)) if literals and len(literals) > 4 else None

    def search(self, text: str, lowered: str) -> bool:
        if not self.lower:
            return self.pattern.search(text) is not None
        if self.literals is not None and not any(literal in lowered for literal in self.literals):
            return False
        if self.prefilter is not None and self.prefilter.search(lowered) is None:
            return False
        return self.pattern.search(lowered) is not None


_ASKED_OF_ONESELF = re.compile(r"\b(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b|\bI['’]")
"""A question in the first person ("My lisinopril refill?"; "I" only in capitals)."""


class VocabularyMatcher:
    """A tag marked by a term list (a pack's ``vocabularies``): any run of one to three
    whole words of the text that is a term, its last word also in the plural. Thousands
    of terms cost a set lookup per word, where one regex of them costs Python's ``re``
    a pass over every branch."""

    __slots__ = ("firsts", "tag", "terms")

    def __init__(self, tag: str, terms: frozenset[str]):
        self.tag = tag
        self.terms = terms
        self.firsts = frozenset(term.split(" ", 1)[0] for term in terms)

    def search(self, text: str, lowered: str) -> bool:
        words = _vocabulary_words(lowered)
        for i, word in enumerate(words):
            if word not in self.firsts and word[:-1] not in self.firsts:
                continue
            for n in (1, 2, 3):
                run = " ".join(words[i : i + n])
                if run in self.terms or (run.endswith("s") and run[:-1] in self.terms):
                    return True
        return False


_VOCABULARY_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")


@functools.lru_cache(maxsize=8)
def _vocabulary_words(lowered: str) -> tuple[str, ...]:
    """A sentence's words, once for all the term lists of a pack."""
    return tuple(_VOCABULARY_WORD.findall(lowered.replace("’", "'")))


@functools.cache
def _vocabulary_matcher(tag: str, names: tuple[str, ...]) -> VocabularyMatcher:
    """One matcher per tag and term lists, shared by every labeller (a store per episode)."""
    return VocabularyMatcher(tag, frozenset().union(*map(vocabulary, names)))


@functools.cache
def _digest(name: str) -> str:
    """A term list's name and content, for the labeller's fingerprint."""
    return name + ":" + hashlib.sha256("\n".join(sorted(vocabulary(name))).encode()).hexdigest()[:16]


def trie_pattern(words: Iterable[str], not_after: str | None = None) -> str:
    """A regex matching any of ``words``, factored by common prefixes.

    Python's ``re`` tries an alternation's branches one by one at every position;
    factored, it follows one branch per character. Where several words match at a
    position the longest wins, as in an alternation sorted longest first.

    ``not_after`` (a character class) is a word's left boundary: no match starts
    right after such a character. It is asserted after each word's first character,
    not in front of the pattern, so ``re`` still jumps to the positions holding a
    first character instead of trying a lookbehind at every one (a third faster).
    """
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def render(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + render(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    if not_after is None:
        return render(trie)
    branches = [
        re.escape(char) + f"(?<!{not_after}{re.escape(char)})" + render(child)
        for char, child in sorted(trie.items())
        if char
    ]
    return "(?:" + "|".join(branches) + ")" if branches else ""


_BREAK = re.compile(r"[.!?;]['’\"”)]?\s+(?=\S)|\n+")
_LAST_WORD = re.compile(r"([\w.]+)\.$")


class Span(NamedTuple):
    """Characters ``start:end`` of a turn and their facets (a tuple: one is made per
    turn at ingest, where frozen dataclasses cost a third of the labelling)."""

    start: int
    end: int
    facets: frozenset[Facet]


class TurnLabel(NamedTuple):
    spans: tuple[Span, ...]

    @property
    def facets(self) -> frozenset[Facet]:
        if len(self.spans) == 1:
            return self.spans[0].facets
        return frozenset().union(*(s.facets for s in self.spans)) if self.spans else frozenset()


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, covering the text without gaps."""
    spans, start = [], 0
    for match in _BREAK.finditer(text):
        if match.group(0)[0] == ".":
            word = _LAST_WORD.search(text, max(start, match.start() - 12), match.start() + 1)
            last = word.group(1).lower() if word else ""
            # "No. 12" is a number; "No. Delete the old note." is an answer
            number = last != "no" or text[match.end()].isdigit()
            if word and number and (last in ABBREVIATIONS or len(last) == 1):
                continue
        if match.start() >= start:
            spans.append((start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    if not spans:
        spans.append((0, len(text)))
    return spans


_CLAUSE_END = re.compile(r"[,;]\s+")


def clause_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each clause of ``text[start:end]`` (cut after a comma or semicolon
    followed by a space: "4,800" is one clause), covering it without gaps."""
    end = len(text) if end is None else end
    spans = []
    for match in _CLAUSE_END.finditer(text, start, end):
        spans.append((start, match.end()))
        start = match.end()
    if start < end or not spans:
        spans.append((start, end))
    return spans


_CODE_OR_QUOTE = re.compile(r"['\"‘’“”]|\d{3,}|\d[\d-]*[a-z]|\d+(?:-\d+){2,}", re.I)
_CLOCK_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s?[ap]m\b", re.I)
_PEOPLE_WORDS = re.compile(
    r"\b(?:i|me|my|we|us|our|ours|he|him|his|she|her|hers|they|them|their|you|your|nobody|no one"
    r"|anyone|everyone|someone|home|house|flat|apartment|unit|empty|vacant|unattended|alone|away|gone"
    r"|absent|out|back|landing|lands?|adults?|kids?|child|children|family|school|work|leaving|leaves?"
    r"|left)\b",
    re.I,
)


def holds_code_or_quote(text: str) -> bool:
    """Whether the text holds a quotation (a phrase) or a code-like figure ("2745",
    "SOL-9214", "19-27-33")."""
    return _CODE_OR_QUOTE.search(text) is not None


_TIME_WORDS = frozenset(
    re.findall(r"\w+", "after before from to until till by at around then and or the a an")
)


def is_plain_time_clause(clause: str) -> bool:
    """Whether a clause is a clock time with at most two words of its own beside it, and
    nothing that may be a secret: no other figure, no code or quotation, no one's
    whereabouts ("desk buzz after 10:05 AM", "signoff 2:25 PM to 2:40 PM"; not "we are
    out from 9 AM", "the last two digits 45 work after 10 AM", "countersign silver kite
    after 5:40 PM", "the spare one sits under the blue planter after 6 PM")."""
    times = _CLOCK_TIME.sub(" ", clause)
    words = [w for w in re.findall(r"[a-z]+(?:-[a-z]+)*", times.lower()) if w not in _TIME_WORDS]
    return (
        times != clause
        and len(words) <= 2
        and not any(c.isdigit() for c in times)  # every figure is a clock time
        and not holds_code_or_quote(clause)
        and _PEOPLE_WORDS.search(clause) is None
    )


TITLES = frozenset(
    [
        "dr",
        "doctor",
        "nurse",
        "pharmacist",
        "mr",
        "mrs",
        "ms",
        "mx",
        "miss",
        "prof",
        "professor",
        "coach",
        "dean",
        "agent",
        "officer",
    ]
)


_COMMON = """a an am as at be by do go he hi if in is it me my no of oh ok on or so to up us we ye
and are but can did for had has her him his how its may not our out see she the was who why
you all any new now old one two day may june will mark bill"""
COMMON_WORDS = frozenset(_COMMON.split())
"""Words never taken as a name, so a principal called "Will" is not matched everywhere."""


def _name_parts(display_name: str) -> list[str]:
    """The words of a display name without titles or parenthesised notes ("Dr. Varga" -> Varga)."""
    plain = re.sub(r"\([^)]*\)", " ", display_name).replace(".", " ")
    return [w for w in plain.split() if w.lower() not in TITLES]


def resource_name(resource_id: str) -> str:
    name = resource_id
    for prefix in RESOURCE_PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix) :]
            break
    return name.replace("_", " ").replace("-", " ").strip()


_PART_BREAK = re.compile(r"[,;]\s*(?:and\s+|or\s+|plus\s+)?|\s(?:and|or|plus)\s", re.I)


_CONDITION = re.compile(r"^\W*(?:if|unless|in\s+case)\b", re.I)
_POINTS_BACK = re.compile(r"\b(?:she|her|hers|he|him|his|they|them|their|theirs)\b|['’]s\b", re.I)
_YES_NO_OR_WHOSE = re.compile(
    r"\byes\s+or\s+no\b|\bwhose\b|(?:^|[,.;?!]\s*(?:and\s+)?)(?:is|are|was|were|do|does|did|can|could|will|would"
    r"|has|have|had|should|shall)\b",
    re.I,
)


def _condition_end(query: str, start: int, name: re.Match[str], end: int) -> int:
    """Where a named subject's part ends: at the comma closing a condition that opens the
    part ("If Tessa is unavailable Friday, what is my backup plan?"), when what follows in
    that sentence asks about the asker's own ("my"), points back at no one ("her code") and
    is not a yes/no question; else where it ended."""
    if not _CONDITION.match(query[start : name.start()]):
        return end
    comma = query.find(",", name.end(), end)
    if comma == -1:
        return end
    stop = re.search(r"[.?!]", query[comma:end])
    question = query[comma : comma + stop.end() if stop else end]
    if _MY.search(question) and not _POINTS_BACK.search(question) and not _YES_NO_OR_WHOSE.search(question):
        return comma
    return end


def _part_start(query: str, after: int, before: int) -> int:
    """Where the part naming the next subject starts, between two names."""
    breaks = list(_PART_BREAK.finditer(query, after, before))
    return breaks[-1].end() if breaks else before


_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'’-]*)")


def _surnames_of(principals: Sequence[Principal]) -> frozenset[str]:
    """The lower-cased surnames that are no one's first name or id: written in lower case
    before a content word, they are nouns ("the west arcade stone planter" does not name
    Laila Stone, nor "the hall closet" Tessa Hall)."""
    firsts, lasts = set(), set()
    for p in principals:
        parts = [part.lower() for part in _name_parts(p.display_name)]
        if parts:
            firsts.add(parts[0])
            lasts.update(parts[1:][-1:])
    return frozenset(lasts - firsts - {p.principal_id.lower() for p in principals})


def _modifies(lowered: str, end: int) -> bool:
    """Whether the word ending at ``end`` stands before a content word, as a noun
    modifying it ("stone planter"), rather than before "'s", a function word or a break."""
    following = _NEXT_WORD.match(lowered, end)
    return following is not None and following.group(1) not in FUNCTION_WORDS


def _without_names(text: str, lowered: str, found: Sequence[re.Match[str]]) -> tuple[str, str]:
    """``text`` and its lower-case form with the ``found`` names blanked out (same length)."""
    if not found:
        return text, lowered
    pieces, start = [], 0
    for match in found:
        pieces.append(text[start : match.start()])
        pieces.append(" " * (match.end() - match.start()))
        start = match.end()
    pieces.append(text[start:])
    blanked = "".join(pieces)
    return blanked, blanked.lower()


_EXCLUDED = re.compile(
    r"(?<!nothing )(?<!none )(?<!anything )"
    r"\b(?:without|excluding|except(?: for)?|other than|leaving out|but not|minus)\b"
    r"(?:\s+(?:(?:and|or)\s+)?(?!(?:just|tell|give|send|show|list|need|want|i|we|me|us|and|or|so|but"
    r"|whether|please|what|which|when|where|who|how|is|are|am|was|do|does|did|can|could|will|would)\b)"
    r"[\w'’-]+){1,8}",
    re.I,
)
"""What a query says it does not want ("... for Sofia without including any exact
codes", "without any exact codes or phrases"): a cue and at most eight words after it,
up to a punctuation mark or a word that starts a request or a question ("without
wasting time just tell me ...", "... and tell me"); not "nothing other than", which
asks for exactly that."""
SAID_BY = "said_by:"
"""Tag prefix of the facet ``("", "said_by:<speaker>")`` on a sentence its speaker asserted."""

_ASKING = (
    r"\?|^\W*(?:so|please)\b"
    r"|\b(?:whether|if|need|needs|needed|want|wants|wanted|ask|asks|asked|asking|tell|send|confirm|know"
    r"|please|assume|guess|suppose|presumably|probably|maybe)\b"
)
_NOT_ASSERTED = re.compile(
    _ASKING + r"|\b(?:wonder(?:s|ed|ing)?|(?:text|give|ping|leave|forward|share|show)\s+me)\b"
    r"|\b(?:private|restricted|confidential|secret|sensitive|internal|family-only"
    r"|do not share|don't share|(?:not\s+to|never(?:\s+to)?)\s+(?:reveal|disclose)"
    r"|between us"
    r"|delet\w*|eras\w*|remov\w*|forget\w*|forgot\w*|purg\w*|scrub\w*|wip(?:e|ed|es|ing)"
    r"|recoverable|retrievable|treated as|marked as|stays? off|not part of)\b",
    re.I,
)
"""What makes a sentence something other than its speaker's own assertion: a question,
request or guess (it names what the speaker does not know: "tell me whether the biopsy
means cancer", "so there is no spare key now"), or a sentence its speaker marks as
restricted or deleted (relayed on behalf of someone else: "family-only note recorded:
6:20 AM"; "Zoe's old pickup phrase should not be recoverable"; "not to reveal slot B").
Erring towards these costs a speaker only the rereading of their own words: "if", "even
if", "I don't need X" ask, for "If possible, give me the code 4471" and "I don't need much,
just the garage code 4471" are requests (a review found both leaking when they did not).
"wonder" and "text me" only take the read-back away; they do not decide whether "my ..."
is the speaker's own (:data:`_ASKING` does): "My bike lock code is 4471 - text me when you
get there" stays the speaker's."""


def said_by(speaker: str) -> Facet:
    """The facet that lets a speaker read back a sentence they asserted."""
    return ("", SAID_BY + speaker)


_PERSONAL = re.compile(r"\b(?:her|his|their|them|him|hers|theirs|my|mine|our)\b", re.I)

_CONTRAST = re.compile(
    r"\b(?:distinct\s+from|separated?\s+from|kept\s+apart\s+from|unlike|as\s+opposed\s+to|confused\s+with"
    r"|mistaken\s+for)\b"
    r"(?:[^,;:.!?]|[,.](?=\d))*",
    re.I,
)
"""An aside naming what a sentence is *not* about ("the active private amount is 3,740
USD, distinct from the public Juniper Residents line"), up to the end of its clause: a
resource named in it is not the sentence's subject (a person named in it still is)."""


_CALENDAR_WORDS = frozenset((*WEEKDAYS, *MONTHS))
_DENIED = re.compile(
    r"(?:\b(?:not|never)(?:\s+(?:yet|be|been|being|made|treated|considered|shared|kept|as|to))*"
    r"|\b(?:no|nor|without)|\b(?:out\s+of|off)(?:\s+(?:any|the|a|all))?)\s+$",
    re.I,
)


def _affirmed(word: re.Pattern[str], text: str) -> bool:
    """Whether ``word`` is said of something in ``text``, not denied in its clause ("not
    yet public", "out of any public channel")."""
    return any(not _DENIED.search(text, 0, match.start()) for match in word.finditer(text))


_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself)\b|\bI['’]")
_MY = re.compile(r"\b(?:my|mine)\b", re.I)
_ASKS = re.compile(_ASKING, re.I)
_CAPITALISED_RUN = re.compile(r"[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)+\b")


_NOT_OWN_HEADS = (
    r"(?:step|half|grand)?(?:sister|brother|mother|mom|mum|father|dad|parent|son|daughter|child|kid"
    r"|wife|husband|partner|spouse|friend|cousin|aunt|uncle|niece|nephew|neighbou?r|boss|colleague"
    r"|roommate|flatmate|reminder|advice|job|note|point|guess|idea|plan|question|request)s?|\w+s['’]"
)
"""Heads after "my" that are not a thing of the speaker's: a person, a plural owner, a remark."""
_OWN_STATEMENT = re.compile(
    r"(?:^|[:;,]|\b(?:so|and|also|that|remember|note)\b)\W*"
    rf"(my\s+(?!(?:{_NOT_OWN_HEADS})\b)(?:[\w-]+\s+){{0,3}}?(?:is|are)\s+"
    r"(?!(?:that|to|the one|one)\b)[^,;:?!]*)",
    re.I,
)
"""A clause opening on a thing of the speaker's and what it is ("My laptop PIN is 9032",
"Please remember: my laptop PIN is 9032"),
not on another person ("my sister is the one with ..."), a plural owner ("my parents'
PIN"), or a remark introducing a clause ("my reminder is that ...")."""
_THIRD_PERSON = re.compile(r"\b(?:he|she|him|her|his|hers|they|them|their|theirs)\b|\bmy\s+\w+['’]s\b", re.I)
"""Words by which a sentence speaks of a person other than its speaker ("her interview",
"my brother's pickup")."""


def _capitalised_runs(sentence: str) -> Iterable[list[str]]:
    """Runs of two or more capitalised words ("the Apricot Archive fallback", "Apricot
    Archive uses 2745 ..."), weekdays and months left out: a thing's name is a known pair,
    so a sentence's first word may start it."""
    for match in _CAPITALISED_RUN.finditer(sentence):
        run: list[str] = []
        for word in match.group(0).split():
            if word.lower() in _CALENDAR_WORDS:
                if len(run) >= 2:
                    yield run
                run = []
                continue
            run.append(word)
        if len(run) >= 2:
            yield run


_NOT_A_VISITORS = frozenset(
    ("private", "health", "absence", "occupancy", "credentials", "security", "contact")
)
"""Tags an unnamed sentence does not carry onto a visitor alone (:meth:`Labeler._carries_a_visitor`):
what is protected from visitors, the home's codes, alarms and numbers and whether it is empty
among it."""
_ONE_PERSON = re.compile(r"\b(?:he|she|him|her|his|hers|himself|herself)\b", re.I)
"""Words referring back to one person: the visitor just named may be who is meant ("they", "you",
"Mom" point at residents as often)."""
_KIN = re.compile(
    r"\b(?:mom|mum|mother|dad|father|grandma|grandpa|granny|grandmother|grandfather|aunt|auntie|uncle"
    r"|husband|wife|son|daughter|brother|sister|baby|kids|children)\b",
    re.I,
)
"""Family words: a "her" or "his" after one in the turn points at that relative, not the visitor."""
_GOES_ON = re.compile(
    r"\W*(?:it|its|it['’]s|that|this|the\s+(?:new|old|next|same|current)\s+one|that\s+one|this\s+one)\b", re.I
)
"""A sentence opening on what the one before spoke of: its code is that code."""
_THING_CARRIED = frozenset(("scheduling", "location", "general"))
"""Tags an unnamed sentence may inherit a named thing for: its logistics, never a code."""
_CLAUSE_BREAK = re.compile(
    r";\s+|,?\s+(?:and|but|while|whereas)\s+(?=(?:the|a|an|my|our|his|her|their)\b)", re.I
)
_HOME_CODE = re.compile(
    r"\b(?:our|we|us|your|mom|dad|mum|same\s+(?:\w+\s+)?as|also\s+opens?|both|shared\s+with|as\s+well\s+as)\b",
    re.I,
)
_HOME_DOOR = re.compile(
    r"\b(?:garage|door|gate|mudroom|lobby|fob|apartment|house|home|alarm|wi-?fi|router|bank|card|phone|laptop"
    r"|tablet|safe|family|car|bike|locker|storage)\b",
    re.I,
)
"""What the home's or a person's own codes open (never a thing's)."""
_POSSESSIVE = re.compile(r"\b(?!(?:" + "|".join(WEEKDAYS) + r")['’]s\b)\w+['’]s\b|\b\w+s['’](?!\w)", re.I)
_CODE_WORD = re.compile(
    r"(?:\b([a-z]+)\s+)?\b(?:codes?|pins?|phrases?|passphrases?|passcodes?|keypad|combinations?|passwords?"
    r"|lockbox|keys?)\b",
    re.I,
)
"""A code word and the word before it ("helper phrase": helper)."""
_CODE_OR_QUOTE_VALUE = re.compile(r"['\"‘“][^'\"’”]+['\"’”]|(?<![\d:])\d{3,}(?![\d:])")
_CODE_AFTER_NAME = re.compile(
    r"^(?:['’]s)?(?:\s+[\w-]+){0,2}?\s+(?:codes?|pins?|keypad|phrases?|passphrase|combination|keys?|lockbox|passwords?)\b",
    re.I,
)
_CLAUSE_VERB = re.compile(r"\b(?:is|are|was|were|stays|remains|changed|changes|will\s+be|becomes)\b", re.I)


_SAFE_LABEL = re.compile(
    r"\b(?:safe|broad|broader|outward|mixed-audience|public-facing|[a-z]+-safe)(?:\s+[\w-]+){0,2}?"
    r"\s+(?:wording|label|title|description)\s+(?:(?:is|remains|stays|reads|of)\s+)?['\"‘“]?"
    r"([\w-]+(?:\s+[\w-]+){0,5})(?=['\"’”]?\s*(?:[,;.!?)]|$))",
    re.I,
)
"""Wording said to be safe to share, and the wording itself (group 1): a short phrase
that ends the clause ("safe label single-room accommodation review, ...")."""
_CLAUSE_WORDS = frozenset(
    re.findall(
        r"\w+",
        "is are was were be been am will would should must may can could when if until unless while"
        " because and or but not no nobody starts begins her his their my our your the a",
    )
)


def _blank_label(match: re.Match[str]) -> str:
    """The match with its label blanked, unless the "label" is a clause ("the guest-safe
    wording when nobody is home"): then it is kept, and its words are topics."""
    if not _CLAUSE_WORDS.isdisjoint(match.group(1).lower().split()):
        return match.group(0)
    start, end = match.span(1)
    text = match.group(0)
    offset = match.start()
    return text[: start - offset] + " " * (end - start)


LABELING_VERSION = 27
"""Part of a labeller's fingerprint: raise it when the labelling itself changes (not only
a pack), so stores labelled the old way are labelled again when opened."""


def things_of(
    pack: PolicyPack, relationships: Sequence[Relationship], principals: Sequence[Principal]
) -> frozenset[str]:
    """The household's things (``scope_things`` packs): word pairs of relationship scopes
    that name no topic of the pack ("apricot_archive", not "front_door" or "package_room",
    which are places; not "saturday_apricot", a day), no person ("grandma_rosa"), no word
    of access (``scope_words``: "house_logistics") and no relationship's target
    ("maple_house", the household itself)."""
    if not pack.scope_things:
        return frozenset()
    pairs = frozenset().union(*map(scope_things, relationships))
    names = {part.lower() for p in principals for part in (p.principal_id, *_name_parts(p.display_name))}
    names |= {part for p in principals for part in p.principal_id.lower().split("_")}
    targets = {r.target_id.lower() for r in relationships if r.target_id}
    return frozenset(
        pair
        for pair in pairs
        if pair not in targets
        and not (_CALENDAR_WORDS | names | pack.scope_words.keys()) & set(pair.split("_"))
        and not any(p.search(pair.replace("_", " ")) for p in pack.tag_patterns.values())
    )


def cues_of_things(
    pack: PolicyPack, relationships: Sequence[Relationship], things: frozenset[str]
) -> dict[str, str]:
    """Words a scope ties to one thing ("saturday_walnut_wreath_helper_only": helper is
    Walnut Wreath's; a weekday or month never is), where no scope ties them to another.
    The things are the pairs more than one scope names, so "wreath_helper" is not one."""
    segments = []
    for relationship in relationships:
        for name in SCOPE_ATTRIBUTES:
            value = relationship.attributes.get(name)
            if isinstance(value, str):
                for part in value.lower().split("_and_"):
                    words = [w for w in re.split(r"[^a-z]+", part) if w]
                    segments.append((words, {f"{a}_{b}" for a, b in itertools.pairwise(words)} & things))
    counts: dict[str, int] = {}
    for _, named in segments:
        for pair in named:
            counts[pair] = counts.get(pair, 0) + 1
    found: dict[str, set[str]] = {}
    for words, named in segments:
        shared = {pair for pair in named if counts[pair] > 1}
        thing_words = {w for t in shared for w in t.split("_")}
        for word in set(words) - thing_words - SCOPE_GLUE - _CALENDAR_WORDS - pack.scope_words.keys():
            found.setdefault(word, set()).update(shared or {""})
    return {
        word: next(iter(owners)) for word, owners in found.items() if len(owners) == 1 and "" not in owners
    }


class Labeler:
    """Labels turns for one store: its pack, its principals and its resources."""

    def __init__(
        self, pack: PolicyPack, principals: Sequence[Principal], relationships: Sequence[Relationship]
    ):
        self.pack = pack
        self.roles = {p.principal_id: p.role for p in principals}
        self.resources = sorted(
            {r.target_id for r in relationships if r.target_id and r.target_id not in self.roles}
        )
        self._names = self._name_table(principals)
        self._surnames = _surnames_of(principals)
        pattern = trie_pattern(self._names, not_after=r"[\w-]")
        self._mentions = re.compile(rf"{pattern}(?![\w-])") if pattern else None  # lower-cased text
        self._tags: list[TagMatcher | VocabularyMatcher] = [
            TagMatcher(tag, compiled) for tag, compiled in pack.tag_patterns.items()
        ]
        self._tags += [_vocabulary_matcher(tag, names) for tag, names in pack.vocabularies.items()]
        self._references = "previous" in pack.unnamed_subject and bool(pack.shared_tags)
        self.subjects = frozenset(p for p, role in self.roles.items() if pack.is_subject_role(role))
        """The principals whose matters are their own (the pack's subject roles)."""
        self._speaking_subjects = (
            {p: frozenset({p}) for p in self.subjects} if "speaker" in pack.unnamed_subject else {}
        )
        self._anyone_speaking = "speaker" in pack.unnamed_subject and pack.is_subject_role("")
        ownership = [r for r in relationships if pack.is_ownership(r.type) and r.target_id in self.resources]
        self._owned = frozenset(r.target_id for r in ownership)
        self._unowned = frozenset(self.resources) - self._owned
        cases: dict[str, set[str]] = {}
        for r in ownership:
            cases.setdefault(r.principal_id, set()).add(r.target_id)
        self._cases_of = {principal: frozenset(owned) for principal, owned in cases.items()}
        self._qualified = self._qualified_table()
        self._by_sentence = "self" in pack.unnamed_subject
        self._visitors = bool(pack.subject_roles) and not pack.is_subject_role("")
        self._things = things_of(pack, relationships, principals)
        self._thing_cues = cues_of_things(pack, relationships, self._things)
        self._separable = bool(pack.separable_tags)
        self._impersonal = self._unowned | self._things
        self._plain: dict[tuple[str | None, str, frozenset[str]], frozenset[Facet]] = {}
        self.fingerprint = hashlib.sha256(
            json.dumps(
                [
                    LABELING_VERSION,
                    sorted((tag, p.pattern) for tag, p in pack.tag_patterns.items()),
                    sorted((tag, sorted(map(_digest, names))) for tag, names in pack.vocabularies.items()),
                    sorted((kind, sorted(tags)) for kind, tags in pack.kind_tags.items()),
                    sorted(pack.subject_roles),
                    sorted(pack.personal_tags),
                    list(pack.unnamed_subject),
                    sorted(pack.shared_tags),
                    sorted(pack.overriding_tags),
                    sorted(pack.declassifiable_tags or ()),
                    sorted((tag, sorted(under)) for tag, under in pack.subsumed_tags.items()),
                    sorted((tag, sorted(apart)) for tag, apart in pack.separable_tags.items()),
                    sorted(self.roles.items()),
                    sorted((name, sorted(subjects)) for name, subjects in self._names.items()),
                    [(p.pattern, owned, sorted(subjects)) for p, owned, subjects in self._qualified],
                    sorted(self._things),
                    sorted(self._thing_cues.items()),
                ]
            ).encode()
        ).hexdigest()

    def _qualified_table(self) -> list[tuple[re.Pattern[str], bool, frozenset[str]]]:
        """The pack's ``qualified_subjects``: (word pattern, whether its kind is owned,
        the resources of that kind)."""
        kinds = {"owned resource": self._owned, "resource": self._unowned}
        return [
            (
                re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.I),
                kind == "owned resource",
                kinds[kind],
            )
            for word, kind in sorted(self.pack.qualified_subjects.items())
            if kinds[kind]
        ]

    def _name_table(self, principals: Sequence[Principal]) -> dict[str, frozenset[str]]:
        """Lower-cased name -> the subjects it may refer to."""
        names: dict[str, set[str]] = {}

        def add(name: str, subject: str) -> None:
            name = name.strip().lower()
            if len(name) >= 2 and name not in COMMON_WORDS:
                names.setdefault(name, set()).add(subject)

        for p in principals:
            add(p.principal_id, p.principal_id)
            parts = _name_parts(p.display_name)
            if parts:
                add(" ".join(parts), p.principal_id)
                add(parts[0], p.principal_id)
                if len(parts) > 1:
                    add(parts[-1], p.principal_id)
        for resource in self.resources:
            add(resource, resource)
            add(resource_name(resource), resource)
        return {name: frozenset(subjects) for name, subjects in names.items()}

    def mentioned(self, text: str) -> set[str]:
        found: set[str] = set()
        for match in self._name_matches(text, text.lower()):
            found |= self._names.get(match.group(0), frozenset())
        return found

    def _name_matches(self, text: str, lowered: str) -> list[re.Match[str]]:
        """The names in ``text`` (found in its lower-case form). A surname alone written in
        lower case names no one when a content word follows it, as a noun before its head
        ("the west arcade stone planter", "the hall closet"); it still does before "'s", a
        function word or a break ("reed's pickup", "reed has a dentist appointment", "ask
        reed about it")."""
        if self._mentions is None:
            return []
        return [
            m
            for m in self._mentions.finditer(lowered)
            if m.group(0) not in self._surnames
            or text[m.start()].isupper()
            or not _modifies(lowered, m.end())
        ]

    def _named(self, sentence: str) -> set[str]:
        """Whom a sentence names as what it is about: not resources named only in a
        contrast aside."""
        named = self.mentioned(sentence)
        if named and _CONTRAST.search(sentence):
            outside = self.mentioned(_CONTRAST.sub(" ", sentence))
            return outside | {n for n in named - outside if n in self.roles}
        return named

    def tags_of(self, text: str, kind: str | None = None, shared: bool = True) -> frozenset[str]:
        """The topics of a sentence. Names are not topics: "Sable Appeal" or "Willow
        Transfer" named in a sentence does not make it about appeals or transfers; nor is
        wording given as safe to share ("safe label single-room accommodation review"),
        whose words are chosen to be shown. With ``shared`` False, a sentence declared
        shared (a pack's ``overriding_tags``) keeps the tags of what it says (:meth:`label`:
        wording said to be shared never shares a resident's own matter)."""
        lowered = text.lower()
        if self._mentions is not None:
            text, lowered = _without_names(text, lowered, self._name_matches(text, lowered))
        tags = {
            matcher.tag
            for matcher in self._tags
            if matcher.tag in self.pack.overriding_tags and matcher.search(text, lowered)
        }
        if _SAFE_LABEL.search(text):
            text = _SAFE_LABEL.sub(_blank_label, text)
            lowered = text.lower()
        tags |= {
            matcher.tag
            for matcher in self._tags
            if matcher.tag not in self.pack.overriding_tags and matcher.search(text, lowered)
        }
        overriding = tags & self.pack.overriding_tags
        if overriding:
            declassifiable = self.pack.declassifiable_tags
            if shared and (declassifiable is None or tags - overriding <= declassifiable):
                return frozenset(overriding)
            tags -= overriding  # "helper-safe plan: the house is empty until 6" stays what it is
        for tag in tags & self.pack.subsumed_tags.keys():
            tags -= self.pack.subsumed_tags[tag]
        if kind is not None:
            tags |= self.pack.kind_tags.get(kind, frozenset())
        return frozenset(tags or {GENERAL})

    def speaks_of_no_one(self, text: str) -> bool:
        """Whether the text names and refers to no one ("keypad 2745 before 10:05 AM";
        not "Leah's keypad 2745", "her keypad 2745")."""
        return (
            not self.mentioned(text)
            and _THIRD_PERSON.search(text) is None
            and _FIRST_PERSON.search(text) is None
            and _REFERENCE.search(text.lower()) is None
        )

    def subjects_of(self, mentioned: Iterable[str], tags: frozenset[str]) -> set[str]:
        """The mentioned names that are subjects of a sentence with these tags."""
        personal = not tags.isdisjoint(self.pack.personal_tags)
        subjects = set()
        for subject in mentioned:
            role = self.roles.get(subject)
            if role is None or personal or self.pack.is_subject_role(role):
                subjects.add(subject)
        return subjects

    def label(
        self, text: str, speaker: str, kind: str | None, previous: frozenset[str]
    ) -> tuple[TurnLabel, frozenset[str]]:
        """The turn's label, and the subjects a following unnamed sentence inherits.

        A sentence its speaker asserted about anyone else also gets :func:`said_by`.

        Adjacent sentences with the same facets form one span. A turn that names no
        one, matches no tag pattern and refers back to no one is one span, found
        without cutting it into sentences (the common case, and the fast one).
        """
        speaking = self._speaking_subjects.get(speaker)
        if speaking is not None or self._anyone_speaking:
            previous = speaking or frozenset({speaker})  # a patient speaking is who the talk is about now
        if not self._has_cues(text):
            facets = self._plain_facets(kind, speaker, previous)
            if all(subject in ("", speaker) for subject, _ in facets):
                return TurnLabel((Span(0, len(text), facets),)), previous
            if _NOT_ASSERTED.search(text) is None:
                return TurnLabel((Span(0, len(text), facets | {said_by(speaker)}),)), previous
            # a question or request among its sentences: they are labelled one by one
        spans: list[Span] = []
        own: frozenset[str] | None = None  # after "My laptop PIN is 9032, ...", for this turn only
        for start, end in sentence_spans(text):
            sentence = text[start:end]
            tags = self.tags_of(sentence, kind)
            context = previous
            subjects = self.subjects_of(self._named(sentence), tags) | self._things_named(sentence)
            named = bool(subjects)
            if named:
                own = None
                previous = frozenset(
                    subjects | (self._people_of(context) if subjects <= self._things else set())
                )
                if subjects <= self._impersonal:
                    subjects |= self._people_referred(sentence, speaker, context)
                things = subjects & self._things
                if things and "credentials" in tags and not self._code_is_the_things(sentence, things):
                    subjects.add("")  # a code not shown to be the thing's is the home's
            else:
                found, previous = self._unnamed(sentence, tags, speaker, own or previous)
                if own is not None:
                    previous = context  # what the turn's own sentences inherited stays in the turn
                elif (
                    found == {speaker}
                    and "self" in self.pack.unnamed_subject
                    and self._speaks_of_own(sentence)
                ):
                    own = frozenset({speaker})
                subjects = set(found)
                cued = self._code_cued(sentence, tags, context) if own is None else frozenset()
                if cued:
                    subjects = set(cued)
                if not subjects:
                    subjects = self.subjects_of(self.mentioned(sentence), tags)  # named only in a contrast
                elif (
                    found
                    and speaker not in found
                    and self._carries_a_visitor(sentence, found, tags, text[:start])
                ):
                    subjects.add("")  # a private matter carried onto a visitor is not theirs alone
            # Wording said to be shared never shares a resident's own matter, named ("Desk-safe
            # summary: Chloe is home at 11"), carried or pointed at ("she", "my"), but the
            # speaker's own, declared by them ("My broad Monday wording remains after 6:30 AM";
            # not "my father ..."): reviews found all of these shared.
            if tags <= self.pack.overriding_tags:
                declarer = set() if _KIN.search(sentence) else {speaker}
                if self._speaks_of(sentence, subjects, speaker) - declarer:
                    tags = self.tags_of(sentence, kind, shared=False)
            if self._qualified:
                subjects, tags = self._qualify(sentence, subjects, tags, named, context | {speaker})
            pieces = (
                self._separated(text, start, end, tags, kind) if self._separable else ((start, end, tags),)
            )
            for piece_start, piece_end, piece_tags in pieces:
                facets = self._with_speaker(
                    frozenset((s, t) for s in (subjects or {""}) for t in piece_tags), sentence, speaker
                )
                if spans and spans[-1].facets == facets:
                    spans[-1] = Span(spans[-1].start, piece_end, facets)
                else:
                    spans.append(Span(piece_start, piece_end, facets))
        return TurnLabel(tuple(spans)), previous

    def _speaks_of(self, sentence: str, subjects: Iterable[str], speaker: str) -> set[str]:
        """The people whose own matters a sentence is about: its subjects (named, carried or
        pointed at), and the speaker when it says "I" or "my"."""
        speaking = {speaker} if _FIRST_PERSON.search(sentence) or _MY.search(sentence) else set()
        return self._people_of({*subjects, *speaking})

    def _separated(
        self, text: str, start: int, end: int, tags: frozenset[str], kind: str | None
    ) -> list[tuple[int, int, frozenset[str]]]:
        """The sentence ``text[start:end]`` as stretches with their tags: whole, or cut
        into clauses where the pack's ``separable_tags`` let a clause stand apart ("keypad
        2745 before 10:05 AM, desk buzz after 10:05 AM": the second is a schedule). Only a
        plain time clause (:func:`is_plain_time_clause`) stands apart, only when the
        sentence has no tag but the separable one and those its clauses may have, and only
        when every other clause holds the secret as a figure or quotation (so what it is
        can be told)."""
        whole = [(start, end, tags)]
        allowed = self._clauses_apart(tags)
        if allowed is None:
            return whole
        pieces = []
        for clause_start, clause_end in clause_spans(text, start, end):
            clause = text[clause_start:clause_end]
            if is_plain_time_clause(clause):
                own = self.tags_of(clause, kind)
                pieces.append((clause_start, clause_end, own if own <= allowed else tags))
            elif holds_code_or_quote(clause):
                pieces.append((clause_start, clause_end, tags))
            else:
                return (
                    whole  # the secret is not a figure: "the release phrase at the gate, blue cedar at 3 PM"
                )
        return pieces if any(piece[2] != tags for piece in pieces) else whole

    def _clauses_apart(self, tags: frozenset[str]) -> frozenset[str] | None:
        """The tags a clause may have to stand apart from a sentence with these tags (the
        pack's ``separable_tags``), or None when none may: the sentence must have a
        separable tag and no tag but those ("Garage code 4471 while the house is empty, 9
        AM to 8 PM" has occupancy too)."""
        separable = [t for t in tags if t in self.pack.separable_tags]
        if len(separable) != 1:
            return None
        allowed = self.pack.separable_tags[separable[0]]
        return allowed if tags - {separable[0]} <= allowed | {GENERAL} else None

    def erasable_apart(self, sentence: str, clause: str) -> bool:
        """Whether ``clause`` may be erased from ``sentence`` leaving the rest (see
        :func:`erasure.erase`): the sentence's clauses may stand apart (its tags are a
        separable tag and schedules), and the clause speaks of no one, so the rest,
        labelled again on its own later, keeps its subjects and loses no tag."""
        return self._clauses_apart(self.tags_of(sentence)) is not None and self.speaks_of_no_one(clause)

    def _qualify(
        self, sentence: str, subjects: set[str], tags: frozenset[str], named: bool, context: frozenset[str]
    ) -> tuple[set[str], frozenset[str]]:
        """Subjects and tags as the pack's ``qualified_subjects`` words correct them.

        A sentence that refers to a person ("her grant", "my appointment") is left as it
        is (beside a programme it names, the person was added already:
        :meth:`_people_referred`). Otherwise a sentence calling
        itself private is about the case of whom the talk is about (replacing a guessed
        subject or a programme it also calls public, added beside a programme it names
        otherwise); one calling itself public, naming no one but programmes, is about
        the programmes and its figures are their published ones (no personal tags). A
        personal detail said of no one, whose carried subject is a person owning no case
        ("Updated support summary: ..., amount 3,330 USD" long after a programme member
        was named), also gets the store's only case: that person does not read it as
        their own.
        """
        plain = _CONTRAST.sub(" ", sentence)
        if _PERSONAL.search(plain) or _FIRST_PERSON.search(plain) or _REFERENCE.search(plain.lower()):
            return subjects, tags
        guessed = not named and len(self._owned) == 1 and bool(self._people_of(subjects))
        if guessed and not tags.isdisjoint(self.pack.personal_tags) and not self._case_of(context):
            subjects = subjects | self._owned  # a carried person owning no case: the case too, never instead
        private = any(_affirmed(word, plain) for word, owned, _ in self._qualified if owned)
        public = any(_affirmed(word, plain) for word, owned, _ in self._qualified if not owned) and not (
            self._aside_holds_more(sentence)
        )
        if private:
            case = self._case_of(context)
            if case and (not named or (public and subjects <= self._unowned)):
                return set(case), tags  # what it says of a programme it calls public is published
            if case and subjects <= self._unowned:
                return subjects | case, tags
            if not case and not named and len(self._owned) == 1:
                return subjects | self._owned, tags  # a guessed person owning no case: the case too
        elif public and (not named or subjects <= self._unowned):
            return set(subjects if named else self._unowned), (tags - self.pack.personal_tags) or frozenset(
                {GENERAL}
            )
        return subjects, tags

    def _aside_holds_more(self, sentence: str) -> bool:
        """Whether a contrast aside holds a figure, a person or a case ("unlike the 2,910
        USD Monarch Nomination award"): what is set apart is then said too."""
        for aside in _CONTRAST.finditer(sentence):
            named = self.mentioned(aside.group(0))
            if re.search(r"\d", aside.group(0)) or any(n in self.roles or n in self._owned for n in named):
                return True
        return False

    def _case_of(self, context: frozenset[str]) -> frozenset[str]:
        """The cases of whom the talk is about: those owned by every subject-role
        principal in ``context`` (none when one of them owns none), or the store's only
        case when the context is no one in particular or a programme."""
        people = self._people_of(context)
        if people:
            cases = [self._cases_of.get(p, frozenset()) for p in people]
            return frozenset().union(*cases) if all(cases) else frozenset()
        owned = [r for r in context if r in self._owned]
        if owned:
            return frozenset(owned)
        return self._owned if len(self._owned) == 1 else frozenset()

    @staticmethod
    def _with_speaker(facets: frozenset[Facet], sentence: str, speaker: str) -> frozenset[Facet]:
        """``facets`` plus :func:`said_by` when the sentence is its speaker's assertion
        about anyone but the speaker (their own information they may read anyway)."""
        if all(subject in ("", speaker) for subject, _ in facets) or _NOT_ASSERTED.search(sentence):
            return facets
        return facets | {said_by(speaker)}

    def _plain_facets(self, kind: str | None, speaker: str, previous: frozenset[str]) -> frozenset[Facet]:
        """The facets of a turn without cues: they depend only on these three (kept)."""
        key = (kind, speaker, previous)
        facets = self._plain.get(key)
        if facets is None:
            tags = self.pack.kind_tags.get(kind, frozenset()) if kind is not None else frozenset()
            tags = tags or frozenset({GENERAL})
            subjects, _ = self._unnamed("", tags, speaker, previous, referred=False)
            facets = frozenset((s, t) for s in (subjects or {""}) for t in tags)
            if len(self._plain) >= 4096:
                self._plain.clear()
            self._plain[key] = facets
        return facets

    def _has_cues(self, text: str) -> bool:
        """Whether anything in the text could make its sentences' facets differ."""
        lowered = text.lower()
        if self._mentions is not None and self._mentions.search(lowered):
            return True
        if self._references and _REFERENCE.search(lowered) is not None:
            return True
        if any(word.search(text) for word, _, _ in self._qualified):
            return True
        if self._by_sentence and _MY.search(text):
            return True
        if self._things and _CAPITALISED_RUN.search(text):
            return True
        return any(matcher.search(text, lowered) for matcher in self._tags)

    def _unnamed(
        self,
        sentence: str,
        tags: frozenset[str],
        speaker: str,
        previous: frozenset[str],
        referred: bool | None = None,
    ) -> tuple[frozenset[str], frozenset[str]]:
        """Whom a sentence naming no one is about, and whom the next one inherits: the
        pack's ``unnamed_subject`` rules, in order.

        - ``speaker``: the speaker, if their role is a subject role.
        - ``self``: the speaker, if their role is a subject role and they say the
          matter is theirs ("My exact Monday layer is unchanged"; not "I heard that the
          note changed", "I need the details for my own awareness", "my brother's
          pickup"). What follows still inherits the last named subject.
        - ``previous``: the last named subject, when the sentence refers back to someone
          ("her dose", "your follow-up") or carries a tag outside the pack's
          ``shared_tags`` (an unnamed dose is still someone's dose); a plain remark on
          shared topics ("level P2 is for clinic patients") is about no one.
        """
        speaking = self.pack.is_subject_role(self.roles.get(speaker, ""))
        for rule in self.pack.unnamed_subject:
            if rule == "speaker" and speaking:
                return frozenset({speaker}), previous
            if rule == "self" and speaking and self._speaks_of_own(sentence):
                return frozenset({speaker}), previous
            if rule == "previous" and previous & self._things:
                return self._after_thing(sentence, tags, previous), previous
            if rule == "previous" and previous:
                if referred is None:
                    referred = _REFERENCE.search(sentence.lower()) is not None
                if referred or not tags <= self.pack.shared_tags:
                    return previous, previous
        return frozenset(), previous

    @staticmethod
    def _speaks_of_own(sentence: str) -> bool:
        if _THIRD_PERSON.search(sentence) or not _MY.search(sentence):
            return False
        if not _ASKS.search(sentence):
            return True
        # "My laptop PIN is 9032, please keep it to yourself": a statement of one's own that
        # opens the sentence, whatever is asked after it
        own = _OWN_STATEMENT.search(sentence)
        return (
            own is not None
            and not _ASKS.search(own.group(1))
            and not _CLAUSE_VERB.search(sentence, own.end())
        )

    def _people_referred(self, sentence: str, speaker: str, context: frozenset[str]) -> set[str]:
        """Who a sentence naming only things (programmes, the household's things) speaks
        of besides them: the people of the talk for "her"/"his"/"their" ("Her Monarch
        Mentors stipend was cut"), the speaker for "my" or "I" (when their role is a
        subject role). A thing's name never takes a person's detail out of their hands."""
        people = self._people_of(context) if _THIRD_PERSON.search(sentence) else set()
        if _FIRST_PERSON.search(sentence):
            people |= self._people_of((speaker,))
        return people

    def _carries_a_visitor(
        self, sentence: str, found: frozenset[str], tags: frozenset[str], before: str = ""
    ) -> bool:
        """Whether an unnamed sentence that does not refer back to one person ("her", "his";
        "they", "you" and "Mom" point at residents as often) inherits a principal outside the
        pack's subject roles (a caregiver, a driver) on a tag of ``_NOT_A_VISITORS``: the
        talk may have moved on to a resident's matter ("Rosa's care PIN is 7318" then Maya's
        "The exact time is 7:10 PM", "The side door code is 4471", "We fly out Friday",
        "Mom's phone PIN is 8812"), which the visitor must not read as their own. A code
        alone stays the visitor's only when the sentence opens on what the one before spoke
        of (``_GOES_ON``: "It changes to 7319 on Friday", "The new one from Friday is 7319");
        "The cabinet code is 4471" is the home's, and so, over-hiding, is "The backup phrase
        is red maple" after the driver's phrase. Only in packs whose subject
        roles leave some principals out (in the office pack no one is a subject, so no one
        is a visitor)."""
        protected = tags & _NOT_A_VISITORS
        if not self._visitors or not protected:
            return False
        pronoun = _ONE_PERSON.search(sentence)
        if pronoun and not _KIN.search(before + " " + sentence[: pronoun.start()]):
            return False  # "Her exact arrival is 9:10 AM"; not "Mom got a new phone. Her PIN is 5521."
        if protected == {"credentials"} and _GOES_ON.match(sentence):
            return False  # "It changes to 7319 on Friday", "The new one from Friday is 7319": still theirs
        return any(p in self.roles and not self.pack.is_subject_role(self.roles[p]) for p in found)

    def _people_of(self, context: Iterable[str]) -> set[str]:
        return {p for p in context if p in self.roles and self.pack.is_subject_role(self.roles[p])}

    def _after_thing(self, sentence: str, tags: frozenset[str], previous: frozenset[str]) -> frozenset[str]:
        """Whom an unnamed sentence after a thing was named is about: the thing for its
        logistics ("Approved areas stay the scan table"), the people of the talk for
        anything else or when it refers to them ("Her laptop PIN is 2231", "The garage
        code is 4471"), no one when there are none."""
        people = frozenset(self._people_of(previous))
        if _THIRD_PERSON.search(sentence) or not tags <= _THING_CARRIED:
            return people
        return previous & self._things

    def _code_cued(self, sentence: str, tags: frozenset[str], previous: frozenset[str]) -> frozenset[str]:
        """The thing an unnamed sentence giving one code is about: a thing of the talk
        (carried) whose scope's word names the code ("The current helper phrase is now
        'walnut glow'" after the Walnut Wreath code, the guest's scope being
        ``saturday_walnut_wreath_helper_only``). None when the sentence names more than
        one code or value, speaks of a person ("my", "her", "Dad's", "the kids'"), or of
        the home's own codes ("our", "the side-door code"), or the word is no carried
        thing's."""
        if "credentials" not in tags or not previous & self._things or not self._thing_cues:
            return frozenset()
        if _FIRST_PERSON.search(sentence) or _MY.search(sentence) or _THIRD_PERSON.search(sentence):
            return frozenset()
        if _HOME_CODE.search(sentence) or _HOME_DOOR.search(sentence) or _POSSESSIVE.search(sentence):
            return frozenset()
        words = _CODE_WORD.findall(sentence)
        if len(words) != 1 or len(_CODE_OR_QUOTE_VALUE.findall(sentence)) > 1:
            return frozenset()
        thing = self._thing_cues.get(words[0].lower())
        return frozenset({thing}) if thing in previous else frozenset()

    def _code_is_the_things(self, sentence: str, things: set[str]) -> bool:
        """Whether a code in a sentence naming a thing is shown to be the thing's: the code
        word follows the thing's name ("the Walnut Wreath code is 4682", "Apricot Adapter
        rule stays PIN 6083") or the name heads a recap ("Opening Birch Bins logged: ...,
        closet PIN 9154"), and nothing ties it to the home or a person ("our garage code
        also opens the Apricot Archive cabinet", "the same code as the front door", "Dad's
        PIN"), and no clause of its own gives another ("..., and the front door code is
        5521")."""
        if _HOME_CODE.search(sentence) or self._own_clause_code(sentence):
            return False
        for thing in things:
            a, b = thing.split("_")
            for match in re.finditer(rf"\b{a}\s+{b}\b", sentence, re.I):
                after = sentence[match.end() :]
                if _CODE_AFTER_NAME.match(after):
                    return True
                if ":" not in sentence[: match.start()] and re.match(r"^(?:\s+[\w-]+){0,2}\s*:", after):
                    return True
        return False

    def _own_clause_code(self, sentence: str) -> bool:
        """Whether a clause of its own, not naming a thing, gives a code ("The Birch Bins go
        out at 7 and the front door code is 5521 this week")."""
        return any(
            not self._things_named(clause)
            and _CLAUSE_VERB.search(clause)
            and "credentials" in self.tags_of(clause)
            for clause in _CLAUSE_BREAK.split(sentence)
        )

    def _things_named(self, sentence: str) -> set[str]:
        """The household's things a sentence names by their capitalised name."""
        if not self._things:
            return set()
        return {
            thing
            for run in _capitalised_runs(sentence)
            for a, b in itertools.pairwise(run)
            if (thing := f"{a}_{b}".lower()) in self._things
        }

    def _first_part_start(self, query: str, first: re.Match[str]) -> int:
        """Where the first named subject's part starts: the query's start, or the last list
        break before a name that starts its own item ("..., the porch-camera scope, and
        Serena Wu's camera entitlement") when the items before it ask nothing personal and
        the query is not a yes/no or "whose" question."""
        breaks = list(_PART_BREAK.finditer(query, 0, first.start()))
        if not breaks or not query.startswith(("'s", "’s"), first.end()) or _YES_NO_OR_WHOSE.search(query):
            return 0
        before = self.tags_of(query[: breaks[-1].start()])
        return 0 if before & self.pack.personal_tags else breaks[-1].end()

    def _without_exclusions(self, query: str) -> str:
        """The query with what it says it does not want blanked out: topics a query
        excludes are not topics it asks about. An excluded part that names or refers to
        someone ("without her warfarin dose") is kept: what is said about a person is
        never dropped from the assessment."""

        def blank(match: re.Match[str]) -> str:
            part = match.group(0)
            if _PERSONAL.search(part) or self._name_matches(part, part.lower()):
                return part  # about someone: never dropped from the assessment
            return " " * len(part)

        return _EXCLUDED.sub(blank, query)

    def unnamed_query_tags(self, query: str) -> frozenset[str]:
        """What a query naming no one asks about a subject all the same: it refers to one
        person ("is her biopsy back?"), or it is not asked in the first person and asks
        only the pack's ``questions_about_subjects`` topics ("what is the diagnosis?"). Its
        topics (but ``general``); nothing otherwise. Whom it means is a guess, so this is
        for refusing only: see :meth:`~govmem.governance.authorization.PolicyAuthorizer.assess_query`."""
        if any(self._names.get(m.group(0)) for m in self._name_matches(query, query.lower())):
            return frozenset()
        tags = self.tags_of(self._without_exclusions(query)) - {GENERAL}
        refers = _ONE_PERSON.search(query) is not None
        about_subjects = tags <= self.pack.questions_about_subjects and not _ASKED_OF_ONESELF.search(query)
        return tags if refers or about_subjects else frozenset()

    def query_facets(self, query: str, requester: str) -> frozenset[Facet]:
        """The facets a query asks about: only subjects it names, never a guess; and, on
        the pack's ``collective_tags``, no one in particular, whoever it names ("so
        nobody is home before six, right?" asks every resident's whereabouts).

        Each part of the query asks about the subject named in it ("my Lumen Review
        amount, and the public Lumen Leaders date" asks the amount of the one and the
        date of the other). Parts are cut at the last "and", comma or semicolon
        between two names, so "the aid for Quill and the date for Tidewater" pairs
        the date with Tidewater; words before the first name belong to it, and a
        part with no topic of its own ("... of Maya and Jordan") shares the topics
        of the part before it.
        """
        lowered = query.lower()
        matches = [m for m in self._name_matches(query, lowered) if self._names.get(m.group(0))]
        collective: frozenset[Facet] = frozenset()
        if self.pack.collective_tags:
            asked = self.tags_of(self._without_exclusions(query))
            collective = frozenset(("", tag) for tag in asked & self.pack.collective_tags)
        if not matches:  # about no one in particular, unless on a collective topic
            return collective
        cuts = (
            [self._first_part_start(query, matches[0])]
            + [_part_start(query, a.end(), b.start()) for a, b in itertools.pairwise(matches)]
            + [len(query)]
        )
        facets: set[Facet] = set(collective)
        tags: frozenset[str] = frozenset()
        for index, match in enumerate(matches):
            start, end = cuts[index], cuts[index + 1]
            end = _condition_end(query, start, match, end)
            own = self.tags_of(self._without_exclusions(query[start:end]))
            tags = own if own != {GENERAL} or not tags else tags
            subjects = self.subjects_of(self._names[match.group(0)], tags) - {requester}
            facets.update((s, t) for s in subjects for t in tags)
        return frozenset(facets)
