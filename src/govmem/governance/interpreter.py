"""Interpreters: governance events read from what people say.

Permissions and deletions often exist only as conversation ("Delete the older
guest PIN from memory. The prior value 6714 should be treated as deleted"). An
interpreter turns such a turn into structured events; enforcement then reads
the events, never the prose. This module holds the offline rule interpreter for
deletion requests: deterministic, English, driven by the shape of a request
rather than by any particular episode.

A request is a sentence with a deletion verb and a memory cue ("from active
memory", "treated as deleted", "should not be recoverable"), not framed as a
plan ("prepare to remove"). Its items are what the sentence and the turn's
"treated as deleted" sentences name: quoted text, values (tokens with digits:
phone numbers, codes, amounts, "room 12"), the words after a naming noun ("the
phrase library lion", "the alias Mara", "location note blue planter under the
west bench"), and place-like names listed as objects of the verb ("Delete River
House, 415-555-0141"). Anything the turn says to keep ("Keep only the current
room TC-212") is taken out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from govmem.governance.erasure import DELETION_CUES, MIN_ITEM_CHARS, tokens
from govmem.governance.labeling import sentence_spans
from govmem.governance.prefilter import contains_any
from govmem.models import Turn

_ACTIVE = r"\b(?:delete|deleting|remove|removing|erase|erasing|forget|purge|scrub|wipe)\b"
_PASSIVE = re.compile(
    r"\b(?:is|are|was|were|been)\s+(?:now\s+)?(?:deleted|removed|erased|purged|wiped)\b", re.I
)
_VERB = re.compile(rf"{_ACTIVE}|{_PASSIVE.pattern}", re.I)
_REMAINS = re.compile(r"\b(?:remains?|stays?|only|active|current)\b", re.I)
"""A deletion verb: asked for ("please delete") or reported ("3,900 USD is deleted from memory")."""
_MEMORY = re.compile(
    r"\bfrom (?:[\w-]+ ){0,3}memory\b"
    r"|\bfrom the (?:active|working|current|retained|private|case)(?: [\w-]+){0,2} (?:record|file)\b"
    r"|\bmemory\b.{0,40}\b(?:delete|remove|erase)"
    r"|\b(?:treated|marked) as (?:deleted|unavailable)\b|\b(?:remain|stays?|is|are) deleted\b"
    r"|\bshould (?:no longer|not) be (?:\w+ ){0,2}(?:retrievable|recoverable|restored|confirmable|available)",
    re.I,
)
_IMPERATIVE = re.compile(
    r"^\W*(?:[\w -]{1,30}:\s*)?(?:(?:please|also|now|so|and)\s+)*(?:delete|erase|purge|wipe)\b"
    r"|^\W*[\w -]{0,20}\b(?:clean-?up|deletion|memory|forgetting)\b[\w -]{0,20}:\s*"
    r"(?:(?:please|also|now|so|and)\s+)*(?:remove|forget|drop|clear)\b"
    r"|\b(?:request(?:ing)?|ask(?:ing)? for)\s+(?:the\s+)?(?:deletion|removal|erasure)\s+of\b",
    re.I,
)
"""A request in the imperative ("Cleanup instruction: delete ...", and "remove" after a
label about cleaning up memory: "Cleanup instruction: remove ..."; not a bare "Remove the
rug") or by name ("I request deletion of")."""
_PLAN = re.compile(
    r"\b(?:prepare|preparing|plan|planning|going|ready) to (?:\w+ )?(?:delete|remove|erase)\b", re.I
)
_GONE = re.compile(r"\bno longer (?:part of|in) (?:the )?(?:[\w-]+ ){0,2}memory\b", re.I)
"""A reported deletion without a deletion verb ("CR-8804 is no longer part of active memory")."""
_DELETED = re.compile(
    r"\b(?:treated|marked) as (?:deleted|unavailable)\b|\bshould (?:no longer|not) be (?:\w+ ){0,2}"
    r"(?:retrievable|recoverable|restored|confirmable|available)",
    re.I,
)
_KEEP = re.compile(
    r"\b(?:keep|keeping|retain|retaining|use only|only use|should use only|active|current|newer|now)\b", re.I
)
_QUOTED = re.compile(r"(?:(?<=[\s(:])|^)['‘\"“](.{3,120}?)['’\"”](?=[\s.,;:!?)]|$)")
_VALUE = re.compile(r"\w+(?:[-.,:'’/]\w+)*")
_NAMING = re.compile(
    r"\b(?:phrase|wording|label|alias|name|location note|location|note|value|mapping|point|spot|fallback)\s+"
    r"((?:(?!(?:from|should|and|it|is|are|was|were|has|have|been|which|that|in|to|as|with|for|too|also|now|again)\b)"
    r"[\w’'-]+\s*){1,10})",
    re.I,
)
_OBJECT_FROM_MEMORY = re.compile(
    r"\b(?i:delete|remove|erase|purge|wipe|scrub|forget)\s+(?:the\s+)?"
    r"((?:(?!(?:that|this|it|them|those|these|all|any|every|from)\b)[a-z][a-z’'-]*\s+){2,6}?)"
    r"from\s+(?:[\w-]+\s+){0,3}(?i:memory)\b",
)
"""The plain lower-case words a deletion verb takes before "from ... memory"."""
_GENERIC_WORDS = frozenset(
    re.findall(
        r"\w+",
        """old older earlier previous prior former temporary stale retired outdated deleted current new
        note notes code codes pin pins phrase phrases value values entry entries detail details line
        lines number numbers record records information info reference references mention mentions
        item items one ones version versions data text message messages reminder draft wording label
        my our your his her their the a an of and""",
    )
)
_ENDS_DESCRIBED = re.compile(
    r"\b(?:spot|point|fallback|plan|code|number|pin|time|contact|line|phrase|name|address)s?$", re.I
)
_PLACE_WORDS = re.compile(
    r"^(?:(?:under|behind|beside|near|inside|outside|across|beneath|below|above|at|by|on|in|the|a)\s+)+", re.I
)
"""Words before a place that a location names ("location under the gray planter")."""
_STASHED = re.compile(r"\b(?i:overflow|exact|hiding|hidden|secret|stash)\s+(?:[A-Z][a-z]+\s+)?$")
"""Before "point", "spot", "fallback": a place something is put ("overflow point", "exact
Monday point", "hiding spot"), not a place people meet ("meeting point", "pickup spot")."""
_NOT_A_VALUE = frozenset(
    re.findall(
        r"\w+",
        """anything everything nothing something else both each either all last next this that right away
        and or week month year night today tonight yesterday tomorrow copies copy duplicate duplicates""",
    )
)
"""Words that make two plain words no value of their own."""
_CLAUSE_OPENING = re.compile(r"(?:we|i|you|they|he|she|that|which|who|when|where|if)\b", re.I)
"""A naming phrase opening a clause ("the secret fallback we set up last month") names no place."""
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)", re.I)
_POSSESSIVE_END = re.compile(r"['’]s?$")
_TOPIC = re.compile(r"(?:about|on|regarding|of|for|concerning)\b", re.I)
"""A naming noun followed by a topic ("the note about my sessions") names no value."""
_CAPITALIZED = re.compile(r"(?<![\w-])([A-Z][a-z][\w’'-]*(?:\s+[A-Z][\w’'-]*){0,4})\b")
_LISTED_AFTER = re.compile(r"^\s*(?:,|\band\b|\bfrom\b|$|\.|;)")
_PLACE_HEAD = re.compile(
    r"^\s+(?:backup |callback |contact |desk |evening |daytime |front )*(?:desk|contact|callback|line|number|"
    r"address|site|location|house|shelter)\b",
    re.I,
)
KIND_WORDS = re.compile(
    r"\b(pin|code|phrase|label|number|amount|contact|location|token|mapping|wording|address|alias|name|"
    r"line|room|seat|identifier|time|entrance)s?\b",
    re.I,
)
_SECRET_KINDS = frozenset({"phrase", "wording", "alias", "label", "token", "mapping"})
_FUNCTION_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "at",
        "on",
        "in",
        "by",
        "for",
        "and",
        "or",
        "all",
        "any",
        "these",
        "those",
        "its",
        "their",
        "my",
        "our",
        "your",
        "his",
        "her",
    ]
)
"""Words that do not make a short number an item ("the 2 photos" names no value)."""
_HONORIFICS = frozenset({"mr", "mrs", "ms", "mx", "dr", "miss", "prof"})
_SKIP_WORDS = (
    frozenset({"delete", "remove", "erase", "please", "the", "deletion", "shared", "security", "i"})
    | _HONORIFICS
)


@dataclass(frozen=True)
class DeletionRequest:
    """Someone asked that these items be forgotten (what sort of things they are: ``kinds``)."""

    requested_by: str
    items: tuple[str, ...]
    kinds: tuple[str, ...]


class Interpreter(Protocol):
    def interpret(self, turn: Turn) -> list[DeletionRequest]:
        """The governance events a turn expresses (none for most turns)."""
        ...


class RuleInterpreter:
    """Deletion requests by rule (the offline default)."""

    def interpret(self, turn: Turn) -> list[DeletionRequest]:
        text = turn.text
        if not contains_any(text.lower(), DELETION_CUES):  # most turns: settled by a few substring tests
            return []
        if not (
            _VERB.search(text) or _DELETED.search(text) or _GONE.search(text) or _IMPERATIVE.search(text)
        ):
            return []
        sentences = [text[s:e] for s, e in sentence_spans(text)]
        requests = [s for s in sentences if _is_request(s)]
        if not requests:
            return []
        named = [s for s in sentences if s in requests or _DELETED.search(s)]
        items: list[str] = []
        kinds: set[str] = set()
        for sentence in named:
            kinds.update(k.lower() for k in KIND_WORDS.findall(_before_keep(sentence)))
        for at, sentence in enumerate(sentences):
            if sentence in named:
                plain_words = 2 if _names_a_secret(sentences, at) else 3
                current = {_key(i) for i in _current_in_reason(sentence)}  # its own sentence only
                found = _items_of(_reported_part(sentence), plain_words=plain_words)
                items.extend(i for i in found if _key(i) not in current)
        kept = {
            _key(i)
            for s in sentences
            if s not in named
            for i in _items_of(_before_not_kept(s), everything=True)
        }
        kept |= {_key(i) for s in named for i in _kept_in(s)}
        unique: dict[str, str] = {}
        for item in items:
            key = _key(item)
            if len(key) >= MIN_ITEM_CHARS and key not in kept:
                unique.setdefault(key, item)

        if not unique:
            return []
        return [DeletionRequest(turn.speaker, tuple(unique.values()), tuple(sorted(kinds)))]


def _names_a_secret(sentences: list[str], at: int) -> bool:
    """Whether a request may name its item in two plain words: it opens on its verb
    ("Remove rowan ash from active memory"; not "Don't remove swim lessons", "Did you
    remove ...?") and it or the sentence before calls what is deleted a phrase, wording,
    alias, label, token or mapping ("Delete that temporary backup phrase now.")."""
    sentence = sentences[at]
    if not _OPENS_ON_VERB.match(sentence) or sentence.rstrip().endswith("?"):
        return False
    said = " ".join(sentences[max(0, at - 1) : at + 1])
    return any(k.lower() in _SECRET_KINDS for k in KIND_WORDS.findall(said))


_OPENS_ON_VERB = re.compile(rf"^\W*(?:(?:please|also|now|then|and)\s+)*{_ACTIVE}", re.I)


def _reported_part(sentence: str) -> str:
    """What a reported deletion names: its subject ("the earlier code X is deleted, the
    active PIN remains Y" names X, never Y); a request is read whole."""
    passive = _PASSIVE.search(sentence) or _GONE.search(sentence)
    if passive is None or re.search(_ACTIVE, sentence[: passive.start()], re.I):
        return sentence
    clauses = re.split(r"(?<=[,;:])\s+", sentence[: passive.end()])
    return " ".join(c for c in clauses[:-1] if not _REMAINS.search(c)) + " " + clauses[-1]


def _key(item: str) -> str:
    return " ".join(tokens(item))


def _is_request(sentence: str) -> bool:
    if _PLAN.search(sentence):
        return False
    return bool(
        _IMPERATIVE.search(sentence)
        or _GONE.search(sentence)
        or (_VERB.search(sentence) and _MEMORY.search(sentence))
    )


_TURN_TO_KEEP = re.compile(
    r"[;:,.]?\s*\b(?<!not )(?<!never )"
    r"(?:keep|retain|future answers|the active|the current|may still (?:say|use)|now that)\b"
    r"|[;,]\s*(?:and\s+|while\s+)?only\b|\band\s+(?:use|add|switch\s+to)\b",
    re.I,
)


_LEAD_KEEP = re.compile(r"^\W*(?:keep|retain|now that)\b", re.I)


def _lead(sentence: str) -> int:
    """Where the request starts in a sentence that opens with what to keep ("Keep 5521 and
    delete 4158", "Now that Priya has 5521, delete 4158"): at its deletion verb."""
    if _LEAD_KEEP.match(sentence):
        verb = re.search(_ACTIVE, sentence, re.I)
        if verb:
            return verb.start()
    return 0


def _turn_to_keep(sentence: str) -> re.Match[str] | None:
    """Where a sentence turns to what to keep, if it does after its first word: not at a
    deletion verb's object ("Delete the current exact minute 6:10 PM" deletes it)."""
    lead = _lead(sentence)
    skipped = None
    for cut in _TURN_TO_KEEP.finditer(sentence):
        if cut.start() <= lead:
            continue
        if not _AFTER_VERB.search(sentence, 0, cut.start()):
            return cut
        skipped = skipped or cut
    if skipped is not None:  # "Remove the current alarm code 4158 from memory, it changed to 9921"
        return _NEXT_CLAUSE.search(sentence, skipped.end())
    return None


_NEXT_CLAUSE = re.compile(
    r";\s|,\s+(?!and\b|or\b)(?=(?:it|the|she|he|they|we|this|that|[a-z]+\s+(?:now|is|are|was|changed|moved|switched))\b)",
    re.I,
)
"""Where a request that deletes "the current" one goes on to another clause ("..., it
changed to 9921", "..., the front desk now uses IC-5580"), not the next item of its list."""


_AFTER_VERB = re.compile(rf"{_ACTIVE}\s*$", re.I)


def _before_keep(sentence: str) -> str:
    """The part of a sentence before it turns to what to keep ("...; keep only X")."""
    cut, lead = _turn_to_keep(sentence), _lead(sentence)
    return sentence[lead : cut.start()] if cut else sentence[lead:]


def _kept_in(sentence: str) -> list[str]:
    """What a request sentence says stays, after it turns to what to keep ("...; keep only
    5521")."""
    cut, lead = _turn_to_keep(sentence), _lead(sentence)
    kept = _items_of(sentence[cut.start() :], everything=True) if cut else []
    if lead:  # "Keep Ms. Ortiz as a pickup contact and remove Mr. Ortiz", "Now that Lena Park started, ..."
        kept += [w for w in _CAPITAL_WORD.findall(sentence[:lead]) if w.lower() not in _NO_NAMES]
    if lead and not sentence.lstrip(" \"'").lower().startswith("now that"):
        kept += _items_of(sentence[:lead], everything=True)  # "Keep 5521 and delete 4158"
    return kept


_REASON = re.compile(r"\b(?:because|since)\b(?=[^;]*$)", re.I)
_SAYS_CURRENT = re.compile(
    r"\b(?:is|are)\s+(?:now\s+)?(?:(?:the|my|our|his|her|their)\s+)?"
    r"(?:current|active|new|one to call|one we use)\b"
    r"|\b(?:is|are)\s+(?:what|where|the one)\b[^.;]*\b(?:uses?|now)\b|\b(?:replaced|replaces) (?:it|them)\b"
    r"|\b(?:switched|moved|changed) (?:it |them )?to\b|\bwe (?:use|have|keep)\b[^.;]*\bnow\b|\bis active\b",
    re.I,
)
_NO_MORE = re.compile(r"\s+(?:no\s+more|no\s+longer|any\s*more)\b", re.I)
_REASON_CLAUSE = re.compile(r",|;|\band\b|\bbut\b|\bwhile\b", re.I)
_MORE_TO_DELETE = re.compile(rf"{_ACTIVE}|\b(?:too|as well|also|must go)\b", re.I)


def _current_in_reason(sentence: str) -> list[str]:
    """The items a request's reason names as current: "Delete the old code 4158 from memory
    because the new code 5521 is active" keeps 5521; "since 5521 is what the sitter uses",
    "since the clinic switched to 617-555-0110" too. Only a reason after the request's
    own verb and items, outside quotes, saying what is current and asking no deletion of
    its own ("because 7781 is what my ex remembers", "since Monday", "since 7781 was on the
    same note, delete it too" keep nothing); never an item the request names before it."""
    verb = _VERB.search(sentence)
    reason = _REASON.search(sentence, verb.end()) if verb else None
    if reason is None or _inside_quotes(sentence, reason.start()):
        return []
    said, before = sentence[reason.start() :], sentence[: reason.start()]
    current = _SAYS_CURRENT.search(said)
    if current is None or _MORE_TO_DELETE.search(said) or _NO_MORE.match(said, current.end()):
        return []  # not current, more to delete, or "is active no more"
    asked = {_key(i) for i in _items_of(before, everything=True)}
    if not asked:
        return []  # "Delete the garage code from memory because 7781 is ...": the reason holds the item
    # only the clause saying so: "because 7730 is old and 5521 is current" keeps 5521
    starts = [m.end() for m in _REASON_CLAUSE.finditer(said, 0, current.start())]
    stop = _REASON_CLAUSE.search(said, current.end())
    clause = said[starts[-1] if starts else 0 : stop.start() if stop else len(said)]
    return [i for i in _items_of(clause, everything=True) if _key(i) not in asked]


def _inside_quotes(sentence: str, at: int) -> bool:
    return any(m.start() < at < m.end() for m in _QUOTED.finditer(sentence))


_CAPITAL_WORD = re.compile(r"\b[A-Z][a-z]+\b")
_NO_NAMES = _HONORIFICS | {"keep", "retain", "now"}  # "Keep Mr. Chen ...": neither is a name


_NOT_KEPT = re.compile(
    r"(?:^|(?<=[.!?])\s)\W*(?:[\w -]{1,30}:\s*)?(?:please\s+)?"
    r"(?:do\s+not|don['’]t|never)\s+(?:retain|keep|store|remember)\b",
    re.I,
)


def _before_not_kept(sentence: str) -> str:
    """A sentence without the clause it opens on to say what not to keep: "Do not retain
    4158 in future answers" keeps nothing of 4158 (so the request's 4158 stays an item);
    "Don't keep 4158 around anymore because 5521 is what the sitter uses" keeps 5521. Not
    "I don't remember whether ...", which is no instruction."""
    cut = _NOT_KEPT.search(sentence)
    if cut is None:
        return sentence
    end = _CLAUSE_BREAK.search(sentence, cut.end())
    return sentence[: cut.start()] + (sentence[end.start() :] if end else "")


_CLAUSE_BREAK = re.compile(
    r"[,;—–]|\s-\s|\b(?:but|so|because|since|while|as|now\s+that|and\s+(?:keep|retain))\b", re.I
)


def _items_of(sentence: str, everything: bool = False, plain_words: int = 3) -> list[str]:
    """The quoted text, values, named phrases and listed place names of a sentence, or
    else its plain objects of at least ``plain_words`` words (:func:`_plain_objects`).

    ``everything`` reads the whole sentence (to find what a sentence keeps);
    otherwise only the part before it turns to what to keep.
    """
    part = sentence if everything else _before_keep(sentence)
    if (
        not everything
        and _KEEP.search(part)
        and not (_VERB.search(part) or _DELETED.search(part) or _GONE.search(part))
    ):
        return []
    found = [m.group(1) for m in _QUOTED.finditer(part)]
    # A quoted mapping ("Project X = Customer Y"): what it maps to is a secret on its own.
    found += [q.split("=", 1)[1].strip() for q in found if q.count("=") == 1]
    words = _VALUE.findall(_QUOTED.sub(" ", part))  # "March 20" inside a quote is not an item of its own
    for index, word in enumerate(words):
        if any(c.isdigit() for c in word):
            if _ORDINAL.fullmatch(word):
                continue  # "4th", "21st": a floor, a grade, a date, no value of its own
            if len(word) >= MIN_ITEM_CHARS:
                found.append(word)
            elif index > 0 and words[index - 1].lower() not in _FUNCTION_WORDS | _SKIP_WORDS:
                found.append(f"{words[index - 1]} {word}")  # "room 12", "seat B7"; not "delete 14"
    for match in _NAMING.finditer(part):
        said = match.group(1).strip(" ,.;")
        phrase = _PLACE_WORDS.sub("", said)
        new_noun = match.group(0).split()[0].lower() in {"point", "spot", "fallback"}
        if new_noun and (not _STASHED.search(part, 0, match.start()) or _CLAUSE_OPENING.match(said)):
            continue  # "the meeting point at the back entrance", "the fallback we set up last month"
        if (new_noun or phrase != said) and (
            len(phrase.split()) < 4 or _ENDS_DESCRIBED.search(phrase)
        ):  # "pickup spot near the school gate", "fallback door code": a common place or a description
            if new_noun:
                continue
            phrase = said  # "location under the kitchen sink": as before
        stripped_long = phrase != said and len(phrase.split()) >= 4
        if (
            phrase
            and (" " in phrase or not phrase.islower())  # "the wording side:" names nothing
            and (not any(c.isdigit() for c in phrase) or stripped_long)  # "gray planter by the 3B stair rail"
            and phrase[0] not in "'‘\"“"
            and not _TOPIC.match(phrase)
        ):
            found.append(phrase)
    verb = _VERB.search(part)
    if verb:
        after = part[verb.end() :]
        for match in _CAPITALIZED.finditer(after):
            name = match.group(1)
            if name.lower() in _SKIP_WORDS or len(name) < MIN_ITEM_CHARS or _POSSESSIVE_END.search(name):
                continue  # "Dr. Hall's number ...": an owner, not the item
            if re.search(r"\d\S*\s*$", after[: match.start()]):  # a unit after a value ("4,800 USD")
                continue
            rest = after[match.end() :]
            if _LISTED_AFTER.match(rest) or _PLACE_HEAD.match(rest):
                found.append(name)
    return found or _plain_objects(part, plain_words)


def _plain_objects(part: str, least: int = 3) -> list[str]:
    """What a request names in plain lower-case words when it names no value, name or
    quotation: "Remove entry coat closet upper rod from active memory" names the coat
    closet upper rod. At least ``least`` words beside the generic ones: "the old code"
    names nothing of its own, and "my old side door note" names too common a thing (every
    sentence holding an item is erased); two where the turn says what kind of thing it
    deletes ("Delete that temporary backup phrase now. Remove rowan ash from active
    memory.")."""
    found = []
    for match in _OBJECT_FROM_MEMORY.finditer(part):
        words = match.group(1).split()
        said = len(words)
        while words and words[0].lower() in _GENERIC_WORDS:
            words.pop(0)
        while words and words[-1].lower() in _GENERIC_WORDS:
            words.pop()
        if any(_TOPIC.fullmatch(w) for w in words):
            continue  # "the note about my counseling sessions" names a topic, not an item
        # two words only when they are the whole object: "the old side door code" describes
        # a code ("side door" would erase every sentence about the door), "rowan ash" is one
        needed = least if len(words) == said and not KIND_WORDS.fullmatch(words[-1]) else 3
        if needed < 3 and any(w.lower() in _NOT_A_VALUE or w.lower().endswith("ly") for w in words):
            continue  # "right away", "last week", "anything else", "both passwords"
        if len([w for w in words if w.lower() not in _GENERIC_WORDS]) >= needed:
            found.append(" ".join(words))
    return found


def interpret_all(interpreter: Interpreter, turns: Sequence[Turn]) -> list[tuple[int, DeletionRequest]]:
    """(index of the turn, request) for every request in ``turns``, in order."""
    return [(index, event) for index, turn in enumerate(turns) for event in interpreter.interpret(turn)]
