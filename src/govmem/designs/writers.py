"""Writers: the strategies derived designs use to turn source lines into text.

A derived design (summary, narrative, fact) decides *which* turns an object is
derived from; a writer decides *what it says*. Each protocol has a deterministic
offline implementation here, and an LLM implementation can be passed to a
deriver instead. Every call receives ``sources``, the keys of the turns whose
text is in the input, so a writer that caches (an LLM's replies) can forget an
entry when one of those turns is deleted.

- :class:`SummaryWriter` / :class:`ExtractiveSummaryWriter`: the most central and
  specific sentences, in their original order, each after its speaker.
- :class:`NarrativeWriter` / :class:`TemplateNarrativeWriter`: each line retold
  in the third person ("On 2026-03-09, ana told bo that ...").
- :class:`FactExtractor` / :class:`RuleFactExtractor`: (subject, attribute,
  value) triples from patterns such as "my X is Y", "X's Y is Z", "X moved to
  Y", appointments, codes and numbers.

Deterministic writers return the same text for the same input, so re-deriving an
unchanged group rewrites nothing; and they only ever copy text from their input,
so an object never holds words of a turn outside its sources.

Lines are ``"speaker: text"``: the writers split each at its first ``": "``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from govmem.retrieval.lexical import STOP_WORDS


@dataclass(frozen=True)
class ExtractedFact:
    """One atomic fact: ``subject``'s ``attribute`` is ``value``."""

    subject: str
    attribute: str
    value: str


class SummaryWriter(Protocol):
    name: str

    def summarize(self, title: str, lines: Sequence[str], sources: Sequence[int]) -> str:
        """A summary of ``lines`` (``"speaker: text"``) that starts with ``title``."""
        ...


class NarrativeWriter(Protocol):
    name: str

    def narrate(self, title: str, lines: Sequence[str], sources: Sequence[int]) -> str:
        """``lines`` retold as a third-person narrative that opens with ``title`` ("On 2026-03-09")."""
        ...


class FactExtractor(Protocol):
    name: str

    def extract(
        self, speaker: str, text: str, timestamp: str | None, sources: Sequence[int]
    ) -> list[ExtractedFact]:
        """The facts ``speaker`` states in ``text`` (first person resolves to ``speaker``)."""
        ...


def speaker_and_text(line: str) -> tuple[str, str]:
    speaker, sep, text = line.partition(": ")
    return (speaker, text) if sep else ("", line)


_ABBREVIATIONS = frozenset({"Dr.", "Mr.", "Ms.", "Mrs.", "St.", "No.", "vs.", "Prof.", "approx."})
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])")


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences (titles such as "Dr." do not end one)."""
    pieces = _SENTENCE_END.split(text.strip())
    merged: list[str] = []
    for piece in pieces:
        if merged and merged[-1].rsplit(" ", 1)[-1] in _ABBREVIATIONS:
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    return [s.strip() for s in merged if s.strip()]


def clip(text: str, max_chars: int) -> str:
    """``text`` cut at a word boundary to at most ``max_chars`` characters (with an ellipsis)."""
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "…"


_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_EXTRA_STOP = frozenset(
    """okay ok yes thanks thank hi hello sorry right also just let us get got go going
    one two like would could really well sure great fine need want
    """.split()  # noqa: SIM905
)
_SUMMARY_STOP = STOP_WORDS | _EXTRA_STOP


def _analysed(text: str) -> list[tuple[str, frozenset[str], int]]:
    """Each sentence of ``text`` with its content words and how many of its words are
    specific (numbers, names)."""
    result = []
    for sentence in sentences(text):
        words = _WORD.findall(sentence)
        terms = frozenset(w.lower() for w in words if len(w) > 2 or w[0].isdigit()) - _SUMMARY_STOP
        specific = sum(1 for i, w in enumerate(words) if w[0].isdigit() or (i > 0 and w[0].isupper()))
        result.append((sentence, terms, specific))
    return result


class ExtractiveSummaryWriter:
    """The ``max_lines`` sentences with the best score, in their original order.

    A sentence scores by centrality (its content words shared with other
    sentences of the input, weighted by how many share them, per square root of
    its length) plus specificity (numbers and names: what a profile or a
    question needs). Ties go to the earlier sentence. Every chosen sentence is
    copied after its speaker and clipped to ``max_chars``.
    """

    name = "extractive"

    def __init__(self, max_lines: int = 4, max_chars: int = 240):
        if max_lines < 1 or max_chars < 16:
            raise ValueError("a summary keeps at least one line of at least 16 characters")
        self.max_lines = max_lines
        self.max_chars = max_chars

    def summarize(self, title: str, lines: Sequence[str], sources: Sequence[int]) -> str:
        items: list[tuple[str, str, frozenset[str], int]] = []
        for line in lines:
            speaker, text = speaker_and_text(line)
            items.extend(
                (speaker, sentence, terms, specific) for sentence, terms, specific in _analysed(text)
            )
        frequency = Counter(term for _, _, terms, _ in items for term in terms)
        weight = {term: math.log(count) for term, count in frequency.items() if count > 1}
        scores = [
            math.fsum(weight.get(t, 0.0) for t in terms) / math.sqrt(len(terms) + 1)  # any set order
            + 0.5 * min(specific, 6)
            + 0.1 * min(len(terms), 12)
            for _, _, terms, specific in items
        ]
        # Sentences with no content ("Got it.") only when there is nothing else.
        useful = [i for i, (_, _, terms, specific) in enumerate(items) if terms or specific]
        ranked = sorted(useful or range(len(items)), key=lambda i: (-scores[i], i))
        chosen = sorted(ranked[: self.max_lines])
        body = [
            clip(f"{items[i][0]}: {items[i][1]}" if items[i][0] else items[i][1], self.max_chars)
            for i in chosen
        ]
        return "\n".join([title, *body])


_OPENER = re.compile(
    r"^(?:(?:okay|ok|so|right|sorry|also|well|yes|no|hi|hello|thanks|great|sure|fine|done|and|but"
    r"|quick note|just to confirm|by the way|reminder|heads up|one thing|good (?:morning|afternoon|evening))"
    r"\b[,:.!]?\s+)+",
    re.IGNORECASE,
)

_FIRST_PERSON = {
    "am I": "are they",
    "I'm": "they're",
    "I am": "they are",
    "I was": "they were",
    "I've": "they've",
    "I'll": "they'll",
    "I'd": "they'd",
    "I": "they",
    "me": "them",
    "my": "their",
    "My": "Their",
    "mine": "theirs",
    "myself": "themselves",
}
_SECOND_PERSON = {
    "you're": "{} is",
    "you are": "{} is",
    "you were": "{} was",
    "you've": "{} has",
    "you have": "{} has",
    "your": "{}'s",
    "Your": "{}'s",
    "yours": "{}'s",
    "you": "{}",
    "You": "{}",
}
_PRONOUN = re.compile(
    r"\b(?:"
    + "|".join(re.escape(k) for k in sorted({**_FIRST_PERSON, **_SECOND_PERSON}, key=len, reverse=True))
    + r")\b"
)
_LOWER_STARTS = (
    STOP_WORDS
    | _EXTRA_STOP
    | frozenset(
        """the this that these those there it its we our they their a an some any all each every can could
        will would should is are was were do does did please let let's what when where who why how keep
        use take bring show remember they're they've they'll they'd since""".split()  # noqa: SIM905
    )
)
_THEY_STARTS = re.compile(r"([.!?] )(they|their|them|theirs)\b")
_VOCATIVE = re.compile(r"^([A-Z][a-z]+)(?: [A-Z][a-z]+)?, ")


class TemplateNarrativeWriter:
    """Each line retold in the third person: who told whom, or asked whom, what.

    The person told is the nearest other speaker among the lines (before, else
    after); first-person words become "they", "their", ...; "you" becomes the
    person told. A line ending in "?" is a question asked. Nothing but the
    input's own words, its speakers and ``title`` is written.
    """

    name = "template"

    def __init__(self, max_chars: int = 400):
        self.max_chars = max_chars

    def narrate(self, title: str, lines: Sequence[str], sources: Sequence[int]) -> str:
        parsed = [speaker_and_text(line) for line in lines]
        told = []
        speakers = sorted({s for s, _ in parsed if s})
        for i, (speaker, text) in enumerate(parsed):
            before = (s for s, _ in reversed(parsed[:i]) if s and s != speaker)
            after = (s for s, _ in parsed[i + 1 :] if s and s != speaker)
            listener = self._addressed(text, speaker, speakers) or next(before, None) or next(after, None)
            told.append(self._retell(speaker or "someone", listener, text))
        body = " ".join(told)
        return f"{title}, {body}" if title else body[:1].upper() + body[1:]

    @staticmethod
    def _addressed(text: str, speaker: str, speakers: Sequence[str]) -> str | None:
        """The speaker a line opens by naming ("Lena, ..."), when one of them has that name in their id."""
        vocative = _VOCATIVE.match(text.strip())
        if vocative is None:
            return None
        name = vocative.group(1).lower()
        named = [s for s in speakers if s != speaker and name in re.split(r"[^a-z0-9]+", s.lower())]
        return named[0] if len(named) == 1 else None

    def _retell(self, speaker: str, listener: str | None, text: str) -> str:
        text = _OPENER.sub("", text.strip()) or text.strip()

        def shift(match: re.Match[str]) -> str:
            word = match.group(0)
            if word in _FIRST_PERSON:
                return _FIRST_PERSON[word]
            return _SECOND_PERSON[word].format(listener) if listener else word

        text = _PRONOUN.sub(shift, text)
        text = clip(_THEY_STARTS.sub(lambda m: m.group(1) + m.group(2).capitalize(), text), self.max_chars)
        first = text.split(" ", 1)[0].rstrip(",:;.!")
        if first.lower() in _LOWER_STARTS or first in _COMMON_CAPITALISED:
            text = text[:1].lower() + text[1:]
        if text.endswith("?"):
            return f"{speaker} asked {listener}: {text}" if listener else f"{speaker} asked: {text}"
        ending = "" if text[-1:] in ".!…" else "."
        return (
            f"{speaker} told {listener} that {text}{ending}"
            if listener
            else f"{speaker} said that {text}{ending}"
        )


# Rule-based fact extraction.

_TITLE = r"(?:(?:Dr|Mr|Mrs|Ms|Prof|Nurse|Grandma|Grandpa|Uncle|Aunt)\.? )?"
_NAME = _TITLE + r"[A-Z][a-z]+(?:['-][A-Za-z][a-z]+)?(?: [A-Z][a-z]+(?:-[A-Z][a-z]+)?)?"
_NOT_NAMES = frozenset(
    """The This That These Those There It Its We You They He She I Our Your His Her Their My Please
    Can Could Will Would Should Also So Okay Ok Sorry Yes No Thanks Thank Hi Hello Dinner Lunch Breakfast
    Rent Bin School Parents Expense Expenses Headcount Minutes Shopping Reading Blood Lab Medication
    Scheduling Clinical Consent Deletion Keep Use Take Let Let's Then Only Nothing Before After When What
    Where Who Why How If Since For From In On At Today Tomorrow Yesterday Remember Bring Show Sure Done
    Fine Great Good Worse Question One Just Is Are Do Does Did Any All Each Every Some Quick Reminder
    Heads Right Also Just Not Once Both Last Next This Nobody Everyone Someone Monday Tuesday Wednesday
    Thursday Friday Saturday Sunday January February March April May June July August September October
    November December Pulse Our Cost Payment Insurance Referral Permission""".split()  # noqa: SIM905
)
_WEEKDAYS_AND_MONTHS = frozenset(
    """Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June
    July August September October November December I""".split()  # noqa: SIM905
)
_COMMON_CAPITALISED = _NOT_NAMES - _WEEKDAYS_AND_MONTHS
"""Capitalised words that are not names: a narrative lower-cases them after "that"."""
_FIRST_PERSON_SUBJECTS = {"I", "We", "we", "I'm", "I've"}
_CLAUSE_END = re.compile(r";\s+|,\s+(?:but|so|because|which|while|and then)\s+")
_LABEL = re.compile(rf"^(?P<attr>[A-Z][a-z]+(?: [a-z]+){{0,2}}) for (?P<subj>{_NAME}): (?P<value>.+)$")
_LABEL_PREFIX = re.compile(r"^[A-Z][a-z]+(?: [a-z]+)?: ")
_MY = re.compile(
    r"\b[Mm]y (?P<attr>(?:[A-Za-z][a-z]+ ){0,2}[a-z]+) "
    r"(?:is now|is|are|was|were|has been|will be|changed to|moved to) (?P<value>.+)"
)
_POSSESSIVE = re.compile(
    rf"(?<![A-Za-z])(?P<subj>{_NAME})'s (?P<attr>(?:[A-Za-z][a-z]+ ){{0,2}}[a-z]+) "
    r"(?:is now|is|are|was|were|has been|will be|changed to|came to|goes up to|moved to) (?P<value>.+)"
)
_THE = re.compile(
    r"^(?:[Tt]he|[Oo]ur) (?P<subj>[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?P<attr>[a-z]+(?: [a-z]+)?)"
    r"(?: with [^,;]+?)? (?:is now|is|are|was|were|slipped to|moved to|costs|came to|goes up to"
    r"|finishes|starts|shows) (?P<value>.+)"
)
_VERBS: tuple[tuple[str, str], ...] = (
    (r"(?:is|am|are) allergic to", "allergy"),
    (r"(?:has|have) (?:an|a|another) (?:appointment|follow[- ]up|visit|check[- ]up)", "appointment"),
    (r"(?:has |have )?(?:moved to|relocated to|moved into)", "residence"),
    (r"(?:lives|live) (?:in|at|on)", "residence"),
    (r"(?:works|work|is working|am working) (?:at|for)", "workplace"),
    (r"(?:prefers|prefer)", "preference"),
    (r"(?:starts|start|started|will start|begins|begin)", "start"),
    (r"(?:is|am|are) (?:flying|travelling|traveling|driving|going) to", "travel"),
    (r"(?:takes|take|is taking|am taking)(?! over)", "takes"),
    (r"(?:got|received|scored)", "result"),
    (r"booked", "booking"),
    (r"(?:is|am|are) staying", "stay"),
    (r"(?:was|were) elected", "role"),
    (r"reported", "reported"),
    (r"(?:wants|want)", "wants"),
    (r"missed", "missed"),
    (r"lost", "lost"),
)
_VERB = re.compile(
    rf"^(?P<subj>{_NAME}|I|We|we) (?P<verb>{'|'.join(f'(?:{v})' for v, _ in _VERBS)})\b (?P<value>.+)"
)
_VERB_ATTRIBUTE = [(re.compile(rf"^(?:{v})$"), a) for v, a in _VERBS]
_DAY = (
    r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|today|tomorrow|tonight|next week"
    r"|the weekend|the end of the month|\d{1,2} (?:January|February|March|April|May|June|July|August"
    r"|September|October|November|December)|(?:January|February|March|April|May|June|July|August"
    r"|September|October|November|December) \d{1,2}|\d{4}-\d{2}-\d{2})"
)
_TIME = r"(?:\d{1,2}:\d{2}(?: ?[ap]m)?|\d{1,2} ?[ap]m|noon|lunchtime)"
_EVENT = re.compile(
    r"\b(?P<event>appointment|follow[- ]up|check[- ]up|recheck|visit|meeting|kickoff|demo|exam|interview"
    r"|workshop|pickup|dressing change|surgery|scan)\b"
)
_WHEN = re.compile(rf"\b(?:on|at|for|by|to) (?:{_DAY}|{_TIME})\b.*")
_CODE = re.compile(
    r"\b(?P<attr>(?:[a-z]+ ){0,2}(?:code|pin|PIN|password|passcode|confirmation|voucher|number"
    r"|reference|account))(?: (?:is|was|of|number))?:? (?P<value>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,})\b"
)
_DIGIT = re.compile(r"\d")
_PARTNER = re.compile(rf"\bwith (?P<who>{_NAME})")
_NAME_IN = re.compile(rf"(?<![A-Za-z])(?<!with )(?<!Dr\. )(?<!Dr )(?P<name>{_NAME})")


def _is_name(subject: str) -> bool:
    first = subject.split(" ", 1)[0].rstrip(".")
    return subject not in _NOT_NAMES and first not in _NOT_NAMES


def _clean_value(value: str, max_words: int = 14) -> str:
    value = value.strip().rstrip(".,;:!?").strip()
    words = value.split()
    if len(words) > max_words:
        value = " ".join(words[:max_words]) + "…"
    return value


def _clean_attribute(attribute: str) -> str:
    attribute = re.sub(r"\s+", " ", attribute.strip().lower())
    return re.sub(r"^(?:(?:the|a|an|my|our|your|his|her|their) )+", "", attribute)


class RuleFactExtractor:
    """(subject, attribute, value) facts from sentence patterns, no model needed.

    Patterns, tried on each clause (sentences cut at ";" and ", but ..."):
    "Lab result for X: V" (a record's label), "my A is V" (the speaker's),
    "X's A is V", "the X A is V" (a project's release, ...), "X moved to /
    is allergic to / starts / prefers / takes ... V" (the verb names the
    attribute), an appointment or meeting with a day or time ("X ... follow up
    on Thursday at 9:45"), and codes and numbers ("gate code 4417",
    "confirmation LR-5531"). First person resolves to the speaker. One fact per
    (subject, attribute) per text: the last one stated.
    """

    name = "rules"

    def extract(
        self, speaker: str, text: str, timestamp: str | None, sources: Sequence[int]
    ) -> list[ExtractedFact]:
        found: dict[tuple[str, str], ExtractedFact] = {}

        def add(subject: str, attribute: str, value: str) -> None:
            subject = speaker if subject in _FIRST_PERSON_SUBJECTS else subject.strip()
            attribute, value = _clean_attribute(attribute), _clean_value(value)
            if subject and attribute and value:
                key = (subject.lower(), attribute)
                found.pop(key, None)
                found[key] = ExtractedFact(subject, attribute, value)

        for sentence in sentences(text):
            if sentence.endswith("?"):
                continue  # a question states nothing
            for clause in _CLAUSE_END.split(sentence):
                self._clause(_OPENER.sub("", clause.strip()), add)
        return list(found.values())

    def _clause(self, clause: str, emit: Callable[[str, str, str], None]) -> None:
        said: list[str] = []

        def add(subject: str, attribute: str, value: str) -> None:
            said.append(attribute)
            emit(subject, attribute, value)

        if ": " in clause:
            label = _LABEL.match(clause)
            if label and _is_name(label["subj"]):
                add(label["subj"], label["attr"], label["value"])
                return
            clause = _LABEL_PREFIX.sub("", clause)
        if "my " in clause or "My " in clause:
            for match in _MY.finditer(clause):
                add("I", match["attr"], match["value"])
        if "'s " in clause:
            for match in _POSSESSIVE.finditer(clause):
                if _is_name(match["subj"]):
                    add(match["subj"], match["attr"], match["value"])
        the = _THE.match(clause)
        if the and _is_name(the["subj"]):
            add(the["subj"], the["attr"], the["value"])
        verb = _VERB.match(clause)
        if verb and (verb["subj"] in _FIRST_PERSON_SUBJECTS or _is_name(verb["subj"])):
            attribute = next(a for pattern, a in _VERB_ATTRIBUTE if pattern.match(verb["verb"]))
            if attribute != "appointment":
                add(verb["subj"], attribute, verb["value"])
        event = _EVENT.search(clause)
        when = _WHEN.search(clause, event.end()) if event else None
        codes = list(_CODE.finditer(clause)) if _DIGIT.search(clause) else []
        if not (when or codes):
            return
        named = (m["name"] for m in _NAME_IN.finditer(clause) if _is_name(m["name"]))
        subject_here = next(named, "I")  # the first person named, else the speaker
        if event and when and not any(event["event"] in attribute for attribute in said):
            partner = _PARTNER.search(clause, event.end(), when.start() + 1)
            value = (f"with {partner['who']} " if partner else "") + when.group(0)
            add(subject_here, event["event"].replace(" ", "-"), value)
        for match in codes:
            add(subject_here, match["attr"], match["value"])
