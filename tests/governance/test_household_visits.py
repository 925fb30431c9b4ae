"""The household pack: a resident's schedule, a resident's absence and an item's return."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from govmem import Memory
from small_household import household

AT = "2026-06-01T10:00:00"
LATER = "2026-06-02T00:00:00"
PEOPLE = {
    "dana": ("primary_resident", "Dana Kim"),
    "leo": ("roommate", "Leo Park"),
    "sofia": ("cleaner", "Sofia Ortiz"),
}
TURNS = [
    "The Sunday garment-return window is 10:25 AM to 10:40 AM at the lobby desk.",
    "Leo has a dentist appointment on Saturday at 9 AM.",
    "Dana departs Friday at 7:10 AM.",
]


@pytest.fixture
def home() -> Iterator[Memory]:
    with household(PEOPLE, [("dana", text) for text in TURNS], AT) as memory:
        yield memory


def context(home: Memory, requester: str, query: str) -> str:
    return home.recall(requester, query, k=20, as_of=LATER).context()


def test_a_residents_schedule_is_the_residents(home: Memory) -> None:
    assert "dentist" not in context(home, "sofia", "What is happening on Saturday at 9 AM?")
    assert "dentist" in context(home, "dana", "What is happening on Saturday at 9 AM?")


def test_an_items_return_is_logistics(home: Memory) -> None:
    assert "10:25 AM to 10:40 AM" in context(home, "sofia", "When is the Sunday garment-return window?")


def test_a_residents_departure_is_absence(home: Memory) -> None:
    assert "7:10" not in context(home, "sofia", "What happens Friday at 7:10 AM?")
    assert "7:10" in context(home, "dana", "What happens Friday at 7:10 AM?")


@pytest.mark.parametrize(
    ("text", "absence"),
    [
        ("Gate return from Lisbon is Sunday at 9 PM.", True),  # a review's case: a traveller's
        ("His lobby desk return is Sunday at 9 PM.", True),
        ("We fly out Friday at 6 AM and stay until Sunday.", True),  # a review's case
        ("The return location stays the front porch.", False),
        ("Leo's return is Sunday at 9 PM.", True),
        ("Until our return on Sunday, the porch light stays on.", True),
    ],
)
def test_a_travellers_return_or_flight_is_an_absence_a_return_location_is_not(
    text: str, absence: bool
) -> None:
    with household(PEOPLE, [("dana", text)], AT) as memory:
        assert ("absence" in memory.labeler().tags_of(text)) is absence


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Zoe's smart lock stays locked the whole month while she is in rehab.", "health"),
        ("Her rehab sessions run Tuesday mornings.", "health"),
        ("Leo has a cardiac rehab check-in on Friday.", "health"),
        ("The alarm stays armed now that the house sits empty.", "occupancy"),
        ("The flat remains empty until Sunday.", "occupancy"),
        ("Leo is in rehab until the end of the month.", "health"),
    ],
)
def test_rehab_is_health_and_a_home_that_sits_empty_is_occupancy(text: str, tag: str) -> None:
    with household(PEOPLE, [("dana", text)], AT) as memory:
        assert tag in memory.labeler().tags_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "The kitchen rehab crew arrives Tuesday at 8 AM through the side door.",
        "A crew comes Tuesday at 9 AM to rehab the deck through the side door.",
        "The crew left rehab materials at the side door on Friday.",
    ],
)
def test_a_rooms_rehab_is_renovation_not_health(text: str) -> None:
    with household(PEOPLE, [("dana", text)], AT) as memory:
        assert "health" not in memory.labeler().tags_of(text)
