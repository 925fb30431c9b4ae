"""The acceptance properties of access control (issue 3), checked with hypothesis.

1. No read path (recall, get, export, derived_from) ever returns a sentence the
   policy engine denies to the requester. The oracle is the engine's own decision
   on every stored span (``store.turn_spans`` + the engine's labels); every
   generated sentence carries a unique marker word (``qq007``), so each returned
   text can be traced back to the sentences it was built from.
2. A time-bounded grant works exactly inside [valid_from, valid_until).
3. Revoking consent takes effect on the next read, in the same ``Memory`` and in
   a second one opened on the same file.
4. A requester without access gets identical responses whether or not a
   protected record exists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govmem import Memory, Turn
from govmem.errors import InputError, NotVisible, PolicyError
from govmem.governance.authorization import utc_now
from govmem.governance.labeling import sentence_spans
from govmem.governance.policy_engine import PolicyEngine
from govmem.governance.revocation.claim_supersession import deciding_sentences
from govmem.models import Principal, Relationship
from govmem.read_path.recall import ACTIONS
from small_clinic import small_clinic
from statement_marks import squeeze, unmarked

MARKER = re.compile(r"\bqq\d{3}\b")
SESSION_PREFIX = re.compile(r"^\[[^\]]*\] \w+: ", re.MULTILINE)

# 1. no read path returns a denied sentence

PEOPLE = [
    ("ada", "Ada Moreno"),
    ("ben", "Ben Okafor"),
    ("cleo", "Cleo Varga"),
    ("dev", "Dev Patel"),
    ("eli", "Eli Brandt"),
    ("fay", "Fay Lindqvist"),
]
ROLES = [
    "patient",
    "patient",
    "clinician",
    "nurse",
    "pharmacist",
    "reception",
    "billing",
    "family_member",
    "social_worker",
    "visitor",
    "agent",
]
TOPICS = {  # a phrase per medical-pack tag
    "medication": "takes 5 mg warfarin daily",
    "diagnosis": "has a diagnosis of diabetes",
    "clinical": "reported chest pain",
    "scheduling": "has an appointment on Friday",
    "billing": "owes a copay",
    "location": "waits in the lobby",
    "contact": "changed the phone number",
    "general": "enjoyed the garden walk",
}
TAGS = [*TOPICS, "*"]
QUERIES = ["warfarin dose and diabetes", "appointment on Friday in the lobby", "copay phone number"]
YEAR = datetime(2024, 4, 1)


def moment(days: int) -> str:
    return (YEAR + timedelta(days=days)).isoformat(timespec="seconds")


@dataclass(frozen=True)
class World:
    principals: list[Principal]
    relationships: list[Relationship]
    grants: list[tuple]  # (grantor, grantee, subject, tags, valid_from, valid_until, revoke_at)
    turns: list[Turn]
    read_times: list[str | None]


@st.composite
def worlds(draw: st.DrawFn) -> World:
    people = draw(st.lists(st.sampled_from(PEOPLE), min_size=3, max_size=5, unique=True))
    principals = [Principal(pid, draw(st.sampled_from(ROLES)), name) for pid, name in people]
    ids = [p.principal_id for p in principals]
    window = st.one_of(
        st.none(), st.tuples(st.integers(0, 300), st.integers(1, 300)).map(lambda w: (w[0], w[0] + w[1]))
    )

    relationships = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["assigned_clinician", "covering_clinician", "family_member"]))
        who, target = draw(st.sampled_from(ids)), draw(st.sampled_from(ids))
        scope = draw(st.sampled_from([None, "scheduling only", "medication", "pickup logistics", "full"]))
        span = draw(window)
        relationships.append(
            Relationship(
                kind,
                who,
                target,
                {} if scope is None else {"access_level": scope},
                moment(span[0]) if span else None,
                moment(span[1]) if span else None,
            )
        )

    grants = []
    for _ in range(draw(st.integers(0, 4))):
        subject, grantee = draw(st.sampled_from(ids)), draw(st.sampled_from(ids))
        grantor = subject if draw(st.booleans()) else draw(st.sampled_from(ids))
        tags = tuple(draw(st.lists(st.sampled_from(TAGS), min_size=1, max_size=3, unique=True)))
        span = draw(window)
        revoke = draw(st.one_of(st.none(), st.integers(0, 400)))
        grants.append(
            (
                grantor,
                grantee,
                subject,
                tags,
                moment(span[0]) if span else None,
                moment(span[1]) if span else None,
                None if revoke is None else moment(revoke),
            )
        )

    names = {p.principal_id: p.display_name.split() for p in principals}
    turns, counter = [], 0
    for number in range(draw(st.integers(2, 8))):
        sentences = []
        for _ in range(draw(st.integers(1, 3))):
            mentioned = draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
            forms = [
                draw(st.sampled_from([" ".join(names[m]), names[m][0], names[m][-1]])) for m in mentioned
            ]
            who = " and ".join(forms) or "They"
            topic = " and ".join(
                TOPICS[t]
                for t in draw(st.lists(st.sampled_from(list(TOPICS)), min_size=1, max_size=2, unique=True))
            )
            counter += 1
            sentences.append(f"{who} {topic} qq{counter:03d}.")
        day = draw(st.integers(1, 3))
        turns.append(
            Turn(
                f"t{number}",
                draw(st.sampled_from(ids)),
                " ".join(sentences),
                timestamp=f"2024-03-0{day}T10:{number:02d}:00",
            )
        )
    read_times = [None, moment(draw(st.integers(-40, 420)))]
    return World(principals, relationships, grants, turns, read_times)


def build(world: World) -> Memory:
    memory = Memory(":memory:", policy="medical", detect_supersession="statements")  # reads cut and mark too
    memory.add_principals(world.principals)
    memory.add_relationships(world.relationships)
    memory.ingest_many(world.turns)
    for grantor, grantee, subject, tags, start, end, revoke_at in world.grants:
        try:
            grant = memory.grant(grantor, grantee, subject, tags, start, end)
        except PolicyError:
            continue  # a grantor who may not grant: rejected, as it should be
        if revoke_at is not None:
            memory.revoke(grant.grant_id, by=subject, at=revoke_at)
    return memory


@dataclass
class Oracle:
    """What the engine lets one requester read at one moment, sentence by sentence."""

    readable: dict[str, str]  # marker -> sentence
    denied: dict[str, str]  # also: sentences superseded whole (never served as current)
    turn_readable: dict[str, bool]  # turn id -> has a readable sentence
    turn_whole: dict[str, bool]  # turn id -> every sentence readable
    cut: dict[str, list[str]] = field(default_factory=dict)  # turn id -> its statements superseded whole

    @classmethod
    def of(cls, memory: Memory, requester: str, at: str) -> Oracle:
        engine = PolicyEngine(memory.pack, memory.store)  # fresh: shares no memo with the read path
        permissions = engine.permissions(memory.store.get_principal(requester), at)
        turns = [t for batch in memory.store.iter_turns() for t in batch]
        spans = memory.store.turn_spans([t.turn_key for t in turns])
        superseded = memory.store.superseded_statements([t.turn_key for t in turns], at)
        oracle = cls({}, {}, {}, {})
        whole_readable = {  # a superseding turn a reader may be told of: readable whole
            turn.turn.turn_id: bool(spans[turn.turn_key][1].strip())
            and all(permissions.span(engine.labels[label])[0] for *_, label in spans[turn.turn_key][2])
            for turn in turns
        }
        later: dict[str, set] = {t.turn.turn_id: set() for t in turns}
        for turn in turns:
            later[turn.turn.turn_id] |= {row[2] for row in superseded.get(turn.turn_key, ())}
        for key, row in memory.store.validity_rows([t.turn_key for t in turns]).items():
            if row[2] is not None and row[2] <= at:
                later[next(t.turn.turn_id for t in turns if t.turn_key == key)].add(row[3])

        def told(turn_id: str | None, seen: frozenset = frozenset()) -> bool:
            """A reader may be told of a turn they read whole whose own successors they may be told of."""
            if turn_id is None or turn_id in seen or not whole_readable.get(turn_id, False):
                return False
            return all(told(t, seen | {turn_id}) for t in later.get(turn_id, ()))

        def states_readable_changes(turn_key: int) -> bool:
            """Every sentence that can decide a supersession is readable."""
            _speaker, text, turn_spans = spans[turn_key]
            ranges = deciding_sentences(text)
            touched = [
                label for start, end, label in turn_spans if any(start < b and a < end for a, b in ranges)
            ]
            return bool(ranges) and all(permissions.span(engine.labels[label])[0] for label in touched)

        change_readable = {turn.turn.turn_id: states_readable_changes(turn.turn_key) for turn in turns}

        def change_told(turn_id: str | None, seen: frozenset = frozenset()) -> bool:
            """A reader may read the change a turn states, and of every turn that superseded it."""
            if turn_id is None or turn_id in seen or not change_readable.get(turn_id, False):
                return False
            return all(change_told(t, seen | {turn_id}) for t in later.get(turn_id, ()))

        for turn in turns:
            _speaker, text, turn_spans = spans[turn.turn_key]
            rows = superseded.get(turn.turn_key, ())
            cut = [text[a:b].strip() for a, b, *_, whole in rows if whole]
            cut += [  # superseded in part by a turn the reader may not be told of, nor read
                text[a:b].strip()  # the change of: its sentence goes
                for start, end, by, *_, whole in rows
                if not whole and not told(by) and not change_told(by)
                for a, b in sentence_spans(text)
                if a < end and start < b
            ]
            oracle.cut[turn.turn.turn_id] = cut
            verdicts = []
            for start, end, label in turn_spans:  # a span holds one or more generated sentences
                ok, _ = permissions.span(engine.labels[label])
                for s_start, s_end in sentence_spans(text[start:end]):
                    sentence = text[start + s_start : start + s_end].strip()
                    (marker,) = MARKER.findall(sentence)
                    if any(sentence in statement or statement in sentence for statement in cut):
                        oracle.denied[marker] = sentence  # superseded whole: never returned
                        continue
                    (oracle.readable if ok else oracle.denied)[marker] = sentence
                    verdicts.append(ok)
            oracle.turn_readable[turn.turn.turn_id] = any(verdicts)
            oracle.turn_whole[turn.turn.turn_id] = all(verdicts)
        return oracle

    def current(self, text: str, sources: Iterable[str]) -> str:
        """A readable object's text as a default read serves it: statements superseded whole left out."""
        for source in sources:
            for statement in self.cut.get(source, ()):
                text = text.replace(statement, "")
        return squeeze(SESSION_PREFIX.sub("", text))  # a turn left empty leaves its session window

    def check(self, text: str, sources: Iterable[str], where: str) -> None:
        text = unmarked(text)  # a statement superseded in part is served marked
        found = set(MARKER.findall(text))
        assert found, f"{where}: returned an item with no readable sentence: {text!r}"
        leaked = found - self.readable.keys()
        assert not leaked, f"{where}: returned denied sentences {sorted(leaked)}: {text!r}"
        for sentence in self.denied.values():
            assert sentence not in text, f"{where}: denied sentence {sentence!r} returned"
        rest = SESSION_PREFIX.sub("", text)
        for marker in sorted(found):
            rest = rest.replace(self.readable[marker], "")
        assert not rest.strip(), f"{where}: text beyond readable sentences: {rest!r}"
        for source in sources:
            assert self.turn_readable[source], f"{where}: names source {source} with nothing readable"

    def visible(self, sources: Iterable[str]) -> bool:
        return any(self.turn_readable[s] for s in sources)


@settings(max_examples=25, deadline=None)
@given(worlds())
def test_no_read_path_returns_a_denied_sentence(world: World) -> None:
    with build(world) as memory:
        every = memory.store.get_objects(memory.store.object_keys(0, 10_000))
        for principal in world.principals:
            me = principal.principal_id
            for as_of in world.read_times:
                oracle = Oracle.of(memory, me, as_of or utc_now())
                where = f"{me} ({principal.role}) as of {as_of}"
                for query in QUERIES:
                    result = memory.recall(me, query, as_of=as_of)
                    assert result.action in ACTIONS
                    for item in result.items:
                        oracle.check(item.text, item.sources, f"recall {query!r} by {where}")
                exported = {item.object_id: item for item in memory.export(me, as_of=as_of)}
                expected = {o.object_id for o in every.values() if oracle.visible(o.sources)}
                assert exported.keys() == expected, f"export by {where}"
                for item in exported.values():
                    oracle.check(item.text, item.sources, f"export by {where}")
                for obj in every.values():
                    if not oracle.visible(obj.sources):
                        with pytest.raises(NotVisible):
                            memory.get(me, obj.object_id, as_of=as_of)
                        continue
                    item = memory.get(me, obj.object_id, as_of=as_of)
                    oracle.check(item.text, item.sources, f"get {obj.object_id} by {where}")
                    if all(oracle.turn_whole[s] for s in obj.sources):
                        # not redacted; only what the episode itself superseded is left out or marked
                        served = squeeze(SESSION_PREFIX.sub("", unmarked(item.text)))
                        assert served == oracle.current(obj.text, obj.sources), (
                            "a fully readable object must not be redacted"
                        )
            oracle = Oracle.of(memory, me, utc_now())
            for turn in world.turns:
                try:
                    derived = memory.derived_from(me, turn.turn_id)
                except InputError:  # nothing of it is readable: reported like a missing turn
                    derived = []
                    assert not oracle.turn_readable[turn.turn_id]
                for obj in derived:
                    oracle.check(obj.text, obj.sources, f"derived_from {turn.turn_id} by {me}")
                if not oracle.turn_readable[turn.turn_id]:
                    assert all(turn.turn_id not in obj.sources for obj in derived)


# 2. a time-bounded grant works exactly inside its interval

WARFARIN = "Ada takes 5 mg warfarin daily."


def clinic(path: str = ":memory:") -> Memory:
    memory = Memory(path, policy="medical")
    memory.add_principals(
        [
            Principal("ada", "patient", "Ada Moreno"),
            Principal("lee", "clinician", "Dr. Lee"),
            Principal("kit", "visitor", "Kit Brown"),
        ]
    )
    memory.add_relationship("assigned_clinician", "lee", "ada")
    memory.ingest(Turn("t1", "lee", WARFARIN, timestamp="2023-12-01T09:00:00"))
    return memory


def sees(memory: Memory, who: str, as_of: str | None = None) -> dict[str, bool]:
    """Whether ``who`` receives the warfarin sentence, per read surface."""
    (turn_object,) = [o for o in memory.derived_from("lee", "t1") if o.kind == "turn"]
    try:
        got = WARFARIN in memory.get(who, turn_object.object_id, as_of=as_of).text
    except NotVisible:
        got = False
    recalled = memory.recall(who, "warfarin dose", as_of=as_of)
    return {
        "get": got,
        "recall": any(WARFARIN in item.text for item in recalled.items),
        "export": any(WARFARIN in item.text for item in memory.export(who, as_of=as_of)),
    }


def everywhere(flag: bool) -> dict[str, bool]:
    return {"get": flag, "recall": flag, "export": flag}


SECOND = timedelta(seconds=1)


@settings(max_examples=20, deadline=None)
@given(
    start=st.datetimes(datetime(2024, 1, 1), datetime(2030, 1, 1)).map(lambda d: d.replace(microsecond=0)),
    length=st.integers(1, 3 * 365 * 24 * 3600),
    consent=st.booleans(),
)
def test_time_bounded_grant_works_exactly_inside_its_interval(
    start: datetime, length: int, consent: bool
) -> None:
    end = start + timedelta(seconds=length)
    with clinic() as memory:
        grantor = "ada" if consent else "lee"  # consent, or a grant by the assigned clinician
        memory.grant(grantor, "kit", "ada", ["medication"], start.isoformat(), end.isoformat())
        for at, inside in [
            (start - SECOND, False),
            (start, True),
            (end - SECOND, True),
            (end, False),
        ]:
            assert sees(memory, "kit", at.isoformat()) == everywhere(inside), f"as of {at}"


# 3. revoking consent takes effect on the next read


def test_revoking_consent_takes_effect_on_the_next_read(tmp_path: Path) -> None:
    path = str(tmp_path / "clinic.db")
    with clinic(path) as first:
        grant = first.consent("ada", "kit", ["medication"])
        with Memory(path) as second:
            assert sees(first, "kit") == everywhere(True)
            assert sees(second, "kit") == everywhere(True)
            assert [o.kind for o in second.derived_from("kit", "t1")] == ["turn", "session"]

            first.revoke(grant.grant_id, by="ada")
            assert sees(first, "kit") == everywhere(False)
            assert sees(second, "kit") == everywhere(False)
            with pytest.raises(InputError, match="no turn 't1'"):
                second.derived_from("kit", "t1")

            # and the other way round: consent and revocation through the second store
            again = second.consent("ada", "kit", ["medication"])
            assert sees(first, "kit") == everywhere(True)
            second.revoke(again.grant_id, by="ada")
            assert sees(first, "kit") == everywhere(False)
            with pytest.raises(InputError, match="no turn 't1'"):
                first.derived_from("kit", "t1")
            # the revocation touched only the grantee: the clinician still reads it
            assert sees(second, "lee") == everywhere(True)


def test_revoked_consent_still_shows_in_reads_as_of_before_it() -> None:
    with clinic() as memory:
        grant = memory.consent("ada", "kit", ["medication"], valid_from="2024-01-01T00:00:00")
        memory.revoke(grant.grant_id, by="ada", at="2025-01-01T00:00:00")
        assert sees(memory, "kit", "2024-12-31T23:59:59") == everywhere(True)
        assert sees(memory, "kit", "2025-01-01T00:00:00") == everywhere(False)
        assert sees(memory, "kit") == everywhere(False)


# 4. identical responses for refused-existing and refused-nonexistent items

BASE = [
    Turn("b1", "rex", "Parking is in the garage behind the lobby.", timestamp="2024-03-01T09:00:00"),
    Turn("b2", "lee", "Ada has an appointment on Friday at 10 am.", timestamp="2024-03-01T09:05:00"),
    Turn("b3", "rex", "Ben changed his phone number.", timestamp="2024-03-01T09:10:00"),
    Turn("b4", "lee", "Ben reported chest pain after the walk.", timestamp="2024-03-01T09:15:00"),
    Turn("b5", "rex", "The clinic opens at 9 am on Monday.", timestamp="2024-03-01T09:20:00"),
]
PROTECTED = {
    "medication": "{name} takes 5 mg warfarin daily.",
    "billing": "{name} owes a copay of forty dollars.",
    "diagnosis": "{name} has a diagnosis of diabetes.",
}
EXISTENCE_QUERIES = [
    "warfarin dose",
    "What is {name}'s warfarin dose?",
    "Does {name} owe a copay?",
    "diabetes diagnosis",
    "appointment on Friday",
    "What did {name} say?",
    "clinic opens Monday",
]


def base_store() -> Memory:
    return small_clinic(BASE, lee_treats_ben=True)


def with_protected(tag: str, name: str, day: str = "2024-03-02") -> Memory:
    """The base store plus one protected record, said on its own day (its own session)."""
    memory = base_store()
    text = PROTECTED[tag].format(name=name)
    memory.ingest(Turn("p1", "lee", text, timestamp=f"{day}T08:00:00"))
    return memory


def engine_denies(memory: Memory, requester: str, turn_id: str) -> bool:
    """Whether the engine denies every sentence of the turn to the requester."""
    engine = PolicyEngine(memory.pack, memory.store)
    permissions = engine.permissions(memory.store.get_principal(requester), utc_now())
    (key,) = memory.store.turn_keys("default", [turn_id]).values()
    _speaker, _, spans = memory.store.turn_spans([key])[key]
    return not any(permissions.span(engine.labels[label])[0] for _, _, label in spans)


def without_scores(result) -> dict:
    data = result.to_dict()
    for item in data["items"]:
        item.pop("scores")
    return data


@settings(max_examples=20, deadline=None)
@given(
    tag=st.sampled_from(sorted(PROTECTED)),
    subject=st.sampled_from([("ada", "Ada"), ("ben", "Ben Okafor")]),
    requester=st.sampled_from(["fay", "rex", "kit"]),
    query=st.sampled_from(EXISTENCE_QUERIES),
)
def test_refused_existing_and_nonexistent_records_look_the_same(
    tag: str, subject: tuple[str, str], requester: str, query: str
) -> None:
    question = query.format(name=subject[1])
    with base_store() as without, with_protected(tag, subject[1]) as holding:
        assert engine_denies(holding, requester, "p1")  # the premise: the record is protected
        protected_ids = [o.object_id for o in holding.derived_from("lee", "p1")]
        assert len(protected_ids) == 2  # its turn object and its session window

        there, absent = holding.recall(requester, question), without.recall(requester, question)
        assert there.action == absent.action
        assert there.decision == absent.decision
        assert without_scores(there) == without_scores(absent)
        assert list(holding.export(requester)) == list(without.export(requester))
        # get: exists-but-denied and does-not-exist raise the same error, naming id and requester only
        for object_id in [*protected_ids, "turn-999"]:
            with pytest.raises(NotVisible) as denied:
                holding.get(requester, object_id)
            with pytest.raises(NotVisible) as missing:
                without.get(requester, object_id)
            assert type(denied.value) is type(missing.value)
            assert str(denied.value) == str(missing.value)
            assert str(denied.value) == f"no memory object {object_id!r} for {requester!r}"


def test_refusal_from_the_query_alone() -> None:
    with base_store() as without, with_protected("medication", "Ada") as holding:
        for requester in ("fay", "rex", "kit"):
            there = holding.recall(requester, "What is Ada's warfarin dose?")
            absent = without.recall(requester, "What is Ada's warfarin dose?")
            assert there.action == "refuse"
            assert there.to_dict() == absent.to_dict()
            assert there.items == []


def test_recall_scores_do_not_reveal_a_protected_record() -> None:
    with base_store() as without, with_protected("medication", "Ada") as holding:
        for requester in ("fay", "rex", "kit"):
            for query in ("clinic opens Monday", "appointment on Friday", "warfarin dose"):
                assert (
                    holding.recall(requester, query).to_dict() == without.recall(requester, query).to_dict()
                )


def test_a_protected_record_in_a_shared_session_is_redacted_out() -> None:
    with base_store() as memory:
        memory.ingest(Turn("p1", "lee", "Ada takes 5 mg warfarin daily.", timestamp="2024-03-01T09:30:00"))
        for requester in ("fay", "rex", "kit"):
            for query in ("warfarin", "appointment on Friday"):
                for item in memory.recall(requester, query).items:
                    assert "warfarin" not in item.text
                    assert "p1" not in item.sources


@pytest.mark.parametrize(
    "query", ["warfarin", "zyloprim", "Ada's medication", "appointment on Friday", "parking garage"]
)
def test_what_a_requester_cannot_read_does_not_move_what_they_can(query: str) -> None:
    """Two stores differ only in the words of one sentence nobody here may read: every
    requester gets the same recall from both, for queries on either hidden word. The
    index matches a session window by its hidden sentence and its vector includes it;
    ranking again on the readable text must cancel both."""

    def store(hidden: str) -> Memory:
        memory = base_store()
        memory.ingest(Turn("p1", "lee", hidden, timestamp="2024-03-01T09:30:00"))  # inside the base session
        return memory

    with store("Ada takes 5 mg warfarin daily.") as one, store("Ada takes 100 mg zyloprim nightly.") as other:
        for requester in ("fay", "rex", "kit"):
            assert engine_denies(one, requester, "p1") and engine_denies(other, requester, "p1")
            assert one.recall(requester, query).to_dict() == other.recall(requester, query).to_dict()


def test_a_redacted_window_does_not_show_when_the_hidden_turn_was_said() -> None:
    with base_store() as memory:
        memory.ingest(Turn("p1", "lee", "Ada takes 5 mg warfarin daily.", timestamp="2024-03-01T11:45:00"))
        for item in memory.export("kit"):
            assert item.observed_at != "2024-03-01T11:45:00", item


@pytest.mark.xfail(
    strict=True,
    reason="a session window holding a protected turn is a different object (its id comes from a "
    "global counter, its vector is the mean of all its turns, its lexical entry holds the hidden "
    "text), so the same permitted content comes back with another id and other scores",
)
def test_a_protected_turn_inside_a_permitted_window_leaves_no_trace() -> None:
    hidden = Turn("p1", "lee", "Ada takes 5 mg warfarin daily.", timestamp="2024-03-01T09:30:00")
    with base_store() as without, Memory(":memory:", policy="medical") as holding:
        holding.add_principals(without.store.principals())
        holding.add_relationships(without.store.relationships())
        holding.ingest_many([*BASE, hidden])
        assert holding.recall("kit", "appointment on Friday").to_dict() == (
            without.recall("kit", "appointment on Friday").to_dict()
        )


def test_derived_from_a_hidden_turn_looks_like_a_missing_one() -> None:
    with with_protected("medication", "Ada") as memory:
        try:
            hidden = ("ok", memory.derived_from("kit", "p1"))
        except Exception as exc:
            hidden = (type(exc).__name__, str(exc).replace("p1", "ID"))
        try:
            missing = ("ok", memory.derived_from("kit", "p9"))
        except Exception as exc:
            missing = (type(exc).__name__, str(exc).replace("p9", "ID"))
        assert hidden == missing
