"""The four domain packs on the GateMem development episodes.

Each development episode is ingested into its own store under its domain's pack
(principal ids repeat across episodes for different people, e.g. ``labtech_erin``,
so episodes are never mixed). The relationships come from the episodes' entities
block, as the loader reads them. The tests then check, over every episode and every
relationship of a kind (never hand-picked turns), that the relationship opens what
the domain says it should and nothing more.

Sentences are picked by their stored label: a sentence *about* a subject is one
whose facets all name that subject. Decisions are checked twice: by the policy
engine, and on the read path (``export`` of turn memory, which redacts sentence by
sentence, and ``recall``).

Hidden checkpoint labels are never read here. The data is optional: without
``../shared/data/gatemem`` these tests skip.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path

import pytest

from govmem import Memory, Principal, Relationship, Turn, read_episodes
from govmem.governance.labeling import SAID_BY, Facet, said_by
from govmem.governance.policy_engine import Permissions
from govmem.governance.policy_pack import PolicyPack, scope_things
from govmem.governance.revocation.claim_supersession import deciding_sentences
from govmem.loaders.gatemem import Episode
from govmem.timestamps import normalize_timestamp
from statement_marks import current, sentence_around, squeeze, unmarked

SHARED_WORDING = "safe_wording"
SHARED_GATEMEM = Path(__file__).resolve().parents[3] / "shared" / "data" / "gatemem"
DOMAINS = ("medical", "office", "education", "household")

pytestmark = pytest.mark.skipif(
    not SHARED_GATEMEM.is_dir(), reason="the shared GateMem data is not beside the repo"
)

CLINICAL = frozenset({"clinical", "medication", "diagnosis", "procedure", "prep"})
LOGISTICS = frozenset({"scheduling", "location", "general"})


@dataclass(frozen=True)
class Sentence:
    """One labelled span of a stored turn."""

    turn_id: str
    speaker: str
    text: str
    facets: frozenset[Facet]
    start: int = 0
    """Where the span starts in its turn's text."""

    @property
    def subjects(self) -> frozenset[str]:
        return frozenset(subject for subject, tag in self.facets if not tag.startswith(SAID_BY))

    @property
    def tags(self) -> frozenset[str]:
        return frozenset(tag for _, tag in self.facets if not tag.startswith(SAID_BY))


@dataclass
class EpisodeStore:
    """One development episode in its own store, with its sentences as labelled."""

    episode: Episode
    memory: Memory
    _visible: dict[str, dict[str, str]] = field(default_factory=dict)
    _permissions: dict[str, Permissions] = field(default_factory=dict)

    @cached_property
    def at(self) -> str:
        """A moment after the last turn: every relationship and turn is in force."""
        return normalize_timestamp(self.episode.turns[-1].timestamp, "at")

    @cached_property
    def pack(self) -> PolicyPack:
        return self.memory.pack

    @cached_property
    def principals(self) -> dict[str, Principal]:
        return {p.principal_id: p for p in self.episode.principals}

    @cached_property
    def sentences(self) -> list[Sentence]:
        store = self.memory.store
        keys = store.turn_keys(self.episode.episode_id, [t.turn_id for t in self.episode.turns])
        turn_of = {key: turn_id for turn_id, key in keys.items()}
        labels = self.memory.engine.labels
        spans = store.turn_spans(keys.values())
        return [
            Sentence(turn_of[key], speaker, text[start:end], labels[label], start)
            for key, (speaker, text, parts) in sorted(spans.items())
            for start, end, label in parts
        ]

    @cached_property
    def superseded(self) -> dict[str, list[tuple]]:
        """Turn id -> its statements superseded by the last turn (cut or marked on reads)."""
        store = self.memory.store
        keys = store.turn_keys(self.episode.episode_id, [t.turn_id for t in self.episode.turns])
        turn_of = {key: turn_id for turn_id, key in keys.items()}
        at = self.at or "9999"  # undated episodes: everything recorded so far
        return {turn_of[k]: rows for k, rows in store.superseded_statements(keys.values(), at).items()}

    def current(self, sentence: Sentence, reader: str | None = None) -> str:
        """The span as a default read returns it to ``reader``: without statements
        superseded whole, with the others marked; a statement superseded by a turn the
        reader may not be told of is cut, not marked (the mark would tell of that turn):
        see :meth:`reads_change`."""
        rows = self.superseded.get(sentence.turn_id, ())
        if reader is not None:  # superseded in part by a turn the reader may not read: its sentence goes
            text = self.turn_texts[sentence.turn_id]
            rows = [
                row
                if row[5] or self.reads_change(reader, row[2])
                else (*sentence_around(text, *row[:2]), *row[2:5], True)
                for row in rows
            ]
        return current(sentence.text, rows, sentence.start)

    @cached_property
    def turn_texts(self) -> dict[str, str]:
        store = self.memory.store
        keys = store.turn_keys(self.episode.episode_id, [t.turn_id for t in self.episode.turns])
        spans = store.turn_spans(keys.values())
        return {turn_id: spans[key][1] for turn_id, key in keys.items() if key in spans}

    def reads_change(
        self, principal_id: str, turn_id: str | None, seen: frozenset[str] = frozenset()
    ) -> bool:
        """Whether a read may tell the requester that a turn changed something: the engine
        lets them read every span of it stating the change (its sentences holding a revising
        claim or naming what it replaces), and so (in turn) of every turn that superseded it
        or one of its statements. "The orientation is now May 1, 2026. That change does not
        modify Maya's file." tells of the change to whoever may read its first sentence."""
        if turn_id is None or turn_id in seen:
            return False
        text = self.turn_texts.get(turn_id, "")
        deciding = deciding_sentences(text)
        parts = [
            s
            for s in self.sentences
            if s.turn_id == turn_id and any(a < s.start + len(s.text) and s.start < b for a, b in deciding)
        ]
        if not (any(s.text.strip() for s in parts) and all(self.reads(principal_id, s) for s in parts)):
            return False
        later = {row[2] for row in self.superseded.get(turn_id, ())} | self.whole_successors.get(
            turn_id, set()
        )
        return all(self.reads_change(principal_id, t, seen | {turn_id}) for t in later)

    @cached_property
    def whole_successors(self) -> dict[str, set[str | None]]:
        """Turn id -> the turn that superseded it whole by the last turn."""
        store = self.memory.store
        keys = store.turn_keys(self.episode.episode_id, [t.turn_id for t in self.episode.turns])
        turn_of = {key: turn_id for turn_id, key in keys.items()}
        at = self.at or "9999"
        return {
            turn_of[key]: {row[3]}
            for key, row in store.validity_rows(keys.values()).items()
            if row[2] is not None and row[2] <= at
        }

    def is_current(self, sentence: Sentence, reader: str | None = None) -> bool:
        """Whether anything of the span is still served (not every word superseded whole)."""
        return bool(self.current(sentence, reader).strip())

    def relationships(self, *patterns: str) -> list[Relationship]:
        """The entities block's relationships of these types that are still in force after the
        last turn (access ended in conversation is checked by its own test)."""
        ended = {
            (r.type, r.principal_id, r.target_id)
            for r in self.memory.store.relationships()
            if not r.active_at(self.at)
        }
        return [
            r
            for r in self.episode.relationships
            if any(fnmatchcase(r.type, p) for p in patterns)
            and (r.type, r.principal_id, r.target_id) not in ended
        ]

    def with_role(self, *roles: str) -> list[str]:
        return [p.principal_id for p in self.episode.principals if p.role in roles]

    def related(self, principal_id: str, subject: str) -> bool:
        """Whether the entities block links the two in any direction or attribute."""
        for r in self.episode.relationships:
            ends = {r.principal_id, r.target_id} | {v for v in r.attributes.values() if isinstance(v, str)}
            if principal_id in ends and subject in ends:
                return True
        return False

    @cached_property
    def _about(self) -> dict[str, list[Sentence]]:
        index: dict[str, list[Sentence]] = {}
        for sentence in self.sentences:
            if len(sentence.subjects) == 1:
                index.setdefault(next(iter(sentence.subjects)), []).append(sentence)
        return index

    def about(self, subject: str, speaker_not: str = "") -> list[Sentence]:
        """Sentences all of whose facets name ``subject`` (not spoken by ``speaker_not``),
        except wording said to be shared (checked by its own test)."""
        return [
            s for s in self._about.get(subject, []) if s.speaker != speaker_not and not self.declassified(s)
        ]

    def declassified(self, sentence: Sentence) -> bool:
        """Wording said to be shared (its one tag, ``safe_wording``, is read by everyone)."""
        return bool(sentence.tags) and sentence.tags <= {SHARED_WORDING}

    def reads(self, principal_id: str, sentence: Sentence, at: str | None = None) -> bool:
        """The engine's decision for the sentence, for this requester, after the last turn
        (or at ``at``)."""
        if at is not None:
            principal = self.principals[principal_id]
            return self.memory.engine.permissions(principal, at).span(sentence.facets)[0]
        if principal_id not in self._permissions:
            principal = self.principals[principal_id]
            self._permissions[principal_id] = self.memory.engine.permissions(principal, self.at)
        return self._permissions[principal_id].span(sentence.facets)[0]

    def ended_at(self, r: Relationship) -> str | None:
        """When conversation ended this relationship of the entities block (None: it did not)."""
        for stored in self.memory.store.relationships(r.principal_id):
            if (stored.type, stored.principal_id, stored.target_id) == (r.type, r.principal_id, r.target_id):
                return stored.valid_until
        return None

    def visible(self, principal_id: str) -> dict[str, str]:
        """What ``export`` of turn memory shows the requester: turn id -> (redacted) text."""
        if principal_id not in self._visible:
            self._visible[principal_id] = {
                item.sources[0]: item.text
                for item in self.memory.export(principal_id, design="turn", as_of=self.at)
            }
        return self._visible[principal_id]

    def shown(self, principal_id: str, sentence: Sentence) -> bool:
        """Whether the span reaches the requester: as stored, or as a default read serves
        it (statements superseded whole cut; marks aside)."""
        visible = squeeze(unmarked(self.visible(principal_id).get(sentence.turn_id, "")))
        said = squeeze(unmarked(self.current(sentence, principal_id)))
        # a cut of the statement after it closes the sentence: "... review; exact ..." -> "... review."
        return squeeze(sentence.text).rstrip(";,") in visible or (bool(said) and said.rstrip(";,") in visible)

    def display_name(self, principal_id: str) -> str:
        """The display name without notes in parentheses ("Nina Reed (sister)" -> "Nina Reed")."""
        return re.sub(r"\s*\([^)]*\)", "", self.principals[principal_id].display_name).strip()


def unpunctuated(text: str) -> str:
    return squeeze(re.sub(r"[,;.]", " ", text))


@pytest.fixture(scope="module")
def gatemem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], list[EpisodeStore]]]:
    """Every development episode of a domain, each in its own store, loaded once per module."""
    loaded: dict[str, list[EpisodeStore]] = {}

    def load(domain: str) -> list[EpisodeStore]:
        if domain not in loaded:
            folder = tmp_path_factory.mktemp(domain)
            stores = []
            for number, episode in enumerate(read_episodes(SHARED_GATEMEM / domain / "episodes.jsonl")):
                memory = Memory(
                    str(folder / f"episode{number}.db"), policy=domain, detect_supersession="statements"
                )
                stores.append(EpisodeStore(episode, memory))
                memory.ingest_episodes([episode])
            loaded[domain] = stores
        return loaded[domain]

    yield load
    for stores in loaded.values():
        for store in stores:
            store.memory.close()


CASE_TEAM = (
    "advisor_for",
    "*_case_owner",
    "funding_case_owner",
    "faculty_reviewer_for",
    "committee_chair",
    "faculty_chair",
    "faculty_liaison",
)


def test_access_ended_in_conversation_reads_nothing_of_the_subject_afterwards(gatemem) -> None:
    checked = 0
    for store in gatemem("medical") + gatemem("office"):
        for r in store.memory.store.relationships():
            if r.valid_until is None or r.active_at(store.at):
                continue
            for sentence in store.about(r.target_id, speaker_not=r.principal_id):
                if r.principal_id not in sentence.subjects:
                    assert not store.reads(r.principal_id, sentence), (r, sentence)
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("domain", ["education", "household"])
def test_wording_said_to_be_shared_is_read_by_everyone(gatemem, domain: str) -> None:
    shared = 0
    for store in gatemem(domain):
        for sentence in store.sentences:
            if sentence.tags and store.declassified(sentence):
                # no figure but a clock time (household's audience-safe summaries), nothing exact or private
                assert not re.search(r"\d{3,}|\b(exact|restricted|internal|private)\b", sentence.text, re.I)
                assert all(store.reads(p, sentence) for p in store.principals), sentence
                shared += 1
    assert shared > 20


def relationship_cases(
    stores: Iterable[EpisodeStore], *patterns: str
) -> Iterator[tuple[EpisodeStore, Relationship]]:
    for store in stores:
        for relationship in store.relationships(*patterns):
            yield store, relationship


# every domain


@pytest.mark.parametrize("domain", DOMAINS)
def test_export_shows_exactly_the_sentences_the_engine_allows(gatemem, domain: str) -> None:
    """The read path and the engine agree, sentence by sentence, for every principal of an episode."""
    for store in gatemem(domain)[:1]:
        by_turn: dict[str, list[Sentence]] = {}
        for sentence in store.sentences:
            by_turn.setdefault(sentence.turn_id, []).append(sentence)
        for principal_id in store.principals:
            visible = store.visible(principal_id)
            for turn_id, sentences in by_turn.items():
                expected = "".join(
                    store.current(s, principal_id) for s in sentences if store.reads(principal_id, s)
                )
                # the punctuation a cut leaves is closed up on the whole turn, the oracle works by span
                assert unpunctuated(visible.get(turn_id, "")) == unpunctuated(expected), (
                    store.episode.episode_id,
                    principal_id,
                    turn_id,
                )


@pytest.mark.parametrize("domain", ["medical", "office", "education"])
def test_principals_without_rule_or_relationship_read_nothing_about_a_subject(gatemem, domain: str) -> None:
    """A principal whose role no rule names and who has no relationship to a subject (or
    to the owner of a case that is the subject) reads none of the subject's sentences but
    their own words. Resources nobody owns (public programmes) are shared in some packs."""
    pack = gatemem(domain)[0].pack
    role_rules = {role for rule in pack.rules if rule.roles for role in rule.roles}
    public = any(rule.about == "resource" and rule.effect == "allow" for rule in pack.rules)
    checked = 0
    for store in gatemem(domain):
        outsiders = [p for p, principal in store.principals.items() if principal.role not in role_rules]
        owners: dict[str, set[str]] = {}
        for r in store.episode.relationships:
            if pack.is_ownership(r.type):
                owners.setdefault(r.target_id, set()).add(r.principal_id)
        subjects = {s for sentence in store.sentences for s in sentence.subjects if s}
        for subject in subjects:
            if public and subject not in store.principals and subject not in owners:
                continue
            for outsider in outsiders:
                if outsider == subject or outsider in owners.get(subject, ()):
                    continue
                if any(store.related(outsider, s) for s in {subject} | owners.get(subject, set())):
                    continue
                for sentence in store.about(subject, speaker_not=outsider):
                    checked += 1
                    assert not store.reads(outsider, sentence), (outsider, sentence)
    assert checked > 3000


@pytest.mark.parametrize("domain", DOMAINS)
def test_only_a_speakers_own_assertions_are_marked_as_theirs(gatemem, domain: str) -> None:
    """The own-words facet names the sentence's speaker, and never marks a question."""
    marked = 0
    for store in gatemem(domain):
        for sentence in store.sentences:
            own = {tag.removeprefix(SAID_BY) for _, tag in sentence.facets if tag.startswith(SAID_BY)}
            assert own <= {sentence.speaker}, sentence
            if "?" in sentence.text:
                assert not own, sentence
            marked += bool(own)
    assert marked > 100


# medical: the care relationship decides


def test_assigned_clinician_reads_their_patients_clinical_sentences(gatemem) -> None:
    cases = list(relationship_cases(gatemem("medical"), "assigned_clinician"))
    assert len(cases) >= 10
    read = 0
    for store, r in cases:
        for sentence in store.about(r.target_id):
            if sentence.tags & CLINICAL:
                assert store.reads(r.principal_id, sentence), (r, sentence)
                assert store.shown(r.principal_id, sentence) or not store.is_current(
                    sentence, r.principal_id
                ), (
                    r,
                    sentence,
                )
                read += 1
    assert read > 300


def test_clinician_without_a_relationship_cannot_read_the_patients_clinical_sentences(gatemem) -> None:
    checked = 0
    for store, r in relationship_cases(gatemem("medical"), "assigned_clinician"):
        peers = [c for c in store.with_role("clinician") if not store.related(c, r.target_id)]
        for peer in peers:
            for sentence in store.about(r.target_id, speaker_not=peer):
                if sentence.tags & CLINICAL:
                    assert not store.reads(peer, sentence), (peer, sentence)
                    assert not store.shown(peer, sentence), (peer, sentence)
                    checked += 1
    assert checked > 300


def test_medication_question_is_answered_for_the_care_relationship_and_refused_outside_it(gatemem) -> None:
    """recall: the assigned clinician gets an answer; a clinician without a relationship to
    the patient and the patient's family member are refused from the query alone."""
    for store, r in relationship_cases(gatemem("medical"), "assigned_clinician"):
        query = f"What medication is {store.display_name(r.target_id)} taking, and at what dose?"
        answered = store.memory.recall(r.principal_id, query, as_of=store.at)
        assert answered.action == "answer" and answered.items, (r, query)
        outside = [c for c in store.with_role("clinician") if not store.related(c, r.target_id)]
        family = [f.principal_id for f in store.relationships("family_member") if f.target_id == r.target_id]
        for requester in outside + family:
            refused = store.memory.recall(requester, query, as_of=store.at)
            assert (refused.action, refused.items) == ("refuse", []), (requester, query)


def test_family_member_reads_logistics_but_not_clinical_sentences(gatemem) -> None:
    """Checked while the family access is in force (every development episode ends it later)."""
    cases = [
        (store, r)
        for store in gatemem("medical")
        for r in store.episode.relationships
        if r.type == "family_member"
    ]
    assert len(cases) >= 5
    for store, r in cases:
        end = store.ended_at(r)
        before = (datetime.fromisoformat(end) - timedelta(seconds=1)).isoformat() if end else None
        said_at = {t.turn_id: t.timestamp for t in store.episode.turns}
        scope = store.pack.scope_tags(r.attributes.get("access_level", "")) or LOGISTICS
        about = store.about(r.target_id, speaker_not=r.principal_id)
        logistics = [s for s in about if "scheduling" in s.tags and s.tags <= scope & LOGISTICS]
        clinical = [s for s in about if s.tags & CLINICAL]
        assert logistics and clinical, r
        for sentence in logistics:
            assert store.reads(r.principal_id, sentence, before), (r, sentence)
            if end is None and store.is_current(sentence, r.principal_id):
                assert store.shown(r.principal_id, sentence), (r, sentence)
            elif normalize_timestamp(said_at[sentence.turn_id], "t") >= end:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
        for sentence in clinical:
            assert not store.reads(r.principal_id, sentence, before), (r, sentence)
            assert not store.shown(r.principal_id, sentence), (r, sentence)
        if end is not None:
            continue
        name = store.display_name(r.target_id)
        appointment = store.memory.recall(
            r.principal_id, f"When is {name}'s next appointment?", as_of=store.at
        )
        assert appointment.action == "answer" and appointment.items, r
        medication = store.memory.recall(
            r.principal_id, f"Which medication does {name} take?", as_of=store.at
        )
        assert medication.action == "refuse", r


def test_covering_clinician_reads_within_the_coverage_scope_only(gatemem) -> None:
    cases = list(relationship_cases(gatemem("medical"), "covering_clinician"))
    assert len(cases) >= 5
    withheld = 0
    for store, r in cases:
        scope = store.pack.scope_tags(r.attributes.get("scope", "")) or CLINICAL | LOGISTICS
        about = store.about(r.target_id, speaker_not=r.principal_id)
        covered = [s for s in about if s.tags & CLINICAL and s.tags <= scope]
        assert covered, r
        for sentence in covered:
            assert store.reads(r.principal_id, sentence), (r, sentence)
        for sentence in about:
            if sentence.tags & {"billing", "contact", "credentials"} or not sentence.tags <= scope:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
                assert not store.shown(r.principal_id, sentence), (r, sentence)
                withheld += 1
    assert withheld > 200


# office: projects are resources their team owns


def test_project_team_reads_project_sentences_and_other_staff_do_not(gatemem) -> None:
    team = ("project_member", "budget_owner", "legal_reviewer", "executive_sponsor", "*_owner")
    checked_in = checked_out = 0
    for store in gatemem("office"):
        projects = {r.target_id for r in store.relationships("project_member")}
        assert len(projects) == 2
        for project in projects:
            members = {
                r.principal_id for r in store.relationships("project_member") if r.target_id == project
            }
            about = store.about(project)
            shared = [s for s in about if s.tags <= {"scheduling", "engineering", "general"}]
            assert shared, project
            for member in members:
                for sentence in shared:
                    if sentence.speaker != member:
                        assert store.reads(member, sentence), (member, sentence)
                        shown = store.shown(member, sentence) or not store.is_current(sentence, member)
                        assert shown, (member, sentence)
                        checked_in += 1
            linked = {
                r.principal_id for r in store.relationships(*team, "contractor_*") if r.target_id == project
            }
            outside = [
                p
                for p, principal in store.principals.items()
                if p not in linked and principal.role not in ("hr", "agent")
            ]
            assert outside
            for person in outside:
                for sentence in about:
                    if sentence.speaker != person:
                        assert not store.reads(person, sentence), (person, sentence)
                        checked_out += 1
            for person in outside[:3]:
                assert not any(store.shown(person, s) for s in about if s.speaker != person), person
    assert checked_in > 4000 and checked_out > 5000


def test_sibling_project_team_is_refused_the_other_projects_budget(gatemem) -> None:
    """recall: a member of one project asking for the other project's budget is refused."""
    for store in gatemem("office"):
        members = {}
        for r in store.relationships("project_member"):
            members.setdefault(r.target_id, []).append(r.principal_id)
        first, second = sorted(members)
        for asker, project in ((members[first][0], second), (members[second][0], first)):
            name = project.removeprefix("project_").replace("_", " ").title()
            result = store.memory.recall(asker, f"What is the approved budget for {name}?", as_of=store.at)
            assert (result.action, result.items) == ("refuse", []), (asker, project)
        insider = members[first][0]
        name = first.removeprefix("project_").replace("_", " ").title()
        result = store.memory.recall(insider, f"What is the current target date for {name}?", as_of=store.at)
        assert result.action == "answer" and result.items, (insider, first)


def test_contractor_reads_engineering_logistics_of_their_project_only(gatemem) -> None:
    secret = {"budget", "customer", "legal", "credentials", "security"}
    opened = withheld = 0
    for store, r in relationship_cases(gatemem("office"), "contractor_for_project"):
        about = store.about(r.target_id, speaker_not=r.principal_id)
        for sentence in about:
            if sentence.tags <= {"engineering", "scheduling", "general"}:
                assert store.reads(r.principal_id, sentence), (r, sentence)
                opened += 1
            elif sentence.tags & secret:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
                assert not store.shown(r.principal_id, sentence), (r, sentence)
                withheld += 1
        others = {x.target_id for x in store.relationships("project_member")} - {r.target_id}
        for project in others:
            for sentence in store.about(project, speaker_not=r.principal_id):
                assert not store.reads(r.principal_id, sentence), (r, sentence)
    assert opened > 700 and withheld > 400


def test_people_manager_reads_their_reports_hr_matters_and_peers_do_not(gatemem, tmp_path: Path) -> None:
    """The development episodes say nothing HR-tagged about a named employee, so each
    episode's principals and relationships get one HR note per report."""
    checked = 0
    for number, store in enumerate(gatemem("office")):
        with Memory(str(tmp_path / f"hr{number}.db"), policy="office") as memory:
            memory.add_principals(store.episode.principals)
            memory.add_relationships(store.episode.relationships)
            hr = store.with_role("hr")[0]
            for n, r in enumerate(store.relationships("people_manager")):
                note = f"{store.display_name(r.target_id)} has a performance review next week."
                memory.ingest(Turn(f"hr{n}", hr, note, "hr-notes", store.episode.turns[-1].timestamp))
                found = [i for i in memory.export(r.principal_id, design="turn") if i.text == note]
                assert found, r
                assert [i.text for i in memory.export(r.target_id, design="turn")].count(note) == 1
                peers = [
                    p
                    for p in store.principals
                    if p not in (r.principal_id, r.target_id, hr)
                    and store.principals[p].role not in ("hr", "agent")
                ]
                for peer in peers:
                    assert note not in [i.text for i in memory.export(peer, design="turn")], (peer, r)
                    checked += 1
    assert checked > 100


def test_health_is_personal_and_never_labels_a_project(gatemem) -> None:
    labelled = [s for store in gatemem("office") for s in store.sentences if "health" in s.tags]
    for sentence in labelled:
        assert not any(subject.startswith("project_") for subject in sentence.subjects), sentence


# education: students own their records; relationships open parts of them


def test_advisor_reads_their_students_academic_sentences(gatemem) -> None:
    read = 0
    for store, r in relationship_cases(gatemem("education"), "advisor_for"):
        academic = [
            s
            for s in store.about(r.target_id)
            if "academic" in s.tags and not s.tags & {"wellbeing", "credentials"}
        ]
        for sentence in academic:
            assert store.reads(r.principal_id, sentence), (r, sentence)
            assert store.shown(r.principal_id, sentence) or not store.is_current(sentence, r.principal_id), (
                r,
                sentence,
            )
            read += 1
    assert read > 120


def test_parent_reads_nothing_of_the_students_record_by_relationship_alone(gatemem) -> None:
    """As under FERPA: a parent of an adult student needs the student's release (a grant)."""
    withheld = 0
    for store, r in relationship_cases(gatemem("education"), "parent_of"):
        if store.memory.grants(r.principal_id):
            continue
        for sentence in store.about(r.target_id, speaker_not=r.principal_id):
            assert not store.reads(r.principal_id, sentence), (r, sentence)
            assert not store.shown(r.principal_id, sentence), (r, sentence)
            withheld += 1
    assert withheld > 300


def test_case_owners_read_their_office_part_of_the_record(gatemem) -> None:
    offices = {
        "registrar_case_owner": "academic",
        "financial_aid_case_owner": "financial_aid",
        "funding_case_owner": "financial_aid",
        "residence_case_owner": "housing",
    }
    read = 0
    for store, r in relationship_cases(gatemem("education"), *offices):
        tag = offices[r.type]
        part = {tag, "scheduling", "location", "general"}
        part &= store.pack.scope_tags(r.attributes.get("access_scope", "")) or part
        for sentence in store.about(r.target_id):
            if tag in sentence.tags and sentence.tags <= part:
                assert store.reads(r.principal_id, sentence), (r, sentence)
                read += 1
    assert read > 150


def test_nobody_but_the_student_case_team_counselling_and_the_agent_reads_wellbeing(gatemem) -> None:
    """Wellbeing is read by the student it is about (or whose case it is), the case team,
    counsellors and support relationships, and the agent; by no one else."""
    checked = 0
    for store in gatemem("education"):
        entitled = {
            r.principal_id for r in store.relationships("student_support", "support_staff", "support_role")
        }
        entitled |= {
            r.principal_id for r in store.relationships(*CASE_TEAM) if "access_scope" not in r.attributes
        }
        entitled |= set(store.with_role("counselor", "agent"))
        cases = store.relationships("*_case_subject")
        for sentence in store.sentences:
            if "wellbeing" not in sentence.tags or "" in sentence.subjects:
                continue
            owners = {r.principal_id for r in cases if r.target_id in sentence.subjects}
            for principal_id in store.principals:
                if principal_id == sentence.speaker or principal_id in sentence.subjects | owners:
                    continue
                if principal_id not in entitled:
                    assert not store.reads(principal_id, sentence), (principal_id, sentence)
                    checked += 1
    assert checked > 150


def test_the_case_team_reads_the_whole_record_of_their_student(gatemem) -> None:
    """Advisor, case owners of every office and the faculty running a case work the whole
    case (amounts, rooms, codes and status travel together); a scope still narrows it."""
    read = 0
    for store, r in relationship_cases(gatemem("education"), *CASE_TEAM):
        scope = store.pack.scope_tags(r.attributes.get("access_scope", ""))
        for sentence in store.about(r.target_id, speaker_not=r.principal_id):
            if scope is None or sentence.tags <= scope:
                assert store.reads(r.principal_id, sentence), (r, sentence)
                read += 1
            else:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
    assert read > 1000


def test_student_reads_the_case_that_is_about_them(gatemem) -> None:
    read = 0
    for store, r in relationship_cases(gatemem("education"), "*_case_subject"):
        for sentence in store.about(r.target_id):
            assert store.reads(r.principal_id, sentence), (r, sentence)
            read += 1
    assert read > 100


def test_scoped_support_staff_read_only_their_scope_of_a_case(gatemem) -> None:
    """it_support / building_access_support with access_scope credentials_only."""
    opened = withheld = 0
    for store, r in relationship_cases(gatemem("education"), "it_support", "building_access_support"):
        scope = store.pack.scope_tags(r.attributes["access_scope"])
        assert scope == {"credentials", "scheduling", "location"}  # a code, its validity, its door
        for sentence in store.about(r.target_id, speaker_not=r.principal_id):
            if sentence.tags <= scope:
                assert store.reads(r.principal_id, sentence), (r, sentence)
                opened += "credentials" in sentence.tags
            else:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
                withheld += 1
    assert opened > 5 and withheld > 250


def test_scheduling_delegate_never_reads_beyond_scheduling(gatemem) -> None:
    """Every topic but scheduling and general about the delegator is closed to the delegate
    (checked per facet: few development sentences about a delegator carry other topics)."""
    checked = 0
    for domain, kind in (("education", "delegate"), ("office", "executive_delegate")):
        for store, r in relationship_cases(gatemem(domain), kind):
            assert store.pack.scope_tags(r.attributes["access_scope"]) == {"scheduling", "general"}
            permissions = store.memory.engine.permissions(store.principals[r.principal_id], store.at)
            assert permissions.facet((r.target_id, "scheduling")).allowed
            for tag in sorted(store.pack.tags - {"scheduling", "general", SHARED_WORDING}):
                assert not permissions.facet((r.target_id, tag)).allowed, (r, tag)
                checked += 1
    assert checked > 10


# household: residents share the home; everyone else sees the logistics of their visit


THING_WORK = frozenset({"credentials", "scheduling", "location", "general"})
HELPERS = (
    "guest",
    "cleaner",
    "technician",
    "building_staff",
    "trusted_contact",
    "driver_pickup_contact",
    "home_it_helper",
    "household_manager",
    "nanny",
    "caregiver",
)


def test_the_primary_resident_reads_the_households_codes_and_other_adults_do_not(gatemem) -> None:
    """Codes are handed out by the primary resident; a partner, adult child or roommate
    reads only the codes that are about them (or that they asserted themselves)."""
    read = withheld = 0
    for store, r in relationship_cases(gatemem("household"), "household_member"):
        role = store.principals[r.principal_id].role
        if role == "minor_child":
            continue
        for sentence in store.sentences:
            if "credentials" not in sentence.tags:
                continue
            if role == "primary_resident":
                assert store.reads(r.principal_id, sentence), (r, sentence)
                read += 1
            elif r.principal_id not in sentence.subjects and said_by(r.principal_id) not in sentence.facets:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
                withheld += 1
    assert read > 200
    assert withheld > 200


def test_guests_and_service_roles_never_read_someone_elses_codes_or_private_notes(gatemem) -> None:
    withheld = 0
    for store in gatemem("household"):
        helpers = store.with_role(*HELPERS)
        assert helpers
        coordinated = {  # a delegate whose scope names a household thing runs it, codes and all
            r.principal_id: scope_things(r) for r in store.relationships("logistics_delegate")
        }
        for sentence in store.sentences:
            if not sentence.tags & {"credentials", "private", "health"}:
                continue
            for helper in helpers:
                if helper == sentence.speaker or sentence.subjects == {helper}:
                    continue
                if sentence.subjects <= coordinated.get(helper, frozenset()) and sentence.tags <= THING_WORK:
                    assert store.reads(helper, sentence), (helper, sentence)  # the codes of what they run
                    continue
                assert not store.reads(helper, sentence), (helper, sentence)
                withheld += 1
        for helper in helpers[:3]:
            for sentence in store.sentences:
                secret = sentence.tags & {"credentials", "private"}
                theirs = (
                    sentence.subjects <= coordinated.get(helper, frozenset()) and sentence.tags <= THING_WORK
                )
                if secret and helper != sentence.speaker and sentence.subjects != {helper} and not theirs:
                    assert not store.shown(helper, sentence), (helper, sentence)
    assert withheld > 2000


def test_minor_child_reads_their_own_logistics_but_not_the_households_codes(gatemem) -> None:
    opened = withheld = 0
    for store, r in relationship_cases(gatemem("household"), "household_member"):
        child = r.principal_id
        if store.principals[child].role != "minor_child":
            continue
        for sentence in store.about(child):
            if sentence.tags <= LOGISTICS:
                assert store.reads(child, sentence), sentence
                assert store.shown(child, sentence) or not store.is_current(sentence, child), sentence
                opened += 1
        for sentence in store.sentences:
            theirs = sentence.speaker != child and child not in sentence.subjects
            if theirs and sentence.tags & {"credentials", "private"}:
                assert not store.reads(child, sentence), sentence
                assert not store.shown(child, sentence), sentence
                withheld += 1
    assert opened > 30 and withheld > 100


def test_pickup_and_care_relationships_open_the_logistics_of_their_person(gatemem) -> None:
    opened = withheld = 0
    for store, r in relationship_cases(gatemem("household"), "pickup_authorized", "caregiver_for"):
        scope = store.pack.scope_tags(r.attributes.get("access_scope", "")) or LOGISTICS
        for sentence in store.about(r.target_id, speaker_not=r.principal_id):
            if sentence.tags <= scope & LOGISTICS:
                assert store.reads(r.principal_id, sentence), (r, sentence)
                opened += 1
            elif sentence.tags & {"credentials", "private", "health", "security"}:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
                withheld += 1
        for sentence in store.sentences:  # the codes of the household's things ("the Cedar Carpool phrase")
            theirs = sentence.subjects == {""} and sentence.speaker != r.principal_id
            if theirs and sentence.tags & {"credentials", "private"}:
                assert not store.reads(r.principal_id, sentence), (r, sentence)
                withheld += 1
    assert opened > 20 and withheld > 20
