"""Grants ended in words: "Consent change: family logistics access for Nina Reed is revoked".

A grant said in conversation ("Nina Reed may receive scheduling and transportation
logistics through Monday only") is a statement like any other, and stays current after
the access it gives has ended unless something says so. Access control already follows
the ending (:mod:`govmem.governance.access_changes` closes the relationships), but the
grant's sentence would still reach an answering model as current: the failure the
revocation study measures. Here a sentence ending someone's access supersedes the
earlier sentences that give that person access, when:

- the ending says access has ended now: not under a condition, as a plan, a claim or
  a report of an error, nor reinstated ("if", "will", "claims", "in error", "restored");
- it names whose access it is, as the owner of the access word ("Daniel's
  ride-and-scheduling access is revoked", "Revoking Leo's temporary logs-only access";
  not "At Nina's request, Daniel's access ...") or after "access for" ("family logistics
  access for Nina Reed is revoked"); "Marcus revoked family access" names the grantor
  and "Your access was revoked" no one, so neither supersedes anything;
- the earlier sentence asserts access to information for that person ("Nina Reed may
  receive ...", "Leo has temporary logs-only access through Friday"; not "may see Dr.
  Patel"), the person being the name said last before the words of access and said
  whole (not "Nina says Marcus may receive ..." for Nina, nor "Marcus Reed" for "Nina
  Reed", nor "Nina Reed's daughter"), and is neither negated nor an ending itself;
- the two share the word of which access it is (the one before the access word of the
  ending: "family logistics access" and "may receive ... logistics"), unless the ending
  takes all of it ("revoke Sofia's access entirely");
- it was said before the ending.

A sentence is superseded whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from govmem.governance.access_changes import endings_in
from govmem.governance.labeling import sentence_spans
from govmem.governance.revocation.claims import _asserts
from govmem.governance.revocation.statements import FUNCTION_WORDS, MONTHS, WEEKDAYS, stem, words_of

_NAME = r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?"
_NAMES = rf"{_NAME}(?:(?:,\s*|,?\s+and\s+){_NAME})*"
_ACCESS_WORD = r"(?i:access|permission|consent|release)"
_GRANTEE = re.compile(
    # the possessive directly governing the access word: no other possessive, no punctuation between
    rf"\b(?P<owner>{_NAMES})['’]s\s+(?:(?![\w-]*['’]s\b)[\w-]+\s+){{0,4}}?{_ACCESS_WORD}\b"
    rf"|\b{_ACCESS_WORD}\s+for\s+(?P<for>{_NAMES})\b(?!['’]s|\s+[A-Z][a-z]+['’]s)"
)
_NOT_CURRENT_ANYWHERE = re.compile(
    r"\b(?:if|unless|whether|in\s+error|by\s+mistake|restored|reinstated|re-?granted|re-?enabled)\b", re.I
)
_NOT_CURRENT_BEFORE = re.compile(
    r"\b(?:will|would|should|shall|plan(?:s|ned)?\s+to|going\s+to|about\s+to|claims?|claimed|alleged(?:ly)?|"
    r"after|when|before|until|once|asked|requested|wants?|wanted|\w+n['’]t)\b",
    re.I,
)
_TITLES = frozenset({"Dr", "Mr", "Mrs", "Ms", "Miss", "Prof"})
_GRANT = re.compile(
    r"\b(?:may|can)\s+(?:still\s+|now\s+|also\s+)?(?:receive|see|view|get|hear|be\s+told|access)\b"
    r"|\b(?:is|are|remains?|stays?)\s+(?:still\s+|now\s+)?(?:allowed|authori[sz]ed|approved|cleared|permitted)\s+to\b"
    r"|\b(?:has|have|keeps?|holds?)\s+(?:[\w-]+\s+){0,4}?(?:access|permission|consent)\b"
    r"|\b(?:access|permission|consent|release)\b[^.;?!]{0,60}?\b(?:is|are|remains?|stays?)\s+"
    r"(?:still\s+|now\s+)?(?:active|granted|approved|valid|in\s+place)\b",
    re.I,
)
_DENIED = re.compile(
    r"\b(?:not|no|never|cannot|can['’]t|revok\w*|withdrawn|ended|ends|terminated|rescinded|expired|"
    r"removed|suspended|paused)\b",
    re.I,
)
_ALL = re.compile(
    r"\b(?:entirely|completely|fully|in\s+full|all\s+(?:of\s+)?(?:her|his|their\s+)?access)\b", re.I
)
_NOT_SCOPE = words_of(
    """access permission consent release revoke revoked revoking revokes withdrawn terminated rescinded
    ended ends end now today request requested patient resident effective per please yes change update
    updated documented logged note temporary may receive get see view hear told can has have"""
)
_WHEN = frozenset((*WEEKDAYS, *MONTHS, "morning", "afternoon", "evening", "night", "tonight", "tomorrow"))
_VERBS = frozenset({"revoke", "remove", "end", "cancel", "withdraw", "please", "also", "now"})
_CAPITAL = re.compile(r"\b[A-Z][a-z]+\b")
_NO_INFORMATION = re.compile(r"\s*(?:a\s+ride|the\s+kids|(?:Dr\.?\s+)?[A-Z][a-z]+\b(?!['’]s))")
"""After "may see", "can get": a person or a ride, no information ("may see Dr. Patel")."""
_NOT_NAMES = frozenset(w.capitalize() for w in (*MONTHS, *WEEKDAYS))

Finding = tuple[int, int, int, bool]


def endings_of(text: str) -> list[tuple[frozenset[str], frozenset[str] | None]]:
    """(names whose access ends, stems saying which access: None for all of it) for each
    sentence of ``text`` ending named access: "family logistics access for Nina Reed is
    revoked" ends her family logistics access, "revoke Sofia's access entirely" all of it."""
    found = []
    for ending in endings_in(text):
        if _NOT_CURRENT_ANYWHERE.search(ending.sentence) or _NOT_CURRENT_BEFORE.search(ending.named):
            continue  # a condition, plan, report, error or reinstatement: access has not (still) ended
        names = set()
        for match in _GRANTEE.finditer(ending.named):
            group = match.group("owner") or match.group("for")
            for name in re.split(r",\s*(?:and\s+)?|\s+and\s+", group):
                first, _, rest = name.partition(" ")
                low = first.lower()
                if rest and (
                    low.endswith(("ing", "ed"))
                    or low in _VERBS
                    or low in _NOT_SCOPE
                    or low in FUNCTION_WORDS
                    or low in _WHEN
                ):
                    name = rest  # "Revoking Leo's ...", "Today Sofia's ...": no name
                names.add(name)
        if not names:
            continue
        said = {stem(w.lower()) for name in names for w in name.split()}
        scope = None if _ALL.search(ending.sentence) else _head(ending.named) - said
        found.append((frozenset(names), scope or None))
    return found


def ended_grantees(text: str) -> frozenset[str]:
    """The names whose access a turn ends, as they are said ("Nina Reed", "Daniel")."""
    return frozenset(name for names, _ in endings_of(text) for name in names)


def access_findings(
    new_key: int,
    new_text: str,
    new_time: str | None,
    earlier: Sequence[tuple[int, str | None, str]],
    is_open: Callable[[int, int], bool],
) -> list[Finding]:
    """(old turn key, start, end, whole) of the earlier sentences giving access to someone
    whose access ``new_text`` ends; ``earlier`` holds (key, time, text) of the records before it."""
    found: dict[tuple[int, int], Finding] = {}
    for names, scope in endings_of(new_text):
        words = {word for name in names for word in name.split()}
        for key, time, text in earlier:
            if key == new_key or (time and new_time and time > new_time):
                continue
            if not words & set(_CAPITAL.findall(text)):
                continue
            for start, end in sentence_spans(text):
                sentence = text[start:end]
                if (
                    (key, start) not in found
                    and is_open(key, start)
                    and _grants(sentence, names)
                    and (scope is None or scope & _scope(sentence))
                ):
                    found[(key, start)] = (key, start, end, True)
    return list(found.values())


def _head(named: str) -> frozenset[str]:
    """Which access an ending names: the word just before the access word ("family
    logistics access": logistics; "key-card access": key, card), else the words after it."""
    m = re.search(r"(?P<pre>[\w-]+)\s+(?i:access|permission|consent|release)\b(?P<post>.*)", named)
    if m is None:
        return _scope(named)
    pre = frozenset(stem(w) for w in m.group("pre").lower().split("-")) & _scope(
        m.group("pre").replace("-", " ")
    )
    return pre or _scope(m.group("post"))


def _scope(text: str) -> frozenset[str]:
    """The stems of ``text`` that may say which access it is ("family", "logistics")."""
    return frozenset(
        stem(w)
        for w in re.findall(r"[a-z]+", text.lower())
        if len(w) > 2 and w not in FUNCTION_WORDS and w not in _NOT_SCOPE and w not in _WHEN
    )


def _same_person(held: list[str], names: frozenset[str]) -> bool:
    """Whether the name a grant is said of (its words, titles dropped) is one whose access
    ended: the one is the other's start ("Nina" and "Nina Reed"), or the ending gave one
    word that ends it ("Joe's" and "Grandpa Joe"); never a shared family name alone ("Marcus
    Reed" is not "Nina Reed", "Dr. Chen" not "Mia Chen")."""
    for name in names:
        said = [w for w in name.split() if w not in _TITLES]
        if not held or not said:
            continue
        n = min(len(held), len(said))
        if held[:n] == said[:n] or (len(said) == 1 and held[-1] == said[0]):
            return True
    return False


def _grants(sentence: str, names: frozenset[str]) -> bool:
    """Whether ``sentence`` asserts access for one of ``names``: the name said last before
    the words of access (or in them), said whole ("Marcus Reed", "Dr. Chen"), and not as
    someone else's owner ("Nina Reed's daughter may receive ...")."""
    if not _asserts(sentence) or _DENIED.search(sentence) or endings_in(sentence):
        return False
    grant = _GRANT.search(sentence)
    if grant is None or (
        grant.group(0).lower().endswith(("see", "hear", "get"))
        and _NO_INFORMATION.match(sentence, grant.end())
    ):
        return False
    named_inside = any(w not in _NOT_NAMES for w in _CAPITAL.findall(grant.group(0)))
    caps = [m for m in _CAPITAL.finditer(sentence, 0, grant.end() if named_inside else grant.start())]
    caps = [m for m in caps if m.group(0) not in _NOT_NAMES]
    if not caps or re.match(r"['’]s\b", sentence[caps[-1].end() :]):
        return False
    run, at = [caps[-1].group(0)], caps[-1].start()
    while before := re.search(r"\b([A-Z][a-z]+)\.?\s+$", sentence[:at]):  # the whole name said
        run.insert(0, before.group(1))
        at = before.start()
    return _same_person([w for w in run if w not in _TITLES], names)
