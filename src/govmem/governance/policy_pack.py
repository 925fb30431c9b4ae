"""Policy packs: the rules of a domain, as data.

A pack is a TOML file (one per domain, plus the strict ``default``) that says how
information is labelled and who may read which label:

- ``subject_roles``: principals in these roles own everything said about them
  (patients, students); ``personal_tags``: for these tags anyone mentioned is a
  subject (an employee's pay, a guest's door code). Resources (projects,
  households, programmes) are subjects whenever they are named.
- ``owner_relationships``: relationship types (glob patterns) by which a principal
  owns a resource (a student -residence_case_subject-> lumen_review): what is said
  about the resource is its owner's information, so a requester may read about the
  resource whatever they may read about its owner, and ``about = "resource"`` rules
  match only resources nobody owns (public programmes, shared rooms).
- ``unnamed_subject``: what a sentence naming no subject is about, tried in order:
  ``speaker`` (if their role is a subject role), ``self`` (the speaker, if their role
  is a subject role and they call the matter theirs: "my Monday note"), ``previous``
  (the last subject named in the episode), else nothing (shared information). ``previous`` is
  skipped for a sentence whose tags are all ``shared_tags`` and that has no word
  referring back to someone ("her", "your"): "level P2 is for clinic patients".
- ``qualified_subjects``: words by which a sentence says what kind of subject it is
  about: ``"owned resource"`` (``private``: the case of whom the talk is about) or
  ``"resource"`` (``public``: the public programmes nobody owns). A sentence referring
  to a person ("her grant") is left to its names. Otherwise a private sentence is about
  the case (beside a programme it names), and a public one naming no one but
  programmes is about them, its figures published ones ("Current public date remains
  December 6" is the programme's, though a student spoke before it); private wins when
  both are said.
- ``scope_things``: when true, the things relationship scopes name
  (``saturday_apricot_archive_helper_only``) are resources, named in the talk by their
  capitalised name ("the Apricot Archive fallback"); a rule with ``through_scope = true``
  reaches the things the requester's relationship scope names, with the rule's tags
  (not the scope's words, which were spent naming the thing).
- ``tags``: topic tags, each a list of case-insensitive regular expressions over a
  sentence; a sentence with an ``overriding_tags`` tag carries that tag alone,
  whatever else it mentions (wording said to be shared, "the safe wording for mixed
  audiences is ...", is that wording), unless ``declassifiable_tags`` is given and the
  sentence has a tag outside it (then it keeps its own tags); ``subsumed_tags`` name, for a tag, the tags a
  sentence with it no longer carries (a procedure's preparation, "hold lisinopril until
  after the procedure", is preparation, not medication; a diagnosis in it stays a
  diagnosis); ``kind_tags`` add tags by turn kind; a sentence with no tag is ``general``.
- ``vocabularies``: for a tag, term lists shipped with govmem that mark it too, matched
  as whole words, a last word also in the plural: ``icd10cm_diagnoses``, the disease names
  of ICD-10-CM ("heart failure", "anorexia nervosa"), and ``drug_names``, generic and
  brand drug names ("naltrexone", "Biktarvy"); both built by
  ``scripts/build_vocabularies.py``.
- ``separable_tags``: for a tag, the tags a clause may carry to be labelled on its own
  when its sentence has that tag and no other personal tag ("keypad 2745 before 10:05
  AM, desk buzz after 10:05 AM": the second clause is a schedule, not a code). A clause
  holding a quotation or a figure of three or more digits stays with its sentence.
- ``pressure_tags``: tags a query under pressure is never served about anyone but the
  requester: a demand for exact values made with urgency ("the board review is in
  five minutes, I need the exact budget") is the pattern of fraud by authority
  pressure, so it gets the answer the requester could pass on safely, not the values
  (see :mod:`govmem.governance.pressure`). Pressure narrows; it never grants.
- ``collective_tags``: tags on which a question asks about everyone ("will the house be
  empty before six?" asks every resident's whereabouts): such a query is assessed as
  asking about no one in particular on those tags, whoever else it names, and is
  refused whole to whoever may not read them about anyone (any schedule returned
  beside it would answer it).
- ``questions_about_subjects``: tags that make a question about the subjects though it
  names no one and is not asked in the first person: in a clinic, "what is the
  diagnosis?" is a patient's diagnosis. Such a question, when every topic it asks is one
  of these, is refused to whoever may read those topics about no subject, as a question
  referring to someone ("is her biopsy back?") is in every pack. A topic outside them
  ("parking level and warfarin") may be about no one, so no guess is made. A guess at
  whom a question means only ever refuses, never redacts.
- ``scope_words``: words in a relationship's scope attribute ("scheduling_only")
  and the tags they allow; a scoped relationship never reaches beyond them.
- ``rules``: allow or deny a (subject, tag) pair to a requester. Every condition a
  rule states must hold: ``requester = "subject"``, ``roles``, ``relationship``
  (glob patterns; the requester holds it towards the subject, or with ``through_scope``
  the subject is a thing its scope names), ``about`` (``principal``, ``resource``,
  ``thing``, ``nothing``), ``about_roles``, ``tags``.

Deny rules win over allow rules; an explicit grant (or consent) wins over both,
since it is the subject or an entitled principal making an exception on purpose.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from govmem.errors import PolicyError

BUILTIN_PACKS = ("default", "medical", "office", "education", "household")
GENERAL = "general"
ANY = "*"
ABOUT = ("principal", "resource", "thing", "nothing", "any")
RESOURCE_KINDS = ("owned resource", "resource")
SCOPE_ATTRIBUTES = ("access_scope", "access_level", "scope", "service_scope")
"""Relationship attributes that hold a scope ("scheduling_only"), read with ``scope_words``."""
SCOPE_GLUE = frozenset(("and", "or", "only", "with", "the", "of", "for", "no", "when", "to"))


UNNAMED = ("speaker", "self", "previous")
_RULE_KEYS = {
    "id",
    "effect",
    "requester",
    "roles",
    "relationship",
    "through_scope",
    "about",
    "about_roles",
    "tags",
}
_PACK_KEYS = {
    "name",
    "description",
    "subject_roles",
    "personal_tags",
    "unnamed_subject",
    "shared_tags",
    "overriding_tags",
    "declassifiable_tags",
    "subsumed_tags",
    "separable_tags",
    "pressure_tags",
    "collective_tags",
    "owner_relationships",
    "qualified_subjects",
    "scope_things",
    "questions_about_subjects",
    "vocabularies",
    "tags",
    "kind_tags",
    "scope_words",
    "rules",
}


@dataclass(frozen=True)
class Rule:
    rule_id: str
    effect: str
    tags: frozenset[str]
    requester_is_subject: bool = False
    roles: frozenset[str] | None = None
    relationships: tuple[str, ...] | None = None
    about: str = "any"
    about_roles: frozenset[str] | None = None
    through_scope: bool = False
    """The relationship reaches what its scope names (:func:`scope_things`), not its target."""

    def covers_tag(self, tag: str) -> bool:
        return ANY in self.tags or tag in self.tags

    def names_relationship(self, relationship_type: str) -> bool:
        return self.relationships is not None and any(
            fnmatchcase(relationship_type, pattern) for pattern in self.relationships
        )


@dataclass(frozen=True)
class PolicyPack:
    name: str
    description: str
    subject_roles: frozenset[str]
    personal_tags: frozenset[str]
    unnamed_subject: tuple[str, ...]
    shared_tags: frozenset[str]
    overriding_tags: frozenset[str]
    subsumed_tags: dict[str, frozenset[str]]
    pressure_tags: frozenset[str]
    collective_tags: frozenset[str]
    owner_relationships: tuple[str, ...]
    tag_patterns: dict[str, re.Pattern[str]]
    kind_tags: dict[str, frozenset[str]]
    scope_words: dict[str, frozenset[str]]
    rules: tuple[Rule, ...]
    source: str
    declassifiable_tags: frozenset[str] | None = None
    """The only tags an overriding tag may take a sentence's place of (None: any)."""
    qualified_subjects: dict[str, str] = field(default_factory=dict)
    """Word -> the kind of resource an unnamed sentence using it is about."""
    scope_things: bool = False
    """Whether the things relationship scopes name are resources (:func:`scope_things`)."""
    separable_tags: dict[str, frozenset[str]] = field(default_factory=dict)
    """Tag -> the tags a clause may have to be labelled apart from a sentence with it."""
    vocabularies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Tag -> names of the term lists that mark it as well as its patterns (:func:`vocabulary`)."""
    questions_about_subjects: frozenset[str] = frozenset()
    """Tags on which a question naming no one, not in the first person, is about the subjects."""

    @property
    def tags(self) -> frozenset[str]:
        return frozenset(self.tag_patterns) | {GENERAL}

    def is_subject_role(self, role: str) -> bool:
        return ANY in self.subject_roles or role in self.subject_roles

    def is_ownership(self, relationship_type: str) -> bool:
        return any(fnmatchcase(relationship_type, pattern) for pattern in self.owner_relationships)

    def scope_tags(self, scope: str) -> frozenset[str] | None:
        """Tags a relationship scope ("scheduling_only") allows; None when it names none. A
        word after "no", "not", "non", "except", "without" or "excluding" allows nothing
        ("scheduling_only_no_anticoagulation_or_dose_changes" is scheduling)."""
        words, negated = [], False
        for word in re.findall(r"[a-z]+", scope.lower()):
            if word in _NEGATING:
                negated = True
            elif not negated:
                words.append(word)
        found = [self.scope_words[w] for w in words if w in self.scope_words]
        return frozenset().union(*found) if found else None


_NEGATING = frozenset({"no", "not", "non", "except", "without", "excluding", "excludes", "exclude"})


def scope_things(relationship: Any) -> frozenset[str]:
    """The things a relationship's scope may name: its adjacent word pairs
    (``saturday_apricot_archive_helper_only`` -> ``apricot_archive``, ...). A pair is a
    thing only where the talk names it capitalised ("the Apricot Archive fallback")."""
    pairs: set[str] = set()
    for name in SCOPE_ATTRIBUTES:
        value = relationship.attributes.get(name)
        if isinstance(value, str):
            words = [w for w in re.split(r"[^a-z]+", value.lower()) if w]
            pairs.update(f"{a}_{b}" for a, b in itertools.pairwise(words) if not {a, b} & SCOPE_GLUE)
    return frozenset(pairs)


def load_pack(name_or_path: str) -> PolicyPack:
    """A built-in pack by name, or a pack file by path."""
    if name_or_path in BUILTIN_PACKS:
        return _builtin(name_or_path)
    path = Path(name_or_path)
    if not path.is_file():
        raise PolicyError(
            f"no policy pack {name_or_path!r}: give one of {', '.join(BUILTIN_PACKS)} or a .toml file"
        )
    return parse_pack(path.read_text(encoding="utf-8"), str(path))


@cache
def _builtin(name: str) -> PolicyPack:
    text = resources.files("govmem.governance").joinpath("packs", f"{name}.toml").read_text("utf-8")
    return parse_pack(text, f"<built-in pack {name}>")


def parse_pack(text: str, source: str = "<pack>") -> PolicyPack:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: not valid TOML: {exc}") from None
    unknown = set(data) - _PACK_KEYS
    if unknown:
        raise PolicyError(f"{source}: unknown key {sorted(unknown)[0]!r}")
    name = _string(data, "name", source)
    tag_patterns = {tag: _patterns(tag, value, source) for tag, value in _table(data, "tags", source).items()}
    known_tags = set(tag_patterns) | {GENERAL}
    kind_tags = {
        kind: _tags(value, f"kind_tags.{kind}", known_tags, source)
        for kind, value in _table(data, "kind_tags", source).items()
    }
    scope_words = {
        word.lower(): _tags(value, f"scope_words.{word}", known_tags, source)
        for word, value in _table(data, "scope_words", source).items()
    }
    subsumed = _tags_by_tag(data, "subsumed_tags", known_tags, source)
    separable = _tags_by_tag(data, "separable_tags", known_tags, source)
    unnamed = tuple(_strings(data.get("unnamed_subject", []), "unnamed_subject", source))
    bad = [u for u in unnamed if u not in UNNAMED]
    if bad:
        raise PolicyError(f"{source}: unnamed_subject {bad[0]!r} is not one of {', '.join(UNNAMED)}")
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list) or not raw_rules:
        raise PolicyError(f"{source}: a pack needs at least one [[rules]] entry")
    rules = tuple(_rule(raw, known_tags, source) for raw in raw_rules)
    seen: set[str] = set()
    for rule in rules:
        if rule.rule_id in seen:
            raise PolicyError(f"{source}: rule id {rule.rule_id!r} is used twice")
        seen.add(rule.rule_id)
    return PolicyPack(
        name=name,
        description=str(data.get("description", "")),
        subject_roles=frozenset(_strings(data.get("subject_roles", []), "subject_roles", source)),
        personal_tags=_tags(data.get("personal_tags", []), "personal_tags", known_tags, source),
        unnamed_subject=unnamed,
        shared_tags=_tags(data.get("shared_tags", []), "shared_tags", known_tags, source),
        overriding_tags=_tags(data.get("overriding_tags", []), "overriding_tags", known_tags, source),
        declassifiable_tags=(
            _tags(data["declassifiable_tags"], "declassifiable_tags", known_tags, source)
            if "declassifiable_tags" in data
            else None
        ),
        subsumed_tags=subsumed,
        separable_tags=separable,
        pressure_tags=_tags(data.get("pressure_tags", []), "pressure_tags", known_tags, source),
        collective_tags=_tags(data.get("collective_tags", []), "collective_tags", known_tags, source),
        owner_relationships=tuple(
            _strings(data.get("owner_relationships", []), "owner_relationships", source)
        ),
        qualified_subjects=_qualified_subjects(data, source),
        scope_things=_boolean(data, "scope_things", source),
        vocabularies=_vocabularies(data, known_tags, source),
        questions_about_subjects=_tags(
            data.get("questions_about_subjects", []), "questions_about_subjects", known_tags, source
        ),
        tag_patterns=tag_patterns,
        kind_tags=kind_tags,
        scope_words=scope_words,
        rules=rules,
        source=source,
    )


VOCABULARIES = ("icd10cm_diagnoses", "drug_names")


@cache
def vocabulary(name: str) -> frozenset[str]:
    """A term list shipped with govmem: lower-case terms of one to three words."""
    text = resources.files("govmem.governance").joinpath("vocabularies", f"{name}.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _vocabularies(data: dict[str, Any], known_tags: set[str], source: str) -> dict[str, tuple[str, ...]]:
    found = {}
    for tag, names in _table(data, "vocabularies", source).items():
        if tag not in known_tags:
            raise PolicyError(f"{source}: vocabularies names unknown tag {tag!r}")
        names = tuple(_strings(names, f"vocabularies.{tag}", source))
        bad = [n for n in names if n not in VOCABULARIES]
        if bad:
            raise PolicyError(
                f"{source}: vocabularies.{tag} names {bad[0]!r}, not one of {', '.join(VOCABULARIES)}"
            )
        found[tag] = names
    return found


def _qualified_subjects(data: dict[str, Any], source: str) -> dict[str, str]:
    found = {}
    for word, kind in _table(data, "qualified_subjects", source).items():
        if kind not in RESOURCE_KINDS:
            kinds = ", ".join(map(repr, RESOURCE_KINDS))
            raise PolicyError(f"{source}: qualified_subjects.{word} is {kind!r}, not one of {kinds}")
        if not re.fullmatch(r"[\w-]+", word):
            raise PolicyError(f"{source}: qualified_subjects key {word!r} is not a single word")
        found[word.lower()] = kind
    return found


def _rule(raw: Any, known_tags: set[str], source: str) -> Rule:
    if not isinstance(raw, dict):
        raise PolicyError(f"{source}: each [[rules]] entry must be a table")
    rule_id = raw.get("id")
    if not isinstance(rule_id, str) or not rule_id:
        raise PolicyError(f"{source}: a rule without an 'id'")
    where = f"{source}: rule {rule_id!r}"
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise PolicyError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    effect = raw.get("effect", "allow")
    if effect not in ("allow", "deny"):
        raise PolicyError(f"{where}: effect must be 'allow' or 'deny', not {effect!r}")
    requester = raw.get("requester", "any")
    if requester not in ("any", "subject"):
        raise PolicyError(f"{where}: requester must be 'any' or 'subject', not {requester!r}")
    about = raw.get("about", "any")
    if about not in ABOUT:
        raise PolicyError(f"{where}: about must be one of {', '.join(ABOUT)}, not {about!r}")
    if "tags" not in raw:
        raise PolicyError(f"{where}: 'tags' is required (use [\"*\"] for every tag)")
    roles = raw.get("roles")
    relationships = raw.get("relationship")
    about_roles = raw.get("about_roles")
    through_scope = _boolean(raw, "through_scope", where)
    if through_scope and relationships is None:
        raise PolicyError(f"{where}: through_scope needs a 'relationship'")
    return Rule(
        rule_id=rule_id,
        effect=effect,
        tags=_tags(raw["tags"], "tags", known_tags | {ANY}, where),
        requester_is_subject=requester == "subject",
        roles=None if roles is None or roles == [ANY] else frozenset(_strings(roles, "roles", where)),
        relationships=None
        if relationships is None
        else tuple(_strings(relationships, "relationship", where)),
        about="principal" if about_roles is not None and about == "any" else about,
        about_roles=None if about_roles is None else frozenset(_strings(about_roles, "about_roles", where)),
        through_scope=through_scope,
    )


def _boolean(data: dict, key: str, source: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise PolicyError(f"{source}: {key!r} must be true or false, not {value!r}")
    return value


def _string(data: dict, key: str, source: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise PolicyError(f"{source}: {key!r} must be a non-empty string")
    return value


def _table(data: dict, key: str, source: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise PolicyError(f"{source}: [{key}] must be a table")
    return value


def _strings(value: Any, what: str, source: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise PolicyError(f"{source}: {what!r} must be a list of non-empty strings")
    return value


def _tags_by_tag(data: dict, key: str, known: set[str], source: str) -> dict[str, frozenset[str]]:
    """A table from tags of the pack to tags of the pack (``subsumed_tags``, ``separable_tags``)."""
    table = {
        tag: _tags(value, f"{key}.{tag}", known, source) for tag, value in _table(data, key, source).items()
    }
    if not table.keys() <= known:
        raise PolicyError(f"{source}: {key} names unknown tag {sorted(table.keys() - known)[0]!r}")
    return table


def _tags(value: Any, what: str, known: set[str], source: str) -> frozenset[str]:
    tags = _strings(value, what, source)
    unknown = [t for t in tags if t not in known]
    if unknown:
        raise PolicyError(f"{source}: {what} names tag {unknown[0]!r}, which the pack does not define")
    return frozenset(tags)


def _patterns(tag: str, value: Any, source: str) -> re.Pattern[str]:
    if tag == GENERAL:
        raise PolicyError(f"{source}: tag 'general' is implicit (a sentence with no other tag)")
    patterns = _strings(value, f"tags.{tag}", source)
    try:
        return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
    except re.error as exc:
        raise PolicyError(f"{source}: tags.{tag} has a bad regular expression: {exc}") from None
