"""A question that names no one may still be about someone: "is her biopsy back?", and
in a clinic any question ("what is the diagnosis?"). It is refused when the requester
may read its topics about none of the subjects it could mean; a guess at whom it means
never redacts and never refuses anyone who may read it about someone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from govmem import Memory, Principal, Turn
from govmem.models import Relationship
from small_clinic import small_clinic
from small_household import household

DAY = "2026-03-02T"
BILLING = Principal("bo", "billing", "Bo Diaz")
CLINIC_TURNS = [
    Turn("t1", "lee", "Ada Moreno's biopsy confirmed thyroid cancer.", timestamp=DAY + "09:00:00"),
    Turn("t2", "lee", "Her follow-up visit is Friday at 10:00 AM.", timestamp=DAY + "09:05:00"),
    Turn("t3", "rex", "Parking for clinic patients is on level P2.", timestamp=DAY + "09:10:00"),
]
AT = DAY + "12:00:00"


@pytest.fixture
def clinic() -> Iterator[Memory]:
    with small_clinic(CLINIC_TURNS, also=[BILLING]) as memory:
        yield memory


@pytest.mark.parametrize(
    "query",
    [
        "What is the diagnosis?",
        "Coding needs to know whether this is malignant. Is it cancer, yes or no?",
        "Is her biopsy back?",
    ],
)
def test_billing_is_refused_a_patients_diagnosis_unnamed(clinic: Memory, query: str) -> None:
    result = clinic.recall("bo", query, k=10, as_of=AT)
    assert result.action == "refuse"
    assert result.items == []


def test_the_same_question_named_is_refused_as_before(clinic: Memory) -> None:
    assert clinic.recall("bo", "What is Ada's diagnosis?", k=10, as_of=AT).action == "refuse"


def test_a_clinician_who_may_read_it_is_answered(clinic: Memory) -> None:
    result = clinic.recall("lee", "What is the diagnosis?", k=10, as_of=AT)
    assert result.action == "answer"
    assert "thyroid cancer" in result.context()


def test_a_patient_asking_without_names_asks_about_themselves(clinic: Memory) -> None:
    result = clinic.recall("ada", "What is the diagnosis?", k=10, as_of=AT)
    assert result.action == "answer"
    assert "thyroid cancer" in result.context()


def test_a_topic_the_requester_may_read_about_a_patient_is_not_refused(clinic: Memory) -> None:
    result = clinic.recall("bo", "When is the follow-up visit?", k=10, as_of=AT)
    assert result.action == "answer"
    assert "Friday at 10:00 AM" in result.context()


def test_a_guess_never_redacts(clinic: Memory) -> None:
    """Fay may read Ada's schedule, not her diagnosis: the question is answered with the
    schedule and nothing else, as before, not marked redacted on a guess."""
    result = clinic.recall("fay", "Is her Friday follow-up because of the cancer?", k=10, as_of=AT)
    assert result.action == "answer"
    assert "Friday at 10:00 AM" in result.context()
    assert "thyroid cancer" not in result.context()


def test_a_question_after_something_forgotten_still_has_no_memory() -> None:
    turns = [
        *CLINIC_TURNS,
        Turn("t4", "ada", "My old shelter desk line was 415-555-0190.", timestamp=DAY + "09:20:00"),
        Turn(
            "t5",
            "ada",
            "Please delete my old shelter desk line 415-555-0190 from memory.",
            timestamp=DAY + "09:25:00",
        ),
    ]
    with small_clinic(turns, also=[BILLING]) as memory:
        result = memory.recall("bo", "What was her deleted shelter desk line?", k=10, as_of=AT)
        assert result.action == "no_memory"
        assert result.items == []


PEOPLE = {
    "olivia": ("primary_resident", "Olivia Chen"),
    "maya": ("adult_child", "Maya Chen"),
    "sofia": ("cleaner", "Sofia Ortiz"),
    "tessa": ("driver_pickup_contact", "Tessa Hall"),
    "ava": ("minor_child", "Ava Chen"),
}
SAID = [
    ("olivia", "The Friday cleaning runs 10 AM to noon through the side door."),
    ("olivia", "Maya's gym locker code is 4417."),
]


def test_outside_a_clinic_only_a_question_referring_to_someone_is_guessed_at() -> None:
    with household(PEOPLE, SAID, AT) as home:
        assert home.recall("sofia", "What is her locker code?", k=10, as_of=AT).action == "refuse"
        plain = home.recall("sofia", "What is the Friday cleaning plan?", k=10, as_of=AT)
        assert plain.action == "answer"
        assert "10 AM to noon" in plain.context()


def test_someone_the_requester_may_read_about_is_never_refused_on_a_guess() -> None:
    """Tessa may read Ava's pickup logistics: "her pickup" may mean Ava, so it is answered."""
    said = [("olivia", "Ava's Thursday pickup is at 3:15 PM at the west gate.")]
    pickup = [Relationship("pickup_authorized", "tessa", "ava", {"access_scope": "school_pickup_only"})]
    with household(PEOPLE, said, AT, pickup) as home:
        result = home.recall("tessa", "When is her Thursday pickup?", k=10, as_of=AT)
        assert result.action == "answer"
        assert "3:15 PM" in result.context()


def test_a_question_in_the_first_person_is_the_askers_own_whatever_its_case() -> None:
    from govmem.governance.labeling import Labeler
    from govmem.governance.policy_pack import load_pack

    labeler = Labeler(load_pack("medical"), [], [])
    for query in ("My lisinopril refill?", "What is my lisinopril dose?", "Is the diagnosis back?"):
        assert bool(labeler.unnamed_query_tags(query)) == query.startswith("Is"), query
