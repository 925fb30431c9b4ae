"""Supersession inside conversations: which claims of earlier turns a new turn's claims revise.

A new claim revises an earlier one (see :mod:`claims`) when

- the new claim **asserts** and says it **revises** (change wording in its sentence),
  and the earlier claim asserts too (a question or a condition states nothing to
  revise), from an earlier turn of the same episode (valid-from not later);
- both are **about the same thing**: the smaller anchor is contained in the other
  for at least ``ANCHOR_CONTAINMENT`` of its weight (stems weighted by their inverse
  frequency among the claims of the turns up to the new one, so "current" or "note"
  count little, and the outcome does not depend on how turns are batched; a long
  heading both share, "Final Saturday update before the next summary:", is left
  out; a sentence just before that says what changes lends its words, "The storage
  PIN also rotates. The current one is now 9136."), or both open on a record of the
  same name ("Current support note ...", "Current support summary ..."); they do not
  each name an entity the other does not ("Public Makers" names "Raven Makers"), nor
  name different weekday threads ("the Saturday setup" and "the Sunday signoff"), nor
  call it public and private, nor name different owners ("Elena's review date",
  "Marco's review date"; an owner one claim alone names is left out of the anchors when
  the other names no one else), their subjects (the labeller's principals of each span,
  when both have some) meet, a slot called "my" by one speaker is not revised by
  another speaker's "my" slot, and no other claim of the earlier record fits the new
  one better (the rheumatology item of a list of follow-ups, not the nephrology one);
- they state the **same attribute with another value**: the earlier claim states a
  value of it that the new claim does not state as current, the new claim states one
  the earlier does not (a recap of part changes nothing), times compare only within
  one role (unless the new claim names the earlier value as the one it replaces), and
  when the new claim names the values it replaces ("from Tuesday 10:00 to ..."), the
  earlier claim states one of those.

What is found is (earlier turn, claim span, new turn, reasons, whole); only the
earlier claim's span stops being current, so the rest of its turn is served as
before. The claim is superseded **whole** when it is a whole sentence and the new
claim restates every attribute it gives ("Tuesday at 10:00" by "moved to Thursday at
1:30"): reads cut it. When it is one item of a listing sentence, gives something
the new claim does not restate ("September 18 from 6:30 to 6:50 PM" by "the window is
now 6:40 to 7:00 PM": the date still holds) or lists items of words beside its values
("Friday 4:35 PM to 6:40 PM, side door keypad, kitchen"), reads keep it marked, so
returned text is always stored sentences, marked or not, and no old value is served
as current. A claim superseded once is superseded again only by a record of an earlier
time (a change told late whose time comes first: the store keeps the earliest end).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from govmem.governance.labeling import sentence_spans
from govmem.governance.revocation.claims import Claim, claims_of
from govmem.governance.revocation.phrase_supersession import (
    _weekdays,
    names_replaced_things,
    phrase_findings,
    replaced_things,
)
from govmem.governance.revocation.statements import AUDIENCE_WORDS, analyse, stem, unmatched_entities

ANCHOR_CONTAINMENT = 0.6
"""Share of the smaller claim's anchor stems that must occur in the other's."""
HEADING_FORM = 3
"""Content stems from which a heading both claims share is a form rather than a topic."""


@dataclass(frozen=True)
class ClaimRecord:
    """A source turn as claim detection needs it."""

    key: int
    valid_from: str | None
    text: str
    speaker: str | None = None


@dataclass(frozen=True)
class ClaimFinding:
    """The claim at ``start:end`` of turn ``older`` is superseded by turn ``newer``."""

    older: int
    start: int
    end: int
    newer: int
    reasons: tuple[str, ...]
    whole: bool = True


Subjects = Callable[[int, int, int], frozenset[str]]
"""(turn key, start, end) -> principals the span is about (empty when unknown)."""


PHRASE_REASONS = ("named-replaced-thing", "revision-wording")


def _no_subjects(key: int, start: int, end: int) -> frozenset[str]:
    return frozenset()


def revising_claims(text: str) -> list[Claim]:
    """The claims of ``text`` that could revise an earlier one."""
    return [c for c in claims_of(text) if c.asserts and c.revises and (c.values or c.replaced)]


def deciding_sentences(text: str) -> list[tuple[int, int]]:
    """The sentences of a turn that can decide it supersedes a statement: those holding a
    revising claim, a claim naming a value as the one replaced ("the earlier room was
    C-40"), or a thing named as replaced ("rather than the red Subaru"). A reader who may
    read all of them may be told that the turn changed something."""
    claims = [c for c in claims_of(text) if c.asserts and (c.replaced or (c.revises and c.values))]
    return [
        (a, b)
        for a, b in sentence_spans(text)
        if any(a < c.end and c.start < b for c in claims) or replaced_things(text[a:b])
    ]


def anchor_weights(claims: Sequence[Claim]) -> dict[str, float]:
    """Inverse document frequency of anchor stems over ``claims``: a word most claims of
    the conversation use ("current", "note") says less about what a value is of."""
    weights = AnchorWeights()
    weights.add(claims)
    return {term: weights.get(term) for term in weights.frequency}


class AnchorWeights:
    """Anchor weights over the claims counted so far; grown turn by turn, so a new turn is
    weighed against what was stored up to it, however turns are batched."""

    def __init__(self) -> None:
        self.frequency: Counter[str] = Counter()
        self.total = 0

    def add(self, claims: Sequence[Claim]) -> None:
        self.frequency.update(term for claim in claims for term in claim.anchor | claim.names)
        self.total += len(claims)

    def get(self, term: str, default: float | None = None) -> float:
        return math.log(1 + max(self.total, 1) / max(self.frequency.get(term, 0), 1))


Weights = Mapping[str, float] | AnchorWeights


def same_thing(old: Claim, new: Claim, weights: Weights | None = None) -> bool:
    """Whether two claims are about the same thing (see the module docstring)."""
    if _unnamed_by(old, new) and _unnamed_by(new, old):
        return False
    if old.threads and new.threads and not old.threads & new.threads:
        return False  # "the Saturday setup window" and "the Sunday signoff layer"
    if _opposed_audiences(old, new):
        return False  # "the public amount 3,405 USD" and "Current private amount is now 3,410 USD"
    weights = weights or {}

    def mass(terms: frozenset[str]) -> float:
        return sum(weights.get(t, 1.0) for t in terms)

    # "Current support note is now February 25, ..." and "Current support summary now uses ..."
    if old.record and old.record == new.record and not (old.owners ^ new.owners):
        return True
    mine, theirs = old.anchor, new.anchor  # names of people are not in anchors (subjects check them)
    if old.owners and new.owners and not old.owners & new.owners:
        return False  # "Elena's review date" and "Marco's review date"
    if bool(old.owners) != bool(new.owners):
        # whose it is, said by one claim only ("Elena's review date" after "the review date"),
        # while the other names no one else ("the warfarin for Grandpa", "Mia takes 5 mL",
        # "my husband's metoprolol" are someone else's)
        owned, other = (old, new) if old.owners else (new, old)
        hidden = other.kin or bool(other.capitals - owned.anchor)  # "Mia takes ...", "my husband's"
        if not hidden and not unmatched_entities(other.entities, owned.entities | owned.owners):
            mine, theirs = mine - (old.owners - theirs), theirs - (new.owners - mine)
    if (
        len(old.heading) >= HEADING_FORM
        and old.heading == new.heading
        and mine - old.heading
        and theirs - new.heading
    ):
        # the same long heading on both ("Final Saturday update before the next summary: ...")
        # is a form, not a subject: what follows it decides ("Finance revision: ..." names a topic)
        mine, theirs = mine - old.heading, theirs - new.heading
    # a sentence before saying what changes ("... review target has moved again. The active
    # review date is now ...") may say what the value is of, where the claim's words do not
    return any(
        _containment(one, other, weights) >= ANCHOR_CONTAINMENT
        for one, other in {(mine, theirs), (mine | old.introduced, theirs | new.introduced)}
    )


def _containment(one: frozenset[str], other: frozenset[str], weights: Weights) -> float:
    """How much of the smaller of two anchors the other holds, by weight (0 when it is empty)."""

    def mass(terms: frozenset[str]) -> float:
        return sum(weights.get(t, 1.0) for t in terms)

    small, large = (one, other) if mass(one) <= mass(other) else (other, one)
    return mass(small & large) / mass(small) if small else 0.0


def _unnamed_by(claim: Claim, other: Claim) -> frozenset[str]:
    """The entities of ``claim`` that ``other`` names neither as an entity nor as an owner:
    "Elena's file" and "Review update: Elena's private Orbit Review target" both name
    Elena (a possessive opening a sentence is an owner, not an entity)."""
    return frozenset(
        name
        for name in unmatched_entities(claim.entities, other.entities, (_sides(claim), _sides(other)))
        if not _opens(name, other.owners)
    )


def _sides(claim: Claim) -> frozenset[str]:
    """The words of which side of a thing is meant ("public", "private", "open") a claim uses."""
    return frozenset(w for w, st in _SIDE_STEMS if st in claim.anchor or st in claim.introduced)


_SIDE_STEMS = tuple((w, stem(w)) for w in sorted(AUDIENCE_WORDS))


def _opens(name: str, owners: frozenset[str]) -> bool:
    """Whether an owner (a stem) is the first word of ``name``: "Mia's" names "Mia Dawson",
    "Chen's" no "Leo Chen"; "Andrea's" no "Andreas Vogel" (a first word ending in "s" must
    be the owner as it is, not its stem)."""
    first = name.split(" ")[0]
    return first in owners or (not first.endswith("s") and stem(first) in owners)


def related(old: Claim, new: Claim, around: frozenset[str] = frozenset(), owned: bool = True) -> bool:
    """Whether two claims share a name or an anchor stem and do not each name an entity or
    thread the other does not: enough to be about the same thing when the new record names
    the old claim's value as the one it replaces ("Lighthouse moves from June 25 to July 2"
    after "the current Lighthouse target date is June 25"). ``around``: the names of the
    old claim's turn, where the new one's may have been said first ("For Cedar Carpool,
    Tessa is ... . Initial plan is Thursday at 3:20 PM, ..." and "Updating Cedar Carpool:
    ... now 3:15 PM rather than 3:20 PM"). One called public and the other private are not
    related (so a thing that turns public is not followed: left). ``owned``: two people's
    are not related either ("Sam's badge CR-8804", "Marco's new badge CR-8816"); off where
    the new record names the old value, whoever's news it relays ("Dr. Kim's office called:
    the dental cleaning moves from March 12 to March 19")."""
    if _unnamed_by(old, new) and unmatched_entities(_unnamed_by(new, old), around):
        return False
    if old.threads and new.threads and not old.threads & new.threads:
        return False
    if owned and old.owners and new.owners and not old.owners & new.owners:
        return False  # "Sam's badge CR-8804" and "Marco's new badge CR-8816"
    if _opposed_audiences(old, new):
        return False
    said_around = bool(new.entities - unmatched_entities(new.entities, around))
    return _shares_name(old, new) or bool(old.anchor & new.anchor) or said_around


_AUDIENCES = (frozenset({"public"}), frozenset({"privat"}))


def _opposed_audiences(old: Claim, new: Claim) -> bool:
    """Whether one claim calls what it is about public and the other private (and neither
    both): "the public Commons Room 242" is not the private interview room, though the
    numbers match, nor "the public amount 3,405 USD" the private amount, however much the
    anchors share."""
    public, private = _AUDIENCES
    words = [c.anchor | c.introduced for c in (old, new)]
    sides = [(bool(w & public), bool(w & private)) for w in words]
    return any(sides[0][i] and not sides[0][1 - i] and sides[1][1 - i] and not sides[1][i] for i in (0, 1))


def _same_family(old: frozenset[str], new: frozenset[str]) -> bool:
    """Whether a code of each is of one family: the same letters in the same places,
    only the digits differ ("CR-8804" and "CR-8816", "BH_TEMP_4471" and "BH_TEMP_5926");
    bare numbers (rooms, phone numbers) have no family."""
    return bool(_families(old) & _families(new))


def _families(codes: frozenset[str]) -> set[str]:
    return {
        shape
        for code in codes
        if (shape := re.sub(r"\d+", "#", code)) != "#" and any(c.isalpha() for c in shape)
    }


def changed_attributes(
    old: Claim, new: Claim, restated: Mapping[str, frozenset[str]] | None = None
) -> list[str]:
    """Attributes the new claim gives another value than the old one (a value the old one
    does not state, while leaving out one it does); a time with a role
    ("clock:arrival") is compared only with times of the same role. A value the new
    record states anywhere (``restated``: every value of its turn, by attribute without
    role) is not changed, so a recap cut into other list items than the original still
    restates it."""
    changed = []
    for attribute, values in new.values.items():
        before = old.values.get(attribute)
        values = values - new.replaced.get(attribute, frozenset())  # "to end the 242/242 mix-up"
        said = values | (restated or {}).get(base_attribute(attribute), frozenset())
        if not before or all(_among(value, said) for value in before):
            continue
        if all(_among(value, before) for value in values):
            continue  # it gives no other value, it only leaves some out (a recap of part)
        named = new.replaced.get(attribute)
        if named and not before & named:
            continue  # it says what it replaced, and that is not this
        changed.append(attribute)
    # a value the new claim names as the one it replaces is changed whatever role each gives
    # its times ("'check-in through March 20' to 'arrival timing only through March 24'")
    bases = {base_attribute(a) for a in new.values}
    for attribute, before in old.values.items():
        base = base_attribute(attribute)
        if attribute not in changed and base in bases and before & new.replaced.get(attribute, frozenset()):
            said = frozenset().union(*(v for a, v in new.values.items() if base_attribute(a) == base))
            if not before <= said:
                changed.append(attribute)
    return changed


def base_attribute(attribute: str) -> str:
    """``clock`` of ``clock:arrival``."""
    return attribute.partition(":")[0]


def _among(value: str, values: frozenset[str]) -> bool:
    """Whether ``value`` is one of ``values``; a clock time without AM/PM ("06:10~")
    is the same as either half of the day."""
    if value in values:
        return True
    if not value.endswith("~") and not any(v.endswith("~") for v in values):
        return False
    plain = {_twelve_hour(v) for v in values}
    return _twelve_hour(value) in plain


def _twelve_hour(value: str) -> str:
    if ":" not in value:
        return value
    hour, minute = value.rstrip("~").split(":")
    return f"{int(hour) % 12:02d}:{minute}"


def find_claim_supersessions(
    new: Sequence[ClaimRecord],
    earlier: Sequence[ClaimRecord],
    subjects: Subjects = _no_subjects,
    already: Mapping[tuple[int, int], str | None] | Collection[tuple[int, int]] = (),
) -> list[ClaimFinding]:
    """Claims of ``earlier`` records (and of new records before each) that each new record
    revises. ``already``: (turn key, claim start) of claims superseded before, with from
    when: they are superseded again only by a record of an earlier time (a change recorded
    late, whose time comes first, is when the claim stopped being current; the store keeps
    the earliest). A new record dated before a stored one is checked the other way round:
    the stored one may revise it. The outcome does not depend on how records are split
    into ``new`` and ``earlier``: each new record is weighed against the records before
    it and itself."""
    findings: list[ClaimFinding] = []
    superseded: dict[tuple[int, int], str | None] = (
        dict(already) if isinstance(already, Mapping) else dict.fromkeys(already)
    )
    pool = [*earlier, *new]
    first_new = len(earlier)
    weights = AnchorWeights()
    weights.add([c for record in earlier for c in claims_of(record.text)])
    said: dict[int, tuple[list[Claim], dict[str, frozenset[str]], dict[str, frozenset[str]]]] = {}

    revised: list[tuple[Claim, int, Claim, dict[str, frozenset[str]]]] = []

    def revise(newer: ClaimRecord, older: ClaimRecord) -> None:
        if newer.key not in said:
            said[newer.key] = _what_it_says(newer.text)
        revising, restated, named = said[newer.key]
        if not revising:
            return
        others_speaker = older.speaker != newer.speaker and None not in (older.speaker, newer.speaker)
        claims = claims_of(older.text)
        current = [
            c for c in claims if c.asserts and _open(superseded, (older.key, c.start), newer.valid_from)
        ]
        for old in current:
            # "my window" said by someone else: another person's slot
            revising_here = [c for c in revising if not c.mine] if others_speaker and old.mine else revising
            revising_here = [c for c in revising_here if not _meant_another(old, c, current, weights)]
            found = None
            while revising_here:
                found = _revised_by(
                    old,
                    older.key,
                    revising_here,
                    newer.key,
                    subjects,
                    weights,
                    restated,
                    named,
                    analyse(older.text).entities,
                )
                if found is None or not _fits_another_better(old, found[3], current, weights):
                    break
                # another claim of the record is more plainly what that one revises: try the rest
                revising_here, found = [c for c in revising_here if c is not found[3]], None
            if found is not None and not _about_another(older.text[old.start : old.end], newer.text):
                reasons, whole, gone, by = found
                superseded[(older.key, old.start)] = newer.valid_from
                findings.append(ClaimFinding(older.key, old.start, old.end, newer.key, reasons, whole))
                if newer is record_now:
                    revised.append((old, older.key, by, gone))

    def restatements(newer: ClaimRecord, before: Sequence[ClaimRecord]) -> None:
        """Earlier claims restating a value ``newer`` just replaced, about what the replaced
        claim was about ("Current finance note: 3,720 USD remains the active amount" after
        "the amount is revised from 3,720 USD to 3,710 USD" superseded "the active amount
        is 3,720 USD"): they state the old value as current too."""
        _, restated, _ = said[newer.key]
        for other in before:
            if other.key == newer.key or (
                newer.valid_from and other.valid_from and other.valid_from > newer.valid_from
            ):
                continue
            claims = claims_of(other.text)
            for position, claim in enumerate(claims):
                if not claim.asserts or not _open(superseded, (other.key, claim.start), newer.valid_from):
                    continue
                for old, old_key, new_claim, gone in revised:
                    if old_key == other.key and position and claims[position - 1] == old:
                        found = _follows_on(claim, old, gone, restated, other.text)
                        if found is not None:
                            superseded[(other.key, claim.start)] = newer.valid_from
                            findings.append(
                                ClaimFinding(other.key, claim.start, claim.end, newer.key, found[0], found[1])
                            )
                            break
                    if not same_thing(old, claim, weights) or not related(claim, new_claim):
                        continue
                    found = _restates(claim, old, new_claim, gone, restated, weights)
                    if found is None:
                        continue
                    mine, theirs = (
                        subjects(other.key, claim.start, claim.end),
                        subjects(newer.key, 0, len(newer.text)),
                    )
                    if mine and theirs and not mine & theirs:
                        continue
                    superseded[(other.key, claim.start)] = newer.valid_from
                    findings.append(
                        ClaimFinding(other.key, claim.start, claim.end, newer.key, found[0], found[1])
                    )
                    break

    record_now: ClaimRecord | None = None
    for row, record in enumerate(new):
        weights.add(claims_of(record.text))
        record_now = record
        revised.clear()
        for other in pool[: first_new + row]:
            if other.key == record.key:
                continue
            if record.valid_from and other.valid_from and other.valid_from > record.valid_from:
                revise(other, record)  # told later, dated earlier: the stored record may revise it
            else:
                revise(record, other)
        if revised:
            restatements(record, pool[: first_new + row])
        if names_replaced_things(record.text):
            findings += _phrase_findings(record, pool[: first_new + row], subjects, superseded)
    return findings


_OPENING_NAME = re.compile(r"\s*([A-Z][a-z]{2,})\b(?!['’])")
_NAME_WORD = re.compile(r"\b[A-Z][a-z]{2,}\b")
_INFLECTIONS = frozenset(
    ("ing", "ings", "ers", "est", "ies", "ier")
)  # "Rooming" is no other name than "Room"


@lru_cache(maxsize=4096)
def _names_said(text: str) -> frozenset[str]:
    return frozenset(w.group(0) for w in _NAME_WORD.finditer(text))


def _about_another(text: str, newer: str) -> bool:
    """Whether a claim opens on a name the newer record never says that extends a name it
    does say: "Copperline has a separate 198,000 USD working budget and should never be
    cited as a proxy for Copper" is Copperline's, so the Copper bundle's "budget 224,000 USD"
    does not revise it. (A name inside a sentence is an entity and compared as one; the
    first word of a sentence is not, since every sentence opens on a capital.)"""
    opening = _OPENING_NAME.match(text)
    if opening is None:
        return False
    word = opening.group(1)
    said = _names_said(newer)
    return word not in said and any(
        word.startswith(name) and len(word) - len(name) >= 3 and word[len(name) :] not in _INFLECTIONS
        for name in said
    )


def _phrase_findings(
    record: ClaimRecord,
    before: Sequence[ClaimRecord],
    subjects: Subjects,
    superseded: dict[tuple[int, int], str | None],
) -> list[ClaimFinding]:
    """The clauses of ``before`` that ``record`` supersedes by naming the thing it replaces
    (:mod:`phrase_supersession`), each noted in ``superseded``."""

    def is_open(key: int, start: int) -> bool:
        return _open(superseded, (key, start), record.valid_from)

    earlier = [(o.key, o.valid_from, o.text) for o in before]
    found = []
    for key, start, end, whole in phrase_findings(
        record.key, record.text, record.valid_from, earlier, subjects, is_open
    ):
        superseded[(key, start)] = record.valid_from
        found.append(ClaimFinding(key, start, end, record.key, PHRASE_REASONS, whole))
    return found


def _states_value_of(claim: Claim, new: Claim) -> bool:
    """Whether ``claim`` already gives every value ``new`` gives of one of its attributes."""
    return any(
        values and all(_among(v, claim.values.get(a, frozenset())) for v in values)
        for a, values in new.values.items()
    )


_SEQUENCE = frozenset(
    {"next", "then", "after", "later", "week", "day", "dai", "month", "goe", "go", "start", "tonight"}
    | {"tomorrow", "morn", "even", "night", "now", "onward", "step", "thereaft"}
)
"""Stems of time and sequence ("next week it goes to 37.5 mg"): a later step of the same
thing, not another thing."""


def _meant_another(old: Claim, new: Claim, beside: Sequence[Claim], weights: Weights) -> bool:
    """Whether ``new``, naming nothing ``old`` does not, is rather about another thing that
    the same record gives beside ``old`` (``beside``: that record's current claims) and
    that already has ``new``'s value: after
    "continue apixaban 5 mg twice daily. Increase metoprolol ... to 37.5 mg twice daily",
    "You are moving to 37.5 milligrams twice daily" restates the metoprolol dose; it is no
    new apixaban dose. Two values of one attribute said as current in one record are of
    two things when each names something the other does not (beyond time and sequence:
    "then 50 mg daily from next week" is the next step of the same dose), and a vague claim
    agreeing with one of them and fitting it as well ("the Lantus is changing" does not
    fit the Humalog) revises neither."""
    if not new.anchor or not new.anchor <= old.anchor or _states_value_of(old, new):
        return False
    return any(
        other.start != old.start
        and new.anchor <= other.anchor
        and (other.anchor - old.anchor) - _SEQUENCE
        and _states_value_of(other, new)
        and same_thing(other, new, weights)
        for other in beside
    )


def _fits_another_better(old: Claim, new: Claim, beside: Sequence[Claim], weights: Weights) -> bool:
    """Whether another claim of ``old``'s record (``beside``) giving a value of what ``new``
    changes is more plainly what ``new`` is about: after "Three active follow-up items are
    Wednesday July 8 at 2:00 PM nephrology, Friday July 10 at 11:00 AM rheumatology, ...",
    "the rheumatology follow-up moved to Monday July 13" is the rheumatology item's move,
    though the list's opening words give "follow-up" to the nephrology item."""
    attributes = {base_attribute(a) for a in new.values}
    fit = _containment(old.anchor, new.anchor, weights)
    return any(
        other.start != old.start
        and attributes & {base_attribute(a) for a in other.values}
        and _containment(other.anchor, new.anchor, weights) > fit
        and same_thing(other, new, weights)
        for other in beside
    )


def _restates(
    claim: Claim,
    old: Claim,
    new: Claim,
    gone: Mapping[str, frozenset[str]],
    restated: Mapping[str, frozenset[str]],
    weights: Weights,
) -> tuple[tuple[str, ...], bool] | None:
    """Whether ``claim`` restates a value ``old`` gave and ``new`` replaced (``gone``, by
    attribute without role), about the same thing, without the record's new values; and
    whether it says nothing else (then it is cut, else marked). The same thing: what
    ``claim`` is about is said by ``old`` or ``new`` (its anchor is within theirs, so "the
    housing stipend is also 3,720 USD" is not the Beacon stipend that "the stipend is 3,720
    USD" was taken for; a replaced code with letters is one thing wherever it is said), it
    names no one and no owner they do not, and its owner is theirs."""
    hit = [
        a
        for a, values in claim.values.items()
        if values & gone.get(base_attribute(a), frozenset())
        and not values & restated.get(base_attribute(a), frozenset())
    ]
    if not hit or _names_another(claim, old, new):
        return None
    lettered = all(  # a code with letters names one thing wherever it is said ("CR-8804 stays active")
        base_attribute(a) == "code"
        and all(_has_letters(v) for v in claim.values[a] & gone.get("code", frozenset()))
        for a in hit
    )
    if not lettered and not _within(claim, old, new, weights):
        return None
    if old.owners and claim.owners and not old.owners & claim.owners:
        return None
    whole = (
        claim.sentence
        and not claim.lists_more
        and all(values <= gone.get(base_attribute(a), frozenset()) for a, values in claim.values.items())
    )
    return ("restates-replaced", "changed-" + "-".join(sorted(hit)), "revision-wording"), whole


_TAKING = frozenset(
    stem(w)
    for w in (
        "treat",
        "consider",
        "regard",
        "keep",
        "use",
        "count",
        "hold",
        "confirm",
        "log",
        "note",
        "record",
    )
)
"""Stems of verbs that say how to take a value ("Treat August 29, 2026 as current until later
update", "Keep 10 AM"), opening a claim that says nothing else."""
_RESTATING = _TAKING | frozenset(stem(w) for w in ("later", "until", "current", "confirmed"))
_SEVERAL = re.compile(r"\b(?:both|each|all|either|too|also|as\s+well|every)\b", re.IGNORECASE)
_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")


def _follows_on(
    claim: Claim,
    before: Claim,
    gone: Mapping[str, frozenset[str]],
    restated: Mapping[str, frozenset[str]],
    text: str,
) -> tuple[tuple[str, ...], bool] | None:
    """Whether ``claim``, the next claim after ``before`` in its record (``text``), only says
    how to take a value of ``before`` that a change replaced ("Willow now moves ... to August
    29, 2026. Treat August 29, 2026 as current until later update."), and whether it says
    nothing else. It opens on a verb of taking (``_TAKING``) and has no other word of its
    own, names nothing, gives only replaced values, and neither it nor ``before`` speaks of
    several things ("both", "too"); every value ``before`` gave was replaced (after "Physio is
    now Monday and Wednesday at 9 AM", a Monday move leaves "Keep 9 AM")."""
    said = text[claim.start : claim.end]
    first = _FIRST_WORD.match(said)
    if first is None or stem(first.group(1).lower()) not in _TAKING:
        return None
    if claim.anchor - _RESTATING or claim.owners or claim.entities or claim.kin or claim.capitals - _TAKING:
        return None
    earlier = text[before.start : before.end]
    if _SEVERAL.search(said) or _SEVERAL.search(earlier) or len(_weekdays(earlier)) > 1:
        return None  # "Piano lessons are now Tuesdays and Thursdays at 4 PM": a slot a day
    if said[first.end() :].lstrip().lower().startswith("by "):
        return None  # "Use by October 14": an expiry, not a way to take the date
    if not all(values <= gone.get(base_attribute(a), frozenset()) for a, values in before.values.items()):
        return None
    if not all(values <= before.values.get(a, frozenset()) for a, values in claim.values.items()):
        return None
    hit = [
        a for a, values in claim.values.items() if not values & restated.get(base_attribute(a), frozenset())
    ]
    if not hit:
        return None
    return ("restates-replaced", "changed-" + "-".join(sorted(hit)), "revision-wording"), claim.sentence


def _within(claim: Claim, old: Claim, new: Claim, weights: Weights) -> bool:
    """Whether what ``claim`` is about is said by ``old`` or ``new``: at least
    ``ANCHOR_CONTAINMENT`` of its anchor's weight is in theirs."""

    def mass(terms: frozenset[str]) -> float:
        return sum(weights.get(t, 1.0) for t in terms)

    anchor = claim.anchor - claim.heading
    if not anchor:
        return False
    return mass(anchor & (old.anchor | new.anchor)) / mass(anchor) >= ANCHOR_CONTAINMENT


def _names_another(claim: Claim, old: Claim, new: Claim) -> bool:
    """Whether ``claim`` names an owner or a capitalised name neither ``old`` nor ``new``
    does ("Mia takes 5 mL twice daily too" after Grandpa's dose changed)."""
    theirs = old.owners | new.owners | old.capitals | new.capitals | old.anchor | new.anchor
    if claim.owners - (old.owners | new.owners):
        return True
    if unmatched_entities(
        claim.entities, old.entities | new.entities, (_sides(claim), _sides(old) | _sides(new))
    ):
        return True
    return bool((claim.capitals - claim.heading) - theirs)


def _what_it_says(
    text: str,
) -> tuple[list[Claim], dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """A record's revising claims, every value it states (but those it names as replaced),
    and the values it names as replaced, by attribute without role."""
    restated: dict[str, frozenset[str]] = {}
    named: dict[str, frozenset[str]] = {}
    for claim in claims_of(text):
        # a value a claim names as the one it replaces is not restated by its own other
        # mention of it ("moving from Committee Room 242 to Committee Room 243 to eliminate
        # the 242/242 confusion"); another claim keeping it still restates it ("... 4417 is
        # retired; the side door PIN stays 4417")
        own = claim.replaced if claim.asserts else {}
        gone = frozenset().union(*own.values()) if own else frozenset()
        for attribute, values in claim.values.items():
            base = base_attribute(attribute)
            restated[base] = restated.get(base, frozenset()) | (values - gone)
        for attribute, values in own.items():
            base = base_attribute(attribute)
            named[base] = named.get(base, frozenset()) | values
    return revising_claims(text), restated, named


def _has_letters(code: str) -> bool:
    return any(ch.isalpha() for ch in code)


def _shares_name(old: Claim, new: Claim) -> bool:
    """Whether the two claims name one same entity ("Willow Tutors" in both)."""
    return bool(old.entities) and len(unmatched_entities(old.entities, new.entities)) < len(old.entities)


def _open(superseded: Mapping[tuple[int, int], str | None], claim: tuple[int, int], at: str | None) -> bool:
    """Whether a claim may be superseded by a record of time ``at``: never superseded yet,
    or superseded from a later time than ``at`` (both times known)."""
    if claim not in superseded:
        return True
    since = superseded[claim]
    return since is not None and at is not None and at < since


def _revised_by(
    old: Claim,
    old_key: int,
    revising: Sequence[Claim],
    new_key: int,
    subjects: Subjects,
    weights: Weights,
    restated: Mapping[str, frozenset[str]],
    named: Mapping[str, frozenset[str]] = {},
    old_turn_names: frozenset[str] = frozenset(),
) -> tuple[tuple[str, ...], bool, dict[str, frozenset[str]], Claim] | None:
    for new in revising:
        if not new.values:  # it only retires values ("the earlier room TC-204 is superseded")
            if not new.retires:
                continue
            retired = [
                a for a, vs in old.values.items() if vs & new.replaced.get(base_attribute(a), frozenset())
            ]
            retired = [
                a for a in retired if not old.values[a] <= restated.get(base_attribute(a), frozenset())
            ]
            lettered = any(  # a code with letters names one thing, wherever it is said
                any(
                    c.isalpha()
                    for v in old.values[a] & new.replaced.get(base_attribute(a), frozenset())
                    for c in v
                )
                for a in retired
                if base_attribute(a) == "code"
            )
            if not retired or not (lettered or same_thing(old, new, weights)):
                continue  # "Ben is no longer on the 7:45 AM bus" retires nothing of Mia's bus
            mine, theirs = subjects(old_key, old.start, old.end), subjects(new_key, new.start, new.end)
            if mine and theirs and not mine & theirs:
                continue
            whole = old.sentence and not old.lists_more and set(old.values) <= set(retired)
            return (
                ("named-retired", "changed-" + "-".join(sorted(retired)), "revision-wording"),
                whole,
                _gone(old, new, retired, restated),
                new,
            )
        changed = changed_attributes(old, new, restated)
        if not changed:
            continue
        replaced = [a for a in changed if old.values[a] & named.get(base_attribute(a), frozenset())]
        kin = [
            a for a in changed if base_attribute(a) == "code" and _same_family(old.values[a], new.values[a])
        ]
        lettered = any(  # a code with letters named as replaced is that one thing wherever it is said
            base_attribute(a) == "code"
            and any(_has_letters(v) for v in old.values[a] & named.get("code", frozenset()))
            for a in replaced
        )
        if (
            not same_thing(old, new, weights)
            and not (
                (replaced or kin)
                and related(old, new, old_turn_names if replaced else frozenset(), owned=not replaced)
            )
            and not (kin and _shares_name(old, new))  # a code of the family, under the same name
            and not lettered
        ):
            continue
        mine, theirs = subjects(old_key, old.start, old.end), subjects(new_key, new.start, new.end)
        if mine and theirs and not mine & theirs:
            continue
        # cut only a whole sentence that says nothing the new claim does not restate; one that
        # gives several values of an attribute the new claim replaces only some of ("1 puff in
        # the morning and 2 puffs at bedtime" after "the morning dose went from 1 puff to 2")
        # is marked
        whole = (
            old.sentence
            and not old.lists_more
            and set(old.values) <= set(new.values) | set(new.replaced)
            and not any(
                len(values) > 1
                and values & new.replaced.get(a, frozenset())
                and not values <= new.replaced[a]
                for a, values in old.values.items()
            )
        )
        sameness = (
            "named-replaced"
            if replaced
            else "same-anchor"
            if same_thing(old, new, weights)
            else "code-family"
        )
        return (
            (sameness, "changed-" + "-".join(sorted(changed)), "revision-wording"),
            whole,
            _gone(old, new, changed, restated),
            new,
        )
    return None


def _gone(
    old: Claim, new: Claim, attributes: Sequence[str], restated: Mapping[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    """The values of ``attributes`` that ``old`` stated and the new record replaced, by
    attribute without role: those it names as replaced, or the one value ``old`` gave (of
    two it gave, "the private amount is 2,910 USD while the public line is 2,915 USD",
    a change of one says nothing of the other)."""
    gone: dict[str, frozenset[str]] = {}
    for a in attributes:
        base = base_attribute(a)
        values = old.values[a]
        named = values & new.replaced.get(a, frozenset()) | values & new.replaced.get(base, frozenset())
        left = named or (values if len(values) == 1 else frozenset())
        left = frozenset(v for v in left if not _among(v, restated.get(base, frozenset())))
        if left:
            gone[base] = gone.get(base, frozenset()) | left
    return gone
