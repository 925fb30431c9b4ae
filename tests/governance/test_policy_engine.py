"""The policy engine: evaluation order, relationships, scopes, time, grants and consent."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from govmem import Memory, Turn
from govmem.errors import NotVisible, PolicyError, UnknownPrincipal
from govmem.governance.policy_engine import DEFAULT_DENY, Permissions, PolicyEngine
from govmem.governance.policy_pack import parse_pack
from govmem.models import Grant, Principal, Relationship

ORDER_PACK = """
name = "order"
subject_roles = ["patient"]
unnamed_subject = ["speaker"]

[tags]
meds = ['\\bwarfarin\\b']
sched = ['\\bfriday\\b']
pay = ['\\bcopay\\b']

[scope_words]
scheduling = ["sched", "general"]

[[rules]]
id = "own"
requester = "subject"
tags = ["*"]

[[rules]]
id = "temps"
roles = ["temp"]
tags = ["*"]

[[rules]]
id = "no-meds-for-temps"
effect = "deny"
roles = ["temp"]
tags = ["meds"]

[[rules]]
id = "family"
relationship = ["family_*"]
tags = ["meds", "sched", "general"]

[[rules]]
id = "desk"
roles = ["desk"]
about_roles = ["patient"]
tags = ["sched"]

[[rules]]
id = "shared"
about = "nothing"
tags = ["sched", "general"]

[[rules]]
id = "projects"
roles = ["desk"]
about = "resource"
tags = ["pay"]
"""
PACK = parse_pack(ORDER_PACK, "order.toml")
ROLES = {"ada": "patient", "ben": "patient", "tim": "temp", "fay": "family", "dot": "desk", "sam": "stranger"}


def permissions(who: str, relationships=(), grants=()) -> Permissions:
    return Permissions(
        Principal(who, ROLES[who]), "2024-01-01T00:00:00", PACK, ROLES, list(relationships), list(grants)
    )


def consent(subject: str, grantee: str, tags: tuple[str, ...], grant_id: int = 7) -> Grant:
    return Grant(subject, grantee, subject, tags, grant_id=grant_id)


def decision(p: Permissions, subject: str, tag: str) -> tuple[bool, str]:
    d = p.facet((subject, tag))
    return d.allowed, d.rule


# evaluation order


def test_default_deny() -> None:
    assert decision(permissions("sam"), "ada", "meds") == (False, DEFAULT_DENY)
    assert decision(permissions("sam"), "ada", "general") == (False, DEFAULT_DENY)


def test_own_information() -> None:
    assert decision(permissions("ada"), "ada", "meds") == (True, "own")
    assert decision(permissions("ada"), "ben", "meds") == (False, DEFAULT_DENY)


def test_deny_rule_beats_allow_rule() -> None:
    temp = permissions("tim")
    assert decision(temp, "ada", "meds") == (False, "no-meds-for-temps")
    assert decision(temp, "ada", "sched") == (True, "temps")


def test_grant_beats_deny_rule() -> None:
    temp = permissions("tim", grants=[consent("ada", "tim", ("meds",))])
    assert decision(temp, "ada", "meds") == (True, "consent:7")
    assert decision(temp, "ben", "meds") == (False, "no-meds-for-temps")  # only the grant's subject


def test_grant_covers_its_tags_and_general_only() -> None:
    stranger = permissions("sam", grants=[Grant("lee", "sam", "ada", ("sched",), grant_id=3)])
    assert decision(stranger, "ada", "sched") == (True, "grant:3")
    assert decision(stranger, "ada", "general") == (True, "grant:3")
    assert decision(stranger, "ada", "meds") == (False, DEFAULT_DENY)
    everything = permissions("sam", grants=[consent("ada", "sam", ("*",))])
    assert decision(everything, "ada", "pay") == (True, "consent:7")


def test_about_roles_and_about_kinds() -> None:
    desk = permissions("dot")
    assert decision(desk, "ada", "sched") == (True, "desk")
    assert decision(desk, "tim", "sched") == (False, DEFAULT_DENY)  # tim is not a patient
    assert decision(desk, "", "sched") == (True, "shared")  # about nothing
    assert decision(desk, "", "meds") == (False, DEFAULT_DENY)
    assert decision(desk, "project_x", "pay") == (True, "projects")  # about a resource
    assert decision(desk, "ada", "pay") == (False, DEFAULT_DENY)


def test_relationship_rule_needs_a_relationship_to_that_subject() -> None:
    fay = permissions("fay", relationships=[Relationship("family_member", "fay", "ada")])
    assert decision(fay, "ada", "meds") == (True, "family")
    assert decision(fay, "ben", "meds") == (False, DEFAULT_DENY)


# relationships and scopes


def test_relationship_types_match_by_glob() -> None:
    fay = permissions("fay", relationships=[Relationship("family_of", "fay", "ada")])
    assert decision(fay, "ada", "meds")[0]
    fay = permissions("fay", relationships=[Relationship("friend_of", "fay", "ada")])
    assert not decision(fay, "ada", "meds")[0]


@pytest.mark.parametrize("attribute", ["access_scope", "access_level", "scope", "service_scope"])
def test_scope_attribute_restricts_a_relationship_to_its_tags(attribute: str) -> None:
    scoped = Relationship("family_member", "fay", "ada", {attribute: "scheduling_only"})
    fay = permissions("fay", relationships=[scoped])
    assert decision(fay, "ada", "sched") == (True, "family")
    assert decision(fay, "ada", "general") == (True, "family")
    assert decision(fay, "ada", "meds") == (False, DEFAULT_DENY)


def test_scope_without_known_words_does_not_restrict() -> None:
    fay = permissions("fay", relationships=[Relationship("family_member", "fay", "ada", {"scope": "full"})])
    assert decision(fay, "ada", "meds") == (True, "family")


def test_scope_of_one_relationship_does_not_narrow_another() -> None:
    rels = [
        Relationship("family_member", "fay", "ada", {"scope": "scheduling"}),
        Relationship("family_other", "fay", "ada"),
    ]
    assert decision(permissions("fay", relationships=rels), "ada", "meds") == (True, "family")


def test_scope_never_widens_the_rule() -> None:
    # the scope allows general and sched, but the rule does not allow pay in any case
    scoped = Relationship("family_member", "fay", "ada", {"scope": "scheduling"})
    assert not decision(permissions("fay", relationships=[scoped]), "ada", "pay")[0]


# own words give no right


def test_having_said_something_gives_no_right_to_read_it_back() -> None:
    stranger = permissions("sam")
    assert stranger.span([("ada", "meds")]) == (False, (DEFAULT_DENY,))
    assert stranger.span([("sam", "meds")])[0]  # but what is about them, they read


def test_span_is_denied_when_any_facet_is_denied() -> None:
    temp = permissions("tim")
    ok, rules = temp.span([("ada", "sched"), ("ada", "meds")])
    assert not ok and rules == ("no-meds-for-temps",)
    assert temp.span([("ada", "sched"), ("", "general")]) == (True, ("temps",))
    desk = permissions("dot")
    assert desk.span([("ada", "sched"), ("", "general")]) == (True, ("desk", "shared"))


def test_readable_labels_need_one_readable_facet() -> None:
    labels = {
        1: frozenset({("ada", "meds"), ("ada", "sched")}),
        2: frozenset({("ada", "meds")}),
        3: frozenset({("sam", "meds")}),
        4: frozenset({("sam", "meds"), ("ada", "meds")}),
    }
    assert permissions("tim").readable_labels(labels) == {1}
    assert permissions("sam").readable_labels(labels) == {3, 4}


# the engine over a store: time, relationships, grants


@pytest.fixture
def clinic(tmp_path: Path):
    path = tmp_path / "order.toml"
    path.write_text(ORDER_PACK, encoding="utf-8")
    with Memory(":memory:", policy=str(path)) as memory:
        memory.add_principals(Principal(p, role, p.title()) for p, role in ROLES.items())
        memory.ingest(Turn("t1", "ada", "Ada takes warfarin.", timestamp="2024-01-01T08:00:00"))
        yield memory


def can_read(memory: Memory, who: str, at: str, tag: str = "meds", subject: str = "ada") -> bool:
    return memory.engine.permissions(memory.store.get_principal(who), at).facet((subject, tag)).allowed


def test_relationship_validity_window(clinic: Memory) -> None:
    clinic.add_relationships(
        [Relationship("family_member", "fay", "ada", {}, "2024-03-01T00:00:00", "2024-04-01T00:00:00")]
    )
    assert not can_read(clinic, "fay", "2024-02-29T23:59:59")
    assert can_read(clinic, "fay", "2024-03-01T00:00:00")
    assert can_read(clinic, "fay", "2024-03-31T23:59:59")
    assert not can_read(clinic, "fay", "2024-04-01T00:00:00")


def test_relationship_window_with_an_offset_is_applied_in_utc(clinic: Memory) -> None:
    clinic.add_relationships(
        [Relationship("family_member", "fay", "ada", {}, None, "2024-06-01T12:00:00+02:00")]
    )
    assert can_read(clinic, "fay", "2024-06-01T09:59:59")
    assert not can_read(clinic, "fay", "2024-06-01T11:00:00")  # ended at 10:00 UTC


def test_new_relationship_applies_to_the_next_decision(clinic: Memory) -> None:
    assert not can_read(clinic, "fay", "2024-01-02T00:00:00")
    clinic.add_relationship("family_member", "fay", "ada")
    assert can_read(clinic, "fay", "2024-01-02T00:00:00")
    clinic.add_relationship("family_member", "fay", "ada", access_level="scheduling only")
    assert not can_read(clinic, "fay", "2024-01-02T00:00:00")  # the new scope replaces the old
    assert can_read(clinic, "fay", "2024-01-02T00:00:00", "sched")


def test_relationship_towards_the_requester_gives_nothing(clinic: Memory) -> None:
    clinic.add_relationship("family_member", "ada", "fay")  # ada is fay's family, not the reverse
    assert not can_read(clinic, "fay", "2024-01-02T00:00:00")


def test_rule_allows_ignores_grants(clinic: Memory) -> None:
    clinic.consent("ada", "sam", ["meds"])
    sam = clinic.store.get_principal("sam")
    assert can_read(clinic, "sam", "2030-01-01T00:00:00")
    assert not clinic.engine.rule_allows(sam, "ada", ["meds"], "2030-01-01T00:00:00")
    tim = clinic.store.get_principal("tim")
    assert clinic.engine.rule_allows(tim, "ada", ["sched"], "2030-01-01T00:00:00")
    assert not clinic.engine.rule_allows(tim, "ada", ["*"], "2030-01-01T00:00:00")


# grants: validation


def test_grant_with_an_unknown_tag(clinic: Memory) -> None:
    with pytest.raises(PolicyError, match=r"tag 'billing' is not defined by policy pack 'order' \(it has "):
        clinic.consent("ada", "sam", ["billing"])


def test_grantor_who_cannot_read_may_not_grant(clinic: Memory) -> None:
    with pytest.raises(PolicyError, match=r"'sam' may not grant access to 'ada' on \['meds'\]"):
        clinic.grant("sam", "sam", "ada", ["meds"])
    with pytest.raises(PolicyError, match="may not grant"):
        clinic.grant("tim", "sam", "ada", ["meds"])  # denied to temps by a deny rule
    assert clinic.grants("sam") == []


def test_an_entitled_grantor_may_grant_what_they_read(clinic: Memory) -> None:
    clinic.add_relationship("family_member", "fay", "ada")
    grant = clinic.grant("fay", "sam", "ada", ["meds"])
    assert not grant.is_consent and grant.grant_id is not None
    assert can_read(clinic, "sam", "2030-01-01T00:00:00")


def test_a_grant_cannot_be_relayed(clinic: Memory) -> None:
    clinic.consent("ada", "sam", ["meds"])
    with pytest.raises(PolicyError, match="may not grant"):
        clinic.grant("sam", "dot", "ada", ["meds"])  # sam reads it only through a grant


@pytest.mark.parametrize(
    ("start", "end"),
    [("2024-05-01T00:00:00", "2024-04-01T00:00:00"), ("2024-05-01T00:00:00", "2024-05-01T00:00:00")],
)
def test_grant_that_ends_before_it_starts(clinic: Memory, start: str, end: str) -> None:
    with pytest.raises(PolicyError, match=r"grant ends \(.*\) before it starts"):
        clinic.consent("ada", "sam", ["meds"], valid_from=start, valid_until=end)


def test_grant_window_is_normalised_to_utc(clinic: Memory) -> None:
    grant = clinic.consent(
        "ada", "sam", ["meds"], valid_from="2024-05-01T12:00:00+02:00", valid_until="2024-05-02T00:00:00Z"
    )
    assert (grant.valid_from, grant.valid_until) == ("2024-05-01T10:00:00", "2024-05-02T00:00:00")
    assert not can_read(clinic, "sam", "2024-05-01T09:59:59")
    assert can_read(clinic, "sam", "2024-05-01T10:00:00")


def test_grant_needs_known_principals_and_a_subject(clinic: Memory) -> None:
    with pytest.raises(UnknownPrincipal):
        clinic.consent("ada", "nobody", ["meds"])
    with pytest.raises(UnknownPrincipal):
        clinic.grant("nobody", "sam", "ada", ["meds"])
    with pytest.raises(PolicyError, match="needs a subject"):
        clinic.grant("ada", "sam", "", ["meds"])


def test_grants_are_recorded_as_governance_events(clinic: Memory) -> None:
    grant = clinic.consent("ada", "sam", ["meds"], valid_until="2030-01-01T00:00:00")
    clinic.revoke(grant.grant_id, by="ada", at="2029-01-01T00:00:00")
    events = [e for e in clinic.store.events() if e["kind"] in ("grant", "consent", "revoke")]
    assert [(e["kind"], e["source"]) for e in events] == [("consent", "api"), ("revoke", "api")]
    assert events[0]["payload"]["tags"] == ["meds"]
    assert events[1]["payload"] == {"grant_id": grant.grant_id, "by": "ada"}


def test_an_empty_tag_grant_gives_a_stranger_nothing(clinic: Memory) -> None:
    clinic.ingest(Turn("t2", "ada", "I am so worried about my brother.", timestamp="2024-01-01T08:05:00"))
    turn_object = next(o for o in clinic.derived_from("ada", "t2") if o.kind == "turn")
    with pytest.raises(NotVisible):
        clinic.get("sam", turn_object.object_id)
    with contextlib.suppress(PolicyError):  # refusing the grant would be a fix too
        clinic.grant("sam", "sam", "ada", ())
    with pytest.raises(NotVisible):
        clinic.get("sam", turn_object.object_id)


def test_a_scoped_grantor_cannot_open_more_than_they_read(clinic: Memory) -> None:
    dot = clinic.store.get_principal("dot")
    at = "2030-01-01T00:00:00"
    # the desk reads patients' scheduling, not their general remarks
    assert clinic.engine.rule_allows(dot, "ada", ["sched"], at)
    assert not clinic.engine.rule_allows(dot, "ada", ["general"], at)
    with contextlib.suppress(PolicyError):  # refusing the grant would be a fix too
        clinic.grant("dot", "sam", "ada", ["sched"])
    assert not can_read(clinic, "sam", at, "general")


# grants: revocation


def test_only_grantor_or_subject_may_revoke(clinic: Memory) -> None:
    clinic.add_relationship("family_member", "fay", "ada")
    grant = clinic.grant("fay", "sam", "ada", ["meds"])
    with pytest.raises(PolicyError, match=f"'sam' may not revoke grant {grant.grant_id}: only its grantor"):
        clinic.revoke(grant.grant_id, by="sam")
    assert can_read(clinic, "sam", "2099-01-01T00:00:00")
    clinic.revoke(grant.grant_id, by="ada")  # the subject may
    assert not can_read(clinic, "sam", "2099-01-01T00:00:00")
    other = clinic.grant("fay", "sam", "ada", ["meds"])
    clinic.revoke(other.grant_id, by="fay")  # and so may the grantor
    assert not can_read(clinic, "sam", "2099-01-01T00:00:00")


def test_irrevocable_grant(clinic: Memory) -> None:
    grant = clinic.consent("ada", "sam", ["meds"], revocable=False)
    with pytest.raises(PolicyError, match=f"grant {grant.grant_id} was made irrevocable"):
        clinic.revoke(grant.grant_id, by="ada")
    assert can_read(clinic, "sam", "2099-01-01T00:00:00")


def test_revoking_an_unknown_grant(clinic: Memory) -> None:
    with pytest.raises(PolicyError, match="no grant 99"):
        clinic.revoke(99, by="ada")


def test_revocation_from_a_moment_keeps_the_past(clinic: Memory) -> None:
    grant = clinic.consent("ada", "sam", ["meds"], valid_from="2024-01-01T00:00:00")
    clinic.revoke(grant.grant_id, by="ada", at="2024-06-01T00:00:00")
    assert can_read(clinic, "sam", "2024-05-31T23:59:59")
    assert not can_read(clinic, "sam", "2024-06-01T00:00:00")
    # a later revocation does not move an earlier one forward
    clinic.revoke(grant.grant_id, by="ada", at="2024-09-01T00:00:00")
    assert not can_read(clinic, "sam", "2024-07-01T00:00:00")


def test_new_labels_extend_a_requesters_permissions_without_deciding_again(clinic: Memory) -> None:
    """Ingest adds labels all the time; only a change of governance state drops the
    memoised decisions (a cold requester costs a decision per label)."""
    at = "2030-01-01T00:00:00"
    fay = clinic.store.get_principal("fay")
    before = clinic.engine.permissions(fay, at)
    known = before.readable_labels(clinic.engine.labels)
    count = len(clinic.engine.labels)
    clinic.ingest(Turn("t9", "ada", "Ben paid his bill on Friday.", timestamp="2024-01-02T08:00:00"))
    after = clinic.engine.permissions(fay, at)
    assert after is before  # the same memo, extended
    labels = clinic.engine.labels
    grown = after.readable_labels(labels)
    assert len(labels) > count and known <= grown
    fresh = PolicyEngine(clinic.pack, clinic.store).permissions(fay, at)
    assert grown == fresh.readable_labels(clinic.engine.labels)  # same decisions as from scratch
    clinic.add_principal("zed", "stranger")  # governance changed: decided again
    assert clinic.engine.permissions(fay, at) is not before


# owned resources: a case is its student's information


CAMPUS_PACK = """
name = "campus"
subject_roles = ["student"]
owner_relationships = ["*_case_subject"]

[tags]
grades = ['\\bgrades?\\b']
aid = ['\\baid\\b']
dates = ['\\bdates?\\b']
health = ['\\bhealth\\b']

[[rules]]
id = "own"
requester = "subject"
tags = ["*"]

[[rules]]
id = "advisor"
relationship = ["advisor_for"]
tags = ["grades", "aid", "dates", "general"]

[[rules]]
id = "recused"
effect = "deny"
relationship = ["recused_from"]
tags = ["aid"]

[[rules]]
id = "public"
about = "resource"
tags = ["dates", "general"]
"""
CAMPUS = parse_pack(CAMPUS_PACK, "campus.toml")
CAMPUS_ROLES = {"ivo": "student", "mia": "student", "rae": "advisor", "sam": "stranger"}
OWNERS = {
    "case_quill": (Relationship("review_case_subject", "ivo", "case_quill"),),
    "case_joint": (
        Relationship("review_case_subject", "ivo", "case_joint"),
        Relationship("review_case_subject", "mia", "case_joint"),
    ),
}


def campus(who: str, relationships=(), grants=()) -> Permissions:
    return Permissions(
        Principal(who, CAMPUS_ROLES[who]),
        "2024-01-01T00:00:00",
        CAMPUS,
        CAMPUS_ROLES,
        list(relationships),
        list(grants),
        OWNERS,
    )


ADVISES_IVO = Relationship("advisor_for", "rae", "ivo")


def test_a_requester_reads_about_a_case_what_they_read_about_its_owner() -> None:
    rae = campus("rae", relationships=[ADVISES_IVO])
    assert decision(rae, "ivo", "aid") == (True, "advisor")
    assert decision(rae, "case_quill", "aid") == (True, "advisor (owner of case_quill)")
    assert decision(rae, "case_quill", "general") == (True, "advisor (owner of case_quill)")
    assert decision(rae, "case_quill", "health") == (False, DEFAULT_DENY)  # not theirs to read of Ivo


def test_the_owner_reads_their_own_case() -> None:
    assert decision(campus("ivo"), "case_quill", "health") == (True, "own (owner of case_quill)")
    assert decision(campus("mia"), "case_quill", "health") == (False, DEFAULT_DENY)


def test_a_relationship_to_someone_else_opens_no_case() -> None:
    rae = campus("rae", relationships=[Relationship("advisor_for", "rae", "mia")])
    assert decision(rae, "case_quill", "aid") == (False, DEFAULT_DENY)
    assert decision(rae, "case_joint", "aid") == (True, "advisor (owner of case_joint)")  # Mia owns it too


def test_a_grant_about_the_owner_opens_their_case() -> None:
    sam = campus("sam", grants=[consent("ivo", "sam", ("aid",))])
    assert decision(sam, "case_quill", "aid") == (True, "consent:7 (owner of case_quill)")
    assert decision(sam, "case_quill", "grades") == (False, DEFAULT_DENY)


def test_an_explicit_deny_on_the_case_is_not_bypassed_through_its_owner() -> None:
    recused = Relationship("recused_from", "rae", "case_quill")
    rae = campus("rae", relationships=[ADVISES_IVO, recused])
    assert decision(rae, "case_quill", "aid") == (False, "recused")
    assert decision(rae, "ivo", "aid") == (True, "advisor")  # the recusal is from the case only
    assert decision(rae, "case_quill", "dates") == (True, "advisor (owner of case_quill)")


def test_resource_rules_match_only_resources_nobody_owns() -> None:
    sam = campus("sam")
    assert decision(sam, "program_tidewater", "dates") == (True, "public")
    assert decision(sam, "program_tidewater", "aid") == (False, DEFAULT_DENY)
    assert decision(sam, "case_quill", "dates") == (False, DEFAULT_DENY)
    assert decision(sam, "case_joint", "general") == (False, DEFAULT_DENY)


def test_span_over_a_case_names_the_owner_path() -> None:
    rae = campus("rae", relationships=[ADVISES_IVO])
    assert rae.span([("case_quill", "grades"), ("", "general")]) == (False, (DEFAULT_DENY,))  # no shared rule
    assert rae.span([("case_quill", "grades"), ("ivo", "grades")]) == (
        True,
        ("advisor", "advisor (owner of case_quill)"),
    )


@pytest.fixture(params=["owned", "plain"])
def campus_memory(request: pytest.FixtureRequest, tmp_path: Path):
    """The campus pack over a store, with (``owned``) and without (``plain``) owner_relationships."""
    text = (
        CAMPUS_PACK
        if request.param == "owned"
        else CAMPUS_PACK.replace('owner_relationships = ["*_case_subject"]', "")
    )
    path = tmp_path / "campus.toml"
    path.write_text(text, encoding="utf-8")
    with Memory(":memory:", policy=str(path)) as memory:
        memory.add_principals(Principal(p, role, p.title()) for p, role in CAMPUS_ROLES.items())
        memory.add_relationship("appeal_case_subject", "ivo", "case_quill")
        memory.add_relationship("member_of", "mia", "program_tidewater")
        memory.add_relationship("advisor_for", "rae", "ivo")
        yield request.param, memory


def engine_decision(memory: Memory, who: str, subject: str, tag: str) -> tuple[bool, str]:
    d = memory.engine.permissions(memory.store.get_principal(who), "2030-01-01T00:00:00").facet(
        (subject, tag)
    )
    return d.allowed, d.rule


def test_the_engine_finds_owners_in_the_store_and_without_them_behaves_as_before(campus_memory) -> None:
    kind, memory = campus_memory
    if kind == "owned":
        assert engine_decision(memory, "rae", "case_quill", "aid") == (True, "advisor (owner of case_quill)")
        assert engine_decision(memory, "sam", "case_quill", "dates") == (False, DEFAULT_DENY)
    else:  # a case is just a resource: the owner path is closed, and resource rules match it
        assert engine_decision(memory, "rae", "case_quill", "aid") == (False, DEFAULT_DENY)
        assert engine_decision(memory, "sam", "case_quill", "dates") == (True, "public")
    assert engine_decision(memory, "sam", "program_tidewater", "dates") == (True, "public")
    assert engine_decision(memory, "rae", "ivo", "aid") == (True, "advisor")


@pytest.mark.parametrize("campus_memory", ["owned"], indirect=True)
def test_a_new_ownership_applies_to_the_next_decision(campus_memory) -> None:
    _, memory = campus_memory
    assert engine_decision(memory, "sam", "case_reed", "dates") == (True, "public")
    assert engine_decision(memory, "rae", "case_reed", "aid") == (False, DEFAULT_DENY)
    memory.add_relationship("housing_case_subject", "ivo", "case_reed")
    assert engine_decision(memory, "sam", "case_reed", "dates") == (False, DEFAULT_DENY)
    assert engine_decision(memory, "rae", "case_reed", "aid") == (True, "advisor (owner of case_reed)")


def test_a_principal_is_never_owned(campus_memory) -> None:
    _, memory = campus_memory
    memory.add_relationship("peer_case_subject", "ivo", "mia")  # an ownership type pointing at a person
    assert engine_decision(memory, "rae", "mia", "grades") == (False, DEFAULT_DENY)


def test_an_owner_path_lets_an_entitled_requester_grant(campus_memory) -> None:
    kind, memory = campus_memory
    rae = memory.store.get_principal("rae")
    assert memory.engine.rule_allows(rae, "case_quill", ["aid"], "2030-01-01T00:00:00") == (kind == "owned")
    assert not memory.engine.rule_allows(rae, "case_quill", ["health"], "2030-01-01T00:00:00")


def test_what_is_said_about_a_case_reaches_its_owner_and_their_advisor_only(campus_memory) -> None:
    kind, memory = campus_memory
    memory.ingest(Turn("t1", "mia", "The Quill aid is 3,100 USD.", timestamp="2024-01-01T08:00:00"))
    keys = memory.store.turn_keys("default", ["t1"]).values()
    objects = memory.store.get_objects([key for key, _, _ in memory.store.objects_derived_from(keys)])
    turn_object = next(o for o in objects.values() if o.kind == "turn")
    assert "3,100" in memory.get("mia", turn_object.object_id).text  # her own words, in either pack
    for reader in ("rae", "ivo"):  # a case speaks of its owner: without owners, not even Ivo reads it
        if kind == "owned":
            assert "3,100" in memory.get(reader, turn_object.object_id).text
        else:
            with pytest.raises(NotVisible):
                memory.get(reader, turn_object.object_id)
    with pytest.raises(NotVisible):
        memory.get("sam", turn_object.object_id)


@pytest.mark.parametrize("campus_memory", ["owned"], indirect=True)
def test_an_ownership_that_has_ended_opens_the_case_no_more(campus_memory) -> None:
    _, memory = campus_memory
    # the residence file passed from Ivo to Mia at the start of 2025
    memory.add_relationship("housing_case_subject", "ivo", "case_room_12", valid_until="2025-01-01T00:00:00")
    memory.add_relationship("housing_case_subject", "mia", "case_room_12", valid_from="2025-01-01T00:00:00")
    assert engine_decision(memory, "rae", "case_room_12", "aid") == (False, DEFAULT_DENY)  # at 2030


@pytest.mark.parametrize("campus_memory", ["owned"], indirect=True)
def test_who_owns_a_case_is_judged_at_each_reads_time(campus_memory) -> None:
    """The same requester, the same relationships, two moments: the case was Ivo's, then
    Mia's. A requester's permissions are cached, and were cached without the owners, so
    the first read's owner stayed in force for the second."""
    _, memory = campus_memory
    memory.add_relationship("housing_case_subject", "ivo", "case_room_12", valid_until="2025-01-01T00:00:00")
    memory.add_relationship("housing_case_subject", "mia", "case_room_12", valid_from="2025-01-01T00:00:00")
    rae = memory.store.get_principal("rae")
    assert memory.engine.permissions(rae, "2024-06-01T00:00:00").facet(("case_room_12", "aid")).allowed
    assert not memory.engine.permissions(rae, "2030-01-01T00:00:00").facet(("case_room_12", "aid")).allowed
    assert memory.engine.permissions(rae, "2024-12-31T23:59:59").facet(("case_room_12", "aid")).allowed
    assert not memory.engine.permissions(rae, "2025-01-01T00:00:00").facet(("case_room_12", "aid")).allowed
