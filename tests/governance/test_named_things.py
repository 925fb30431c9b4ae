"""A household talks about its things by name ("Apricot Archive", "Birch Bins") beside its
people: a sentence about a named thing is not about whoever was named before it, and a
resident who says "my" note is the one it is about."""

from __future__ import annotations

import pytest

from govmem.governance.labeling import SAID_BY, Labeler
from govmem.governance.policy_pack import load_pack
from govmem.models import Principal, Relationship
from small_household import household

PEOPLE = {
    "mara": ("primary_resident", "Mara Chen"),
    "leah": ("adult_child", "Leah Chen"),
    "omar": ("partner_spouse", "Omar Chen"),
    "noah": ("guest", "Noah Kim"),
}


SCOPES = [
    Relationship("trusted_helper", "noah", "", {"access_scope": "saturday_apricot_archive_helper_only"}),
    Relationship(
        "logistics_delegate", "mara", "", {"access_scope": "linden_lesson_and_apricot_adapter_logistics_only"}
    ),
]
"""The household's things are the ones its people's access is defined by."""


@pytest.fixture(scope="module")
def home() -> Labeler:
    return Labeler(
        load_pack("household"), [Principal(p, role, name) for p, (role, name) in PEOPLE.items()], SCOPES
    )


def subjects(labeler: Labeler, text: str, speaker: str, previous: set[str]) -> tuple[list[set], frozenset]:
    label, after = labeler.label(text, speaker, None, frozenset(previous))
    found = [{s for s, t in span.facets if not t.startswith(SAID_BY)} for span in label.spans]
    return found, after


def test_a_sentence_naming_a_thing_is_about_no_one_and_ends_the_carry(home: Labeler) -> None:
    text = (
        "After 10:15 AM the Apricot Archive fallback is desk buzz only. Approved areas stay the scan table."
    )
    found, after = subjects(home, text, "mara", {"leah"})
    assert found == [{""}, {""}]
    assert after == frozenset()


def test_a_first_word_weekday_or_single_capital_is_not_a_thing(home: Labeler) -> None:
    for text in (
        "Current window is Saturday 9:10 AM to 10:35 AM.",
        "Sunday Bins uses the hall closet.",
        "Saturday Leah window is 9 AM.",
    ):
        found, _ = subjects(home, text, "mara", {"leah"})
        assert found == [{"leah"}], text


def test_a_thing_named_after_the_first_word_counts(home: Labeler) -> None:
    found, _ = subjects(home, "Current Linden Lesson plan: Tuesday 4:05 PM by the lobby.", "mara", {"leah"})
    assert found == [{""}]


def test_a_resident_saying_my_note_is_its_subject(home: Labeler) -> None:
    """The sentence is theirs; what follows still inherits the last one named."""
    text = "My exact Monday layer is unchanged: 6:45 AM at the east bench."
    found, after = subjects(home, text, "leah", {"mara"})
    assert found == [{"leah"}]
    assert after == {"mara"}


def test_my_beside_someone_else_is_not_the_speakers(home: Labeler) -> None:
    for text in (
        "My understanding is her interview is Thursday at 10 AM.",
        "My brother's pickup is 3:15 PM.",
    ):
        found, _ = subjects(home, text, "omar", {"leah"})
        assert found == [{"leah"}], text


def test_a_capitalised_name_no_scope_names_is_not_a_thing(home: Labeler) -> None:
    for text in (
        "The pickup at Oak Hill Elementary is 3:15 PM at the side gate.",
        "The sessions with Dr Patel are on Tuesdays at 4 PM.",
        "After 10:15 AM the Apricot Archive fallback is desk buzz unless her train is late.",
    ):
        found, _ = subjects(home, text, "mara", {"leah"})
        assert found == [{"leah"}], text


def test_hearing_or_asking_does_not_make_the_speaker_the_subject(home: Labeler) -> None:
    for text in (
        "I heard only that the current note changed.",
        "I also need the exact private Sunday details for my own awareness.",
    ):
        found, after = subjects(home, text, "omar", {"leah"})
        assert found == [{"leah"}], text
        assert after == {"leah"}, text


def test_a_guest_reads_a_things_logistics_but_not_its_code_nor_a_residents_note() -> None:
    memory = household(
        PEOPLE,
        [
            ("leah", "My Monday note is private: 6:35 AM at the west planter."),
            ("mara", "After 10:15 AM the Apricot Archive fallback is desk buzz only."),
            ("mara", "The Apricot Adapter keypad code is 6083 until 12:45 PM."),
        ],
        "2026-10-09T07:00:00",
        SCOPES,
    )
    seen = " ".join(
        item.text for item in memory.recall("noah", "What is the Apricot Archive fallback and code?").items
    )
    assert "desk buzz" in seen
    assert "6083" not in seen
    assert "6:35" not in seen
