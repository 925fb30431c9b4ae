"""A household thread may be called by one word of its name ("Linden Listen" is "Listen"
in the talk and ``listen`` in its helpers' scopes). A word that two scopes name and the
talk capitalises inside a sentence is a thing like a named pair: the sentence is the
thing's, not whoever was talked about before; its device helper sets it up (its locks and
cameras, not its codes); the delegate whose scope names it coordinates it."""

from __future__ import annotations

import pytest

from govmem.governance.labeling import SAID_BY, Labeler, things_of
from govmem.governance.policy_pack import load_pack
from govmem.models import Principal, Relationship
from small_household import household

PEOPLE = {
    "hana": ("primary_resident", "Hana Reed"),
    "zoe": ("adult_child", "Zoe Reed"),
    "elise": ("household_manager", "Elise Hart"),
    "sam": ("home_it_helper", "Sam Ross"),
    "gabe": ("driver_pickup_contact", "Gabe Mills"),
    "ian": ("building_staff", "Ian Keller"),
}
SCOPES = [
    Relationship("household_member", "hana", "reed_house"),
    Relationship("household_member", "zoe", "reed_house"),
    Relationship(
        "logistics_delegate", "elise", "reed_house", {"access_scope": "lesson_and_listen_logistics_only"}
    ),
    Relationship(
        "device_setup_delegate", "sam", "reed_house", {"access_scope": "wednesday_listen_setup_only"}
    ),
    Relationship("pickup_delegate", "gabe", "reed_house", {"access_scope": "tuesday_backup_pickup_only"}),
    Relationship("building_service", "ian", "reed_house", {"access_scope": "lobby_badge_and_intercom_only"}),
]
LISTEN = "listen"


def principals() -> list[Principal]:
    return [Principal(p, role, name) for p, (role, name) in PEOPLE.items()]


@pytest.fixture(scope="module")
def home() -> Labeler:
    return Labeler(load_pack("household"), principals(), SCOPES)


def subjects(labeler: Labeler, text: str, speaker: str, previous: set[str]) -> list[set[str]]:
    label, _ = labeler.label(text, speaker, None, frozenset(previous))
    return [{s for s, t in span.facets if not t.startswith(SAID_BY)} for span in label.spans]


def test_a_word_two_scopes_name_is_a_thing_one_scope_or_a_pair_word_is_not() -> None:
    things = things_of(load_pack("household"), SCOPES, principals())
    assert LISTEN in things
    assert "lesson" not in things  # one scope names it
    assert "tuesday" not in things and "logistics" not in things and "pickup" not in things
    paired = [
        *SCOPES,
        Relationship(
            "guest_of_resident", "gabe", "", {"access_scope": "saturday_apricot_archive_helper_only"}
        ),
        Relationship("logistics_delegate", "ian", "", {"access_scope": "apricot_archive_logistics_only"}),
    ]
    found = things_of(load_pack("household"), paired, principals())
    assert "apricot_archive" in found and "apricot" not in found and "archive" not in found


def test_a_sentence_calling_the_thread_by_its_word_is_the_things(home: Labeler) -> None:
    text = "Current Listen state is Wednesday 5:30-5:50, QR LLN-9, piano nook and den media bench."
    assert subjects(home, text, "hana", {"zoe"}) == [{LISTEN}]


@pytest.mark.parametrize(
    "text",
    [
        "Listen, the den tablet works again on Wednesday at 5:30 PM.",  # the word opens the sentence
        "Logging that: Listen zones stay the piano nook on Wednesday.",  # it opens a clause
        "Please listen for the buzz on Wednesday at 5:30 PM.",  # not capitalised
    ],
)
def test_the_word_opening_a_sentence_or_in_lower_case_names_no_thing(home: Labeler, text: str) -> None:
    assert subjects(home, text, "hana", {"zoe"}) == [{"zoe"}]


def test_the_device_helper_sets_the_thing_up_but_reads_neither_its_codes_nor_the_familys() -> None:
    memory = household(
        PEOPLE,
        [
            ("zoe", "My Thursday departure is private: 5:55 PM at the east curb."),
            ("hana", "Current Listen access is QR LLN-9 plus tap-only resident unlock."),
            ("hana", "The Listen fallback code is 2486 until Friday."),
            ("hana", "Camera clips go to Hana and Zoe only."),
        ],
        "2026-11-03T08:00:00",
        SCOPES,
    )

    def seen(
        requester: str, query: str = "What is the Listen access, its fallback code and the camera sharing?"
    ) -> str:
        return " ".join(item.text for item in memory.recall(requester, query, k=20).items)

    def departure(requester: str) -> str:
        return seen(requester, "When is Zoe's Thursday departure?")

    sam = seen("sam")
    assert "tap-only resident unlock" in sam
    assert "Camera clips go to Hana and Zoe" in sam  # who sees which camera is setup work
    assert "2486" not in sam and "5:55" not in departure("sam")
    elise = seen("elise")
    assert "tap-only resident unlock" in elise and "2486" in elise  # her scope names Listen
    assert "5:55" not in departure("elise")
    ian = seen("ian")
    assert "tap-only" not in ian and "2486" not in ian and "Camera clips" not in ian
    assert "5:55" not in departure("ian")
    assert "5:55" in departure("hana")
