"""The authorization seam: scope before ranking, review (redaction) after, query assessment."""

from __future__ import annotations

import pytest

from govmem import Memory, Principal, Turn
from govmem.governance import OpenAccess
from govmem.governance.authorization import PolicyAuthorizer
from govmem.governance.policy_engine import DEFAULT_DENY
from govmem.models import MemoryObject
from small_clinic import small_clinic

DAY = "2024-03-01T"
WARFARIN = "Ada takes warfarin 5 mg daily. "
APPOINTMENT = "Ada has an appointment on Friday at 10 am."
PARKING = "Parking is in the garage behind the lobby."
TURNS = [
    Turn("t1", "rex", PARKING, timestamp=DAY + "09:00:00"),  # first: no previous subject to inherit
    Turn("t2", "lee", WARFARIN + APPOINTMENT, timestamp=DAY + "09:05:00"),
    Turn("t3", "ada", "I paid the copay with my card.", timestamp=DAY + "09:10:00"),
    Turn("t4", "lee", "Ben reported chest pain.", timestamp=DAY + "09:15:00"),
]
AT = "2024-06-01T00:00:00"


def build(authorizer=None) -> Memory:
    return small_clinic(TURNS, authorizer=authorizer)


@pytest.fixture(scope="module")
def clinic():
    with build() as memory:
        yield memory


def objects(memory: Memory) -> dict[str, MemoryObject]:
    """Every object, by (kind, first source) -> object: 'turn:t1', 'session:t1'."""
    found = memory.store.get_objects(memory.store.object_keys(0, 1000))
    return {f"{o.kind}:{o.sources[0]}": o for o in found.values()}


def review(memory: Memory, who: str, name: str, authorizer=None):
    authorizer = authorizer or memory.authorizer
    principal = memory.store.get_principal(who)
    (result,) = authorizer.review(memory.store, principal, [objects(memory)[name]], AT)
    return result


# scope


def test_scope_admits_objects_with_a_readable_facet(clinic: Memory) -> None:
    labels = {name: o.label_key for name, o in objects(clinic).items()}
    scope = clinic.authorizer.scope(clinic.store, clinic.store.get_principal("kit"), AT)
    assert scope.reasons == ("pack:medical",)
    # a visitor reads the shared remark about parking, nothing about a patient
    assert labels["turn:t1"] in scope.labels
    assert labels["turn:t2"] not in scope.labels
    assert labels["turn:t3"] not in scope.labels
    assert labels["turn:t4"] not in scope.labels
    assert labels["session:t1"] in scope.labels  # the window holds the parking remark


def test_scope_does_not_admit_own_words_about_others(clinic: Memory) -> None:
    labels = {name: o.label_key for name, o in objects(clinic).items()}
    scope = clinic.authorizer.scope(clinic.store, clinic.store.get_principal("rex"), AT)
    assert labels["turn:t1"] in scope.labels
    assert labels["turn:t3"] not in scope.labels  # ada's billing: not for the front desk


# review


def test_review_passes_a_fully_readable_object_unchanged(clinic: Memory) -> None:
    result = review(clinic, "lee", "turn:t3")
    assert result.visible == objects(clinic)["turn:t3"]
    assert not result.redacted
    assert result.rules == ("assigned-clinician",)


def test_review_redacts_denied_sentences(clinic: Memory) -> None:
    result = review(clinic, "fay", "turn:t2")
    original = objects(clinic)["turn:t2"]
    assert result.redacted
    assert result.visible.text == APPOINTMENT
    assert result.visible.object_id == original.object_id
    assert result.visible.sources == ("t2",)
    assert result.rules == (DEFAULT_DENY, "family-within-access-level")


def test_review_redacts_denied_turns_out_of_a_session_window(clinic: Memory) -> None:
    result = review(clinic, "rex", "session:t1")
    assert result.redacted
    assert result.visible.sources == ("t1", "t2")
    assert "warfarin" not in result.visible.text
    assert "copay" not in result.visible.text and "chest pain" not in result.visible.text
    assert result.visible.text == f"[{DAY}09:00:00] rex: {PARKING}\n[{DAY}09:05:00] lee: {APPOINTMENT}"


def test_review_withholds_an_object_with_nothing_readable(clinic: Memory) -> None:
    result = review(clinic, "kit", "turn:t4")
    assert result.visible is None
    assert result.redacted
    assert result.rules == (DEFAULT_DENY,)


def test_review_governs_the_speaker_like_anyone_else(clinic: Memory) -> None:
    # ada's billing: the front desk may not read it, ada (its subject) may
    assert review(clinic, "rex", "turn:t3").visible is None
    assert review(clinic, "ada", "turn:t3").visible is not None
    result = review(clinic, "rex", "turn:t1")  # rex's own remark is shared information: readable as such
    assert not result.redacted and "own-words" not in result.rules


def test_objects_of_a_non_verbatim_design_are_withheld_whole(clinic: Memory) -> None:
    """Without a verbatim deriver to render the readable remains, nothing partial is served."""
    strict = PolicyAuthorizer(clinic.engine, clinic.labeler, derivers={})
    assert review(clinic, "fay", "turn:t2", strict).visible is None
    assert review(clinic, "lee", "turn:t2", strict).visible is not None  # nothing to redact


def test_review_keeps_the_order_and_length_of_its_input(clinic: Memory) -> None:
    every = sorted(objects(clinic).values(), key=lambda o: o.key)
    results = clinic.authorizer.review(clinic.store, clinic.store.get_principal("kit"), every, AT)
    assert len(results) == len(every)
    for obj, result in zip(every, results, strict=True):
        if result.visible is not None:
            assert result.visible.object_id == obj.object_id


def test_review_follows_grants_at_the_time_of_the_read() -> None:
    with build() as memory:
        memory.consent("ada", "kit", ["medication"], valid_from="2024-05-01T00:00:00")
        principal = memory.store.get_principal("kit")
        obj = objects(memory)["turn:t2"]
        (before,) = memory.authorizer.review(memory.store, principal, [obj], "2024-04-30T23:59:59")
        (after,) = memory.authorizer.review(memory.store, principal, [obj], "2024-05-01T00:00:00")
    assert before.visible is None
    # the grant opens medication and general, not Ada's scheduling
    assert after.visible.text == WARFARIN.strip()
    assert "consent:1" in after.rules


# query assessment


@pytest.mark.parametrize(
    ("who", "query", "allowed", "denied"),
    [
        ("fay", "What is Ada's warfarin dose?", 0, 1),
        ("fay", "When is Ada's appointment and what is her warfarin dose?", 1, 1),
        ("fay", "Where do I park?", 0, 0),
        ("lee", "What is Ada's warfarin dose?", 1, 0),
        ("ada", "What is my warfarin dose?", 0, 0),
        ("kit", "Did Ben or Ada report pain?", 0, 2),
    ],
)
def test_assess_query_counts_named_facets(
    clinic: Memory, who: str, query: str, allowed: int, denied: int
) -> None:
    assessment = clinic.authorizer.assess_query(clinic.store, clinic.store.get_principal(who), query, AT)
    assert (assessment.allowed, assessment.denied) == (allowed, denied)


def test_assess_query_names_the_rules(clinic: Memory) -> None:
    fay = clinic.store.get_principal("fay")
    assessment = clinic.authorizer.assess_query(
        clinic.store, fay, "When is Ada's appointment and what is her warfarin dose?", AT
    )
    assert assessment.rules == (DEFAULT_DENY, "family-within-access-level")


# open access


def test_open_access_serves_everything_to_everyone() -> None:
    with build(OpenAccess()) as memory:
        result = memory.recall("kit", "What is Ada's warfarin dose?")
        assert result.action == "answer"
        assert result.decision.reasons == (OpenAccess.rule,)
        assert any("warfarin" in item.text for item in result.items)
        assert {i.object_id for i in memory.export("kit")} == {o.object_id for o in objects(memory).values()}
        scope = memory.authorizer.scope(memory.store, memory.store.get_principal("kit"), AT)
        assert scope.labels is None


def test_a_logistics_sentence_naming_a_procedure_reaches_family_with_logistics_access() -> None:
    """ "Procedure" is what appointments are for, not a clinical detail: Fay (Ada's family,
    scheduling only) reads when and where; the sentence naming the drug stays withheld."""
    turns = [
        Turn(
            "t1",
            "rex",
            "Ada's procedure is on Friday at 10:20 am, arrival at 8:50 am.",
            timestamp=DAY + "09:00:00",
        ),
        Turn("t2", "lee", "Ada will stop warfarin 2 days before the procedure.", timestamp=DAY + "09:05:00"),
    ]
    with small_clinic(turns) as memory:
        seen = {item.sources[0]: item.text for item in memory.export("fay", design="turn")}
    assert "10:20 am" in seen.get("t1", "")
    assert "t2" not in seen


def test_household_adults_share_logistics_but_not_private_notes_or_codes() -> None:
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(
            [
                Principal("mara", "primary_resident", "Mara Chen"),
                Principal("leah", "adult_child", "Leah Chen"),
                Principal("erin", "roommate", "Erin Brooks"),
            ]
        )
        memory.ingest_many(
            [
                Turn("t1", "leah", "Leah's exact handoff is 6:40 AM at the south kiosk.", "home"),
                Turn("t2", "mara", "The side keypad code is 5274 for Saturday.", "home"),
                Turn("t3", "mara", "Trash pickup moved to Thursday morning.", "home"),
            ]
        )
        seen = {p: {i.sources[0] for i in memory.export(p, design="turn")} for p in ("mara", "erin")}
    assert seen["mara"] == {"t1", "t2", "t3"}
    assert seen["erin"] == {"t3"}
