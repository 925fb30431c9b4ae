"""The action of a read whose query names a facet the requester may not read: it is
``answer`` when the requester's own records answer that part, ``answer_redacted``
otherwise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from govmem import Memory
from govmem.models import Relationship
from small_household import household

AT = "2026-05-21T10:00:00"
PEOPLE = {
    "olivia": ("primary_resident", "Olivia Chen"),
    "ava": ("minor_child", "Ava Chen"),
    "tessa": ("driver_pickup_contact", "Tessa Hall"),
    "sofia": ("cleaner", "Sofia Ortiz"),
}
SAID = [
    (
        "olivia",
        "Tessa Hall is the Thursday pickup contact, with the release phrase blue cedar at the west gate.",
    ),
    ("olivia", "Ava's locker code is 4417."),
    ("olivia", "The Thursday pickup is at 3:15 PM at the west gate."),
]
PICKUP = [Relationship("pickup_authorized", "tessa", "ava", {"access_scope": "school_pickup_only"})]
QUERY = "What is the Thursday plan for Ava, including pickup time and release phrase?"


@pytest.fixture
def home() -> Iterator[Memory]:
    with household(PEOPLE, SAID, AT, PICKUP) as memory:
        yield memory


def test_a_part_asked_of_someone_else_answered_by_ones_own_records(home: Memory) -> None:
    result = home.recall("tessa", QUERY, k=10, as_of=AT)
    assert "blue cedar" in result.context()
    assert result.decision.action == "answer"


def test_a_part_nothing_readable_answers_stays_redacted(home: Memory) -> None:
    result = home.recall("tessa", "What is Ava's locker code and the Thursday pickup time?", k=10, as_of=AT)
    assert "4417" not in result.context()
    assert "3:15 PM" in result.context()
    assert result.decision.action == "answer_redacted"


def test_someone_elses_readable_records_do_not_answer_it(home: Memory) -> None:
    """Sofia may not read Tessa's phrase; what she may read about others is no answer."""
    result = home.recall("sofia", QUERY, k=10, as_of=AT)
    assert "blue cedar" not in result.context()
    assert result.decision.action in ("answer_redacted", "refuse")


def test_what_the_requester_said_themselves_does_not_answer_it() -> None:
    """Mason's own "my exact minute" is his sentence on the private tag, in the query's
    words, but it is not what he was told of Leah."""
    people = {
        "olivia": ("primary_resident", "Olivia Hart"),
        "mason": ("partner_spouse", "Mason Hart"),
        "leah": ("adult_child", "Leah Hart"),
    }
    said = [
        ("leah", "Leah's exact Monday minute is 6:15 AM, and it stays private."),
        ("mason", "My exact Monday minute for the gym is 5:30 AM."),
    ]
    with household(people, said, AT) as memory:
        result = memory.recall("mason", "Give me Leah's exact Monday minute.", k=10, as_of=AT)
        assert "6:15 AM" not in result.context()
        assert result.decision.action == "answer_redacted"
