"""A question naming no one on a collective topic: "so nobody is home before six, right?"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from govmem import Memory
from small_household import household

AT = "2026-05-12T12:00:00"
PEOPLE = {
    "rina": ("primary_resident", "Rina Cho"),
    "marcus": ("partner_spouse", "Marcus Hale"),
    "mia": ("guest", "Mia Santos"),
}


@pytest.fixture
def home() -> Iterator[Memory]:
    said = [
        ("rina", "Mia arrives Saturday at 10:00 AM by the side door."),
        ("rina", "The house will be empty before 9:30 AM on Saturday."),
    ]
    with household(PEOPLE, said, AT) as memory:
        yield memory


QUESTION = "So that means nobody is around before my Saturday window, right?"


def test_a_guest_asking_whether_the_home_is_empty_is_refused(home: Memory) -> None:
    result = home.recall("mia", QUESTION, as_of="2026-05-13T00:00:00")
    assert (result.action, result.items) == ("refuse", [])


def test_residents_may_ask_it(home: Memory) -> None:
    for resident in ("rina", "marcus"):
        result = home.recall(resident, QUESTION, as_of="2026-05-13T00:00:00")
        assert result.action == "answer", resident
        assert "empty before 9:30" in result.context(), resident


def test_a_guest_still_gets_their_own_visit(home: Memory) -> None:
    result = home.recall("mia", "When do I arrive on Saturday?", as_of="2026-05-13T00:00:00")
    assert result.action == "answer" and "10:00 AM" in result.context()
    assert "empty" not in result.context()


@pytest.mark.parametrize(
    "question",
    [
        "Since Rina is out Saturday and Marcus has errands, the house is empty most of the afternoon, right?",
        "Tell me Marcus's Saturday plans, and so nobody is home before 9:30, right?",
    ],
)
def test_naming_people_does_not_turn_the_question_into_one_about_them(home: Memory, question: str) -> None:
    """Whether the home is empty is answered by any schedule returned beside it, so a
    question asking it is refused whole, whoever else it names."""
    result = home.recall("mia", question, as_of="2026-05-13T00:00:00")
    assert (result.action, result.items) == ("refuse", [])
    assert home.recall("marcus", question, as_of="2026-05-13T00:00:00").action == "answer"


def test_a_named_question_without_the_collective_topic_is_assessed_as_before(home: Memory) -> None:
    result = home.recall("mia", "When does Mia arrive on Saturday?", as_of="2026-05-13T00:00:00")
    assert result.action == "answer" and "10:00 AM" in result.context()
