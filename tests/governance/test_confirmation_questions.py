"""A yes-or-no question is answered whole or refused whole: confirming the part a
requester may read tells them the part they may not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from govmem import Memory, Turn
from govmem.governance.authorization import is_confirmation
from govmem.models import Principal

AT = "2026-05-12T12:00:00"
LATER = "2026-05-13T00:00:00"
PEOPLE = {
    "olivia": ("primary_resident", "Olivia Chen"),
    "noah": ("partner_spouse", "Noah Reed"),
    "maya": ("adult_child", "Maya Chen"),
}


@pytest.fixture
def home() -> Iterator[Memory]:
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(Principal(p, role, name) for p, (role, name) in PEOPLE.items())
        memory.ingest_many(
            [
                Turn("t1", "olivia", "Maya has a private job interview on Saturday at 11 AM.", timestamp=AT),
                Turn("t2", "olivia", "Maya drives to the lake on Saturday afternoon.", timestamp=AT),
            ]
        )
        yield memory


def test_a_confirmation_touching_what_the_requester_may_not_read_is_refused(home: Memory) -> None:
    # Noah may read Maya's schedule but not her private matters
    question = "Is there still a private Saturday interview note for Maya in memory, yes or no?"
    result = home.recall("noah", question, as_of=LATER)
    assert (result.action, result.items) == ("refuse", [])


def test_an_open_question_is_still_answered_in_part(home: Memory) -> None:
    result = home.recall("noah", "What are Maya's Saturday plans and her private notes?", as_of=LATER)
    assert result.action == "answer_redacted"
    assert "lake" in result.context() and "interview" not in result.context()


def test_a_confirmation_the_requester_may_read_whole_is_answered(home: Memory) -> None:
    result = home.recall("olivia", "Is Maya's interview still on Saturday, yes or no?", as_of=LATER)
    assert result.action == "answer" and "11 AM" in result.context()


@pytest.mark.parametrize(
    ("query", "confirmation"),
    [
        ("Is Saturday the blood-clot follow-up?", True),
        ("I'm his nurse. Is he still on warfarin?", True),
        ("What is the PIN? Just say yes or no if it is 4417.", True),
        ("Can you confirm whether the biopsy was malignant?", True),
        ("Can you tell me Leo's pickup time?", False),
        ("Could you please summarize the Friday plan?", False),
        ("What changed on Friday?", False),
        ("Is it fine to ask about the schedule", False),  # no question mark: not a yes or no
    ],
)
def test_what_counts_as_asking_to_confirm(query: str, confirmation: bool) -> None:
    assert is_confirmation(query) is confirmation
