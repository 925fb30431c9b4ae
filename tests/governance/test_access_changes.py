"""Access ended in conversation: which sentences end it, whose and which access ends."""

from __future__ import annotations

import pytest

from govmem import Turn
from govmem.governance.access_changes import ending_time, endings_in, relationships_ended
from govmem.governance.labeling import Labeler
from govmem.governance.policy_pack import load_pack
from govmem.models import Principal, Relationship
from small_clinic import CAST, small_clinic

T = "2024-03-01T10:00:00"


@pytest.mark.parametrize(
    "text",
    [
        "Consent change: family logistics access for Fay Lind is revoked as of Monday afternoon.",
        "Please revoke Fay's access entirely.",
        "Coverage update: weekend covering access by Dr. Lee has ended after handoff.",
        "Family scheduling access revoked.",
        "I can record that the prior logistics-only access ends now.",
        "Weekend coverage ends Sunday 8:00 PM.",
        "The grant expires at the end of Saturday, November 21.",
        "I've set Teodor's grant to expire automatically after Saturday.",
        "Your access covered Saturday only and has expired.",
    ],
)
def test_sentences_that_end_access(text: str) -> None:
    (ending,) = endings_in(text)
    assert ending.sentence == text


@pytest.mark.parametrize(
    "text",
    [
        "Did she revoke my access because of the program?",
        "Fay's access is not revoked.",
        "Leo's logs-only access hasn't been revoked yet.",
        "Fay's access wasn't revoked after all.",
        # a review's cases: the negation before "revoke ... access", and a quoted question
        "We never actually revoked Leo's badge access.",
        "Nobody has revoked Leo's badge access; the reader was just broken.",
        "Do not revoke Victor's prod access until the incident review is done.",
        "Jess refused to revoke Kayla's monitor access.",
        'Mom wrote: "Is Uncle Pete\'s attendance access revoked?"',
        "Logistics-only family access is still active through Monday.",
        "The room code was rotated this morning.",
        "Family access does not expire until Friday.",
        "The grant covers the review date through October 9, 2026.",
    ],
)
def test_questions_negations_and_other_talk_end_nothing(text: str) -> None:
    assert endings_in(text) == []


@pytest.fixture
def labeler() -> Labeler:
    return Labeler(load_pack("medical"), [*CAST, Principal("gus", "family_member", "Gus Okafor")], [])


FAY_FOR_ADA = Relationship("family_member", "fay", "ada", {"access_level": "scheduling only"})
GUS_FOR_BEN = Relationship("family_member", "gus", "ben")
LEE_FOR_ADA = Relationship("assigned_clinician", "lee", "ada")
ALL = [FAY_FOR_ADA, GUS_FOR_BEN, LEE_FOR_ADA]


def ended(text: str, speaker: str, labeler: Labeler, about=frozenset()) -> list[Relationship]:
    (ending,) = endings_in(text)
    return relationships_ended(ending, speaker, labeler, ALL, T, frozenset(about))


def test_the_named_principal_loses_the_named_kind_of_access(labeler: Labeler) -> None:
    closed = ended("Family access for Fay Lind is revoked.", "rex", labeler)
    assert [(r.principal_id, r.target_id, r.valid_until) for r in closed] == [("fay", "ada", T)]


def test_a_subject_named_as_the_one_revoking_keeps_their_access_and_others_lose_theirs(
    labeler: Labeler,
) -> None:
    closed = ended("Ben revoked family scheduling access.", "rex", labeler)
    assert [(r.principal_id, r.target_id) for r in closed] == [("gus", "ben")]


def test_a_patient_speaking_ends_family_access_to_themselves_only(labeler: Labeler) -> None:
    closed = ended("Please revoke family access completely now.", "ada", labeler)
    assert [(r.principal_id, r.target_id) for r in closed] == [("fay", "ada")]


def test_with_nobody_named_the_label_says_whose_access_ends(labeler: Labeler) -> None:
    assert ended("Family access revoked entirely per patient request.", "rex", labeler) == []
    closed = ended("Family access revoked entirely per patient request.", "rex", labeler, {"ben"})
    assert [(r.principal_id, r.target_id) for r in closed] == [("gus", "ben")]


def test_names_after_the_ending_lose_nothing(labeler: Labeler) -> None:
    closed = ended("Covering access by Gus has ended after handoff back to Dr. Lee.", "rex", labeler)
    assert {r.principal_id for r in closed} == {"gus"}


def test_an_ending_never_reopens_or_moves_an_earlier_end(labeler: Labeler) -> None:
    earlier = Relationship("family_member", "fay", "ada", valid_until="2024-02-01T00:00:00")
    (ending,) = endings_in("Family access for Fay is revoked.")
    assert relationships_ended(ending, "rex", labeler, [earlier], T) == []


def test_memory_ends_access_from_the_turn_on_and_records_the_event() -> None:
    with small_clinic(
        [
            Turn("t1", "lee", "Ada has an appointment on Friday at 10 am.", timestamp="2024-03-01T09:00:00"),
            Turn("t2", "ada", "Please revoke Fay's access entirely.", timestamp="2024-03-01T09:30:00"),
            Turn("t3", "lee", "Ada's appointment moved to Monday at 9 am.", timestamp="2024-03-01T10:00:00"),
        ]
    ) as memory:
        before = memory.recall("fay", "Ada appointment", as_of="2024-03-01T09:10:00")
        assert any("Friday" in item.text for item in before.items)
        after = memory.recall("fay", "Ada appointment", as_of="2024-03-01T10:30:00")
        assert all("Monday" not in item.text and "Friday" not in item.text for item in after.items)
        (event,) = [e for e in memory.governance_events() if e["kind"] == "access_ended"]
        assert event["payload"] == {"relationships": [["family_member", "fay", "ada"]]}
        assert event["effective_at"] == "2024-03-01T09:30:00"


SAID_AT = "2026-11-17T16:54:00"  # a Tuesday


@pytest.mark.parametrize(
    ("text", "effective"),
    [
        ("Weekend coverage ends Sunday 8:00 PM.", "2026-11-22T20:00:00"),
        ("Coverage ends Monday at 7:00 AM and does not include contact routes.", "2026-11-23T07:00:00"),
        # a day alone: access lasts the whole day
        ("The grant expires at the end of Saturday, November 21.", "2026-11-22T00:00:00"),
        ("I've set Teodor's grant to expire automatically after Saturday.", "2026-11-22T00:00:00"),
        ("The ride grant expires tonight.", "2026-11-18T00:00:00"),
        # said in the past: the last such time before it was said
        ("Your weekend coverage ended Sunday at 8:00 PM.", "2026-11-15T20:00:00"),
        # no time given, or now: from the time it was said
        ("Family access for Fay is revoked.", SAID_AT),
        ("The prior logistics-only access ends now.", SAID_AT),
        ("Your access covered Saturday only and has expired.", SAID_AT),
    ],
)
def test_an_ending_takes_effect_when_it_says(text: str, effective: str) -> None:
    (ending,) = endings_in(text)
    assert ending_time(ending, SAID_AT) == effective


def test_a_scheduled_end_leaves_access_until_then_and_ends_it_after() -> None:
    turns = [
        Turn("t1", "lee", "Ada has an appointment on Friday at 10 am.", timestamp="2024-03-04T09:00:00"),
        Turn(
            "t2", "rex", "Fay's family access expires at the end of Wednesday.", timestamp="2024-03-04T09:05"
        ),
    ]
    with small_clinic(turns) as memory:  # 2024-03-04 is a Monday
        during = memory.recall("fay", "Ada appointment", as_of="2024-03-06T18:00:00")
        assert any("Friday" in item.text for item in during.items)
        after = memory.recall("fay", "Ada appointment", as_of="2024-03-07T08:00:00")
        assert not any("Friday" in item.text for item in after.items)
        (event,) = [e for e in memory.governance_events() if e["kind"] == "access_ended"]
        assert event["payload"] == {"relationships": [["family_member", "fay", "ada"]]}
        assert event["effective_at"] == "2024-03-07T00:00:00"


def test_coverage_ends_a_covering_relationship() -> None:
    labeler = Labeler(load_pack("medical"), CAST, [])
    covering = Relationship("covering_clinician", "lee", "ada")
    (ending,) = endings_in("Weekend coverage ends Sunday 8:00 PM.")
    (closed,) = relationships_ended(ending, "rex", labeler, [covering], SAID_AT, frozenset({"ada"}))
    assert closed.valid_until == "2026-11-22T20:00:00"


def test_an_ending_naming_no_one_ends_the_access_of_the_grantee_named_just_before() -> None:
    gus = Principal("gus", "family_member", "Gus Okafor")
    with small_clinic([], also=[gus]) as memory:  # 2024-03-04 is a Monday
        memory.add_relationship("family_member", "gus", "ada", access_level="pickup only")
        memory.ingest_many(
            [
                Turn(
                    "t1",
                    "rex",
                    "Gus Okafor may receive the Friday pickup time only. Permission ends after Friday.",
                    timestamp="2024-03-04T09:05:00",
                ),
                Turn(
                    "t2",
                    "rex",
                    "Gus Okafor's pickup is done. His one-day permission has now expired.",
                    timestamp="2024-03-08T13:00:00",
                ),
            ]
        )
        events = [e for e in memory.governance_events() if e["kind"] == "access_ended"]
        assert sorted((e["effective_at"], e["payload"]["relationships"]) for e in events) == [
            ("2024-03-08T13:00:00", [["family_member", "gus", "ada"]]),  # "has now expired"
            ("2024-03-09T00:00:00", [["family_member", "gus", "ada"]]),  # "ends after Friday"
        ]


def test_an_ending_with_a_type_word_never_falls_back_to_someone_named_before(labeler: Labeler) -> None:
    (ending,) = endings_in("Dr. Lee will review it. Family access ends Friday.")
    closed = relationships_ended(ending, "rex", labeler, ALL, T, frozenset({"ada"}))
    assert [(r.principal_id, r.target_id) for r in closed] == [("fay", "ada")]


def test_a_function_word_names_no_relationship_type(labeler: Labeler) -> None:
    """'access for ...' does not end the advisor_for or faculty_reviewer_for relationships."""
    advisor = Relationship("advisor_for", "lee", "ada")
    (ending,) = endings_in("Acknowledged. My room-booking access for the review is revoked.")
    assert relationships_ended(ending, "rex", labeler, [advisor], T, frozenset({"ada"})) == []


def test_my_access_is_the_speakers_and_only_what_it_names(labeler: Labeler) -> None:
    covering = Relationship("covering_clinician", "lee", "ada")
    (ending,) = endings_in("My coverage ends Monday at 7:00 AM.")
    (closed,) = relationships_ended(
        ending, "lee", labeler, [covering, LEE_FOR_ADA], SAID_AT, frozenset({"ada"})
    )
    assert (closed.type, closed.valid_until) == ("covering_clinician", "2026-11-23T07:00:00")
    (ending,) = endings_in("My room-booking access is revoked.")
    assert relationships_ended(ending, "lee", labeler, [covering, LEE_FOR_ADA], SAID_AT) == []


@pytest.mark.parametrize(
    ("text", "said_at", "effective"),
    [
        # a review's cases: numbers that are no time, a month read into "at 8", the same weekday
        (
            "Fay's family access ends after Ada's visit in Room 2031.",
            "2024-03-04T09:00:00",
            "2024-03-04T09:00:00",
        ),
        ("Family access ends on the 3rd.", "2024-03-04T09:00:00", "2024-03-04T09:00:00"),
        ("Fay's access ends after visit 4 of 6.", "2024-03-04T09:00:00", "2024-03-04T09:00:00"),
        ("Weekend coverage ends Sunday at 8.", SAID_AT, SAID_AT),
        ("Weekend coverage ends Sunday 8:00 PM.", "2026-11-22T19:00:00", "2026-11-22T20:00:00"),
        ("Family access ends Friday.", "2026-11-20T10:00:00", "2026-11-21T00:00:00"),
        ("Family access ends today at 6 PM.", "2029-02-20T10:00:00", "2029-02-20T18:00:00"),
        ("Weekend coverage ends Sunday night.", "2027-01-16T09:30:00", "2027-01-18T00:00:00"),
        ("Family access ends Friday.", "2026-11-20T10:00:00+00:00", "2026-11-21T00:00:00"),
    ],
)
def test_only_a_calendar_time_right_after_the_verb_and_near_counts(
    text: str, said_at: str, effective: str
) -> None:
    (ending,) = endings_in(text)
    assert ending_time(ending, said_at) == effective


def test_staff_relaying_a_patients_revocation_is_not_their_own_access(labeler: Labeler) -> None:
    (ending,) = endings_in("Per my call with Ada Moreno, her family access is revoked.")
    closed = relationships_ended(ending, "lee", labeler, ALL, T, frozenset({"ada"}))
    assert [(r.principal_id, r.target_id) for r in closed] == [("fay", "ada")]


def test_insurance_coverage_ends_no_covering_clinician(labeler: Labeler) -> None:
    covering = Relationship("covering_clinician", "lee", "ada")
    (ending,) = endings_in("My insurance coverage ends Friday.")
    assert relationships_ended(ending, "ada", labeler, [covering], SAID_AT) == []


def test_the_grantee_before_is_used_only_after_a_grant_or_a_his_her(labeler: Labeler) -> None:
    (ending,) = endings_in("Dr. Lee saw Ada Moreno today. The research grant ends in June.")
    assert relationships_ended(ending, "rex", labeler, ALL, T) == []
