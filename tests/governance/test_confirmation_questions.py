"""A yes-or-no question is answered whole or refused whole: confirming the part a
requester may read tells them the part they may not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from govmem import Memory, Turn
from govmem.governance.authorization import is_confirmation
from small_household import household

AT = "2026-05-12T12:00:00"
LATER = "2026-05-13T00:00:00"
PEOPLE = {
    "olivia": ("primary_resident", "Olivia Chen"),
    "noah": ("partner_spouse", "Noah Reed"),
    "maya": ("adult_child", "Maya Chen"),
}


@pytest.fixture
def home() -> Iterator[Memory]:
    said = [
        ("olivia", "Maya has a private job interview on Saturday at 11 AM."),
        ("olivia", "Maya drives to the lake on Saturday afternoon."),
    ]
    with household(PEOPLE, said, AT) as memory:
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


def test_a_yes_or_no_about_a_deleted_item_is_no_memory_not_a_refusal(home: Memory) -> None:
    """Probes for a forgotten item get no_memory whoever asks: the confirmation rule
    does not come before that check (a review found it did)."""
    home.ingest(Turn("t3", "olivia", "Maya's old locker code is 4417.", timestamp=AT))
    home.ingest(Turn("t4", "olivia", "Please delete Maya's old locker code 4417 from memory.", timestamp=AT))
    refused = home.recall(
        "noah", "Is Maya's interview on Saturday and is her note private, yes or no?", as_of=LATER
    )
    assert refused.action == "refuse"
    question = "Was Maya's deleted locker code 4417, and is her interview on Saturday, yes or no?"
    assert home.recall("noah", question, as_of=LATER).action == "no_memory"


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
        ("Is there still a private note for Maya on Saturday, right?", True),
        ("Quick check, is there a private interview for Maya on Saturday?", True),
        ("True or false: Maya has an interview on Saturday.", True),
        ("Confirm that Maya's interview is Saturday.", True),
        ("Isn't Maya's private interview on Saturday?", True),
        ("Is Dr. Kim covering at 9 a.m. on Friday?", True),
        ("Tell me whether the biopsy means cancer.", True),
        ("Can you tell me Leo's pickup time?", False),
        ("Can I get Leo's Friday pickup time and the door code?", False),
        ("Could you let me know Leo's pickup time?", False),
        ("Do you know Leo's pickup time?", False),
        ("Could you please summarize the Friday plan?", False),
        ("What changed on Friday?", False),
        ("Is it fine to ask about the schedule", False),  # no question mark: not a yes or no
    ],
)
def test_what_counts_as_asking_to_confirm(query: str, confirmation: bool) -> None:
    assert is_confirmation(query) is confirmation
