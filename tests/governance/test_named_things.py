"""A household talks about its things by name ("Apricot Archive", "Birch Bins") beside its
people. The things its people's scopes name are subjects like people: a sentence naming
one is the thing's, not whoever was named before it; the delegate whose scope names it
reads its codes, helpers its logistics. A resident who says "my" note is its subject."""

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
    "sonia": ("household_manager", "Sonia Park"),
    "emma": ("household_manager", "Emma Cross"),
}
ARCHIVE = "apricot_archive"
SCOPES = [
    Relationship("guest_of_resident", "noah", "", {"access_scope": "saturday_apricot_archive_helper_only"}),
    Relationship(
        "logistics_delegate",
        "sonia",
        "",
        {"access_scope": "apricot_archive_and_apricot_adapter_logistics_only"},
    ),
    Relationship("logistics_delegate", "emma", "", {"access_scope": "scheduling_and_logistics_only"}),
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


def test_a_sentence_naming_a_thing_is_the_things_and_the_talk_goes_on_about_it(home: Labeler) -> None:
    text = (
        "After 10:15 AM the Apricot Archive fallback is desk buzz only. Approved areas stay the scan table."
    )
    found, after = subjects(home, text, "mara", {"leah"})
    assert found == [{ARCHIVE}, {ARCHIVE}]
    assert after == {ARCHIVE, "leah"}  # the people of the talk are kept for what is theirs


def test_after_a_thing_only_its_logistics_inherit_it(home: Labeler) -> None:
    for text, whose in (
        ("The Apricot Archive setup is at 9 in the study. The garage code is 4471.", {"leah"}),
        ("The Apricot Archive crate moves at 4 PM. Her laptop PIN is 2231.", {"leah"}),
        ("The Apricot Archive crate moves at 4 PM. His appointment is at 5 PM.", {"leah"}),
    ):
        found, _ = subjects(home, text, "mara", {"leah"})
        assert found == [{ARCHIVE}, whose], text
    found, _ = subjects(
        home, "The Apricot Archive crate moves at 4 PM. The garage code is 4471.", "mara", set()
    )
    assert found == [{ARCHIVE}, {""}]


def test_a_code_in_a_clause_of_its_own_is_not_the_things(home: Labeler) -> None:
    text = "The Apricot Archive goes out at 7 PM and the front door code is 5521 this week."
    assert subjects(home, text, "mara", set())[0] == [{ARCHIVE, ""}]
    text = "The Apricot Archive code is 4682 until Sunday."
    assert subjects(home, text, "mara", set())[0] == [{ARCHIVE}]


def test_scope_pairs_that_name_places_or_days_are_not_things() -> None:
    from govmem.governance.labeling import things_of

    scopes = [
        Relationship(
            "logistics_delegate", "sonia", "", {"access_scope": "package_room_and_front_door_logistics_only"}
        ),
        Relationship(
            "guest_of_resident", "noah", "", {"access_scope": "saturday_apricot_archive_helper_only"}
        ),
    ]
    things = things_of(load_pack("household"), scopes, [])
    assert "apricot_archive" in things
    assert not {"package_room", "front_door", "saturday_apricot"} & things
    assert things_of(load_pack("education"), scopes, []) == frozenset()  # no scope_things there


def test_a_persons_detail_beside_a_thing_stays_theirs(home: Labeler) -> None:
    text = "After 10:15 AM the Apricot Archive fallback is desk buzz unless her train is late."
    assert subjects(home, text, "mara", {"leah"})[0] == [{ARCHIVE, "leah"}]
    text = "I open the Apricot Archive closet at 9 before my shift."
    assert subjects(home, text, "omar", set())[0] == [{ARCHIVE, "omar"}]


def test_a_first_word_weekday_or_single_capital_is_not_a_thing(home: Labeler) -> None:
    for text in (
        "Current window is Saturday 9:10 AM to 10:35 AM.",
        "Sunday Bins uses the hall closet.",
        "Saturday Leah window is 9 AM.",
    ):
        found, _ = subjects(home, text, "mara", {"leah"})
        assert found == [{"leah"}], text


def test_a_thing_named_after_the_first_word_counts(home: Labeler) -> None:
    found, _ = subjects(home, "Current Apricot Archive plan: Tuesday 4:05 PM by the lobby.", "mara", {"leah"})
    assert found == [{ARCHIVE}]


def test_a_thing_named_first_in_its_sentence_counts(home: Labeler) -> None:
    found, _ = subjects(home, "Apricot Archive moves to the scan table at 9:40 AM.", "mara", {"leah"})
    assert found == [{ARCHIVE}]


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
        "The Apricot Sunday crate is full.",
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


def test_a_thing_is_read_by_its_helpers_and_its_codes_by_the_delegate_whose_scope_names_it() -> None:
    memory = household(
        PEOPLE,
        [
            ("leah", "My Monday note is private: 6:35 AM at the west planter."),
            ("mara", "After 10:15 AM the Apricot Archive fallback is desk buzz only."),
            ("mara", "The Apricot Adapter keypad code is 6083 until 12:45 PM."),
            ("mara", "The alarm code is 4471 this week."),
        ],
        "2026-10-09T07:00:00",
        SCOPES,
    )

    def seen(requester: str) -> str:
        query = "What is the Apricot Archive fallback, the Apricot Adapter code and the alarm code?"
        return " ".join(item.text for item in memory.recall(requester, query, k=20).items)

    assert "desk buzz" in seen("noah")
    assert "6083" not in seen("noah")
    assert "6:35" not in seen("noah")
    assert "6083" in seen("sonia")  # her scope names the Apricot Adapter
    assert "4471" not in seen("sonia")  # a code of the home, not of a thing she coordinates
    assert "6:35" not in seen("sonia")
    assert "6083" not in seen("emma")  # a delegate whose scope names no thing
    assert "desk buzz" in seen("emma")


def test_the_home_itself_is_not_a_thing_helpers_read_about() -> None:
    memory = household(
        PEOPLE,
        [("mara", "Nobody will be at Chen House from 9 AM Friday to 8 PM Monday.")],
        "2026-10-09T07:00:00",
        [*SCOPES, Relationship("household_member", "mara", "chen_house")],
    )
    assert not memory.recall("noah", "When is Chen House empty?").items


def test_a_store_labels_again_when_its_things_change() -> None:
    people = [Principal(p, role, name) for p, (role, name) in PEOPLE.items()]
    before = Labeler(load_pack("household"), people, SCOPES[2:])
    after = Labeler(load_pack("household"), people, SCOPES)
    assert before.fingerprint != after.fingerprint


def test_a_code_is_the_things_only_when_the_sentence_shows_it(home: Labeler) -> None:
    for text in (
        "The current Apricot Archive code is now 4682.",
        "Current Apricot Adapter rule stays PIN 6083 before 12:45 PM, desk release after.",
        "Opening Apricot Archive logged: Sunday 10:10 AM, lobby cart, closet PIN 9154.",
    ):
        assert "" not in subjects(home, text, "mara", set())[0][0], text
    for text in (
        "Our garage code also opens the Apricot Archive cabinet: 4471.",
        "The Apricot Archive keypad uses the same code as the front door, 5521.",
        "The Apricot Archive goes out at 7 PM, the front door code is 5521.",
        "The front door code is 5521 and the Apricot Archive goes out at 7 PM.",
        "The Apricot Archive laptop takes Dad's banking PIN 7781.",
    ):
        assert "" in subjects(home, text, "mara", set())[0][0], text


def test_a_code_named_by_its_things_scope_word_after_the_thing_is_the_things(home: Labeler) -> None:
    _, after = subjects(home, "The current Apricot Archive code is now 4682.", "mara", {"leah"})
    assert after == {ARCHIVE, "leah"}
    for text in (
        "The current helper phrase is now 'amber glow'. Replace the old phrase.",
        "The Saturday helper code is 4455.",
    ):
        assert subjects(home, text, "noah", after)[0][0] == {ARCHIVE}, text


@pytest.mark.parametrize(
    "text",
    [
        "The helper phrase for my locker is 'amber glow'.",  # the speaker's
        "Her helper phrase is 'amber glow'.",  # a person's
        "Dad's helper PIN is 7781.",
        "The kids' helper code is 4410.",
        "Our helper code is 4471.",  # the home's
        "The helper code for the garage is 4471.",
        "The helper gets the side-door code 4410 on Saturday.",
        "The Saturday gym locker code is 7719.",  # a weekday says nothing of whose code it is
        "The Saturday mudroom keypad is 2231.",
        "Quick check: the storage unit PIN is 2208.",
        "The helper phrase is 'amber glow' and the shed PIN stays 7788.",  # two codes
        "Logging Saturday state: code 4682, phrase 'amber glow'.",
        "The current phrase is now 'amber glow'.",  # no word of the thing's scope
        "The Saturday babysitter code is 1188.",
    ],
)
def test_a_code_not_shown_to_be_the_things_is_not_the_things(home: Labeler, text: str) -> None:
    assert ARCHIVE not in subjects(home, text, "mara", {ARCHIVE, "leah"})[0][0]


def test_the_turns_own_code_stays_the_speakers(home: Labeler) -> None:
    found, _ = subjects(home, "My laptop PIN is 9032. The helper PIN is 5561.", "leah", {ARCHIVE})
    assert ARCHIVE not in found[-1]


def test_a_code_in_a_things_words_goes_to_it_only_while_it_is_talked_about(home: Labeler) -> None:
    assert subjects(home, "The current helper phrase is now 'amber glow'.", "mara", {"leah"})[0][0] == {
        "leah"
    }


def test_a_household_or_a_person_named_by_a_scope_is_not_a_thing() -> None:
    from govmem.governance.labeling import things_of

    people = [
        Principal("rosa", "elder_family_member", "Rosa Chen"),
        Principal("nina", "caregiver", "Nina Park"),
    ]
    scopes = [
        Relationship("household_member", "rosa", "maple_house"),
        Relationship("household_manager_for", "sonia", "", {"access_scope": "maple_house_logistics_only"}),
        Relationship("caregiver_for", "nina", "rosa", {"access_scope": "grandma_rosa_visits_only"}),
    ]
    assert things_of(load_pack("household"), scopes, people) == frozenset()


def test_a_delegate_may_not_pass_a_things_codes_on() -> None:
    from govmem.errors import PolicyError

    memory = household(PEOPLE, [], "2026-10-09T07:00:00", SCOPES)
    with pytest.raises(PolicyError, match="may not grant"):
        memory.grant("sonia", "noah", "apricot_archive", ["credentials"])
    memory.grant("mara", "noah", "apricot_archive", ["credentials"])  # a resident may


# clauses apart from a code


def test_a_schedule_clause_beside_a_code_is_labelled_apart(home: Labeler) -> None:
    text = "Current Apricot Archive rule stays keypad 2745 before 10:05 AM, desk buzz after 10:05 AM."
    label, _ = home.label(text, "mara", None, frozenset())
    pieces = [
        (text[s.start : s.end], {t for _, t in s.facets if not t.startswith(SAID_BY)}) for s in label.spans
    ]
    assert pieces == [
        ("Current Apricot Archive rule stays keypad 2745 before 10:05 AM, ", {"credentials", "scheduling"}),
        ("desk buzz after 10:05 AM.", {"scheduling"}),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Keypad 2745 before 10:05 AM, phrase walnut glow after 10:05 AM.",  # the clause holds a code word
        "Keypad 2745 before 10:05 AM, 'walnut glow' after 10:05 AM.",  # a quotation
        "Keypad 2745 before 10:05 AM, 9136 after 10:05 AM.",  # another code
        "Exact private keypad 2745, Leah at 6:35 AM.",  # a private sentence stays whole
        "Keypad 2745 before 10:05 AM, spare key under the black planter.",  # a place: not a schedule
        "Garage keypad 4471 for Friday, we are out from 9 AM to 8 PM.",  # whereabouts
        "The keypad is 2745, the shed combination is 19-27-33 after 5 PM.",
        "The keypad is 2745, the shed opens 19-27-33 after 5 PM.",  # a combination without its name
        "Keypad 2745 before 10:05 AM, desk buzz on Tuesdays.",  # no clock time: left whole
        "Garage code 4471 while the house is empty, 9:00 AM to 8:00 PM.",  # occupancy
        "Tessa gives the release phrase at the gate, blue cedar at 3:20 PM.",  # a phrase unquoted
        "The keypad is 2745, last two digits 45 work after 10:05 AM.",
        "The side gate code is 2745, leaving by 6:40 AM, south tram kiosk.",
        "Keypad 2745 before 3 PM, no adults back until 6:30 PM.",
        "Keypad 2745 before 3 PM, kids at school until 3:00 PM.",
        "Pickup phrase 'linden fold' before 5:40 PM, countersign silver kite after 5:40 PM.",
        "Side keypad 4471 until 6 PM, the spare one sits under the blue planter after 6 PM.",
        "Keypad 2745 until 10:15 AM, then say apricot echo at the desk after 10:15 AM.",
        "Keypad 2745 until 6 PM, the apartment is unattended until 6 PM.",
    ],
)
def test_a_clause_that_may_hold_a_secret_stays_with_its_sentence(home: Labeler, text: str) -> None:
    label, _ = home.label(text, "mara", None, frozenset({"leah"}))
    assert len(label.spans) == 1, [text[s.start : s.end] for s in label.spans]


def test_a_bare_four_digit_number_in_household_talk_is_a_code(home: Labeler) -> None:
    assert "credentials" in home.tags_of("Listen remains Wednesday with fallback 2486.")
    assert "credentials" in home.tags_of("Lesson stays Tuesday with 4158 as rain fallback.")
    assert "credentials" in home.tags_of("The side gate opens with 2019 now.")  # a year-like code
    for text in (
        "We moved here in 2019.",
        "Since 2020 the lobby is staffed.",
        "The lease runs to March 2027.",
    ):
        assert "credentials" not in home.tags_of(text), text
    for text in (
        "The fair is in 2026.",
        "Arrive at 10:05 AM.",
        "The bill is $1200.",
        "Unit 12-3456 is next door.",
    ):
        assert "credentials" not in home.tags_of(text), text


def test_broad_wording_with_a_clock_time_is_safe_wording(home: Labeler) -> None:
    assert home.tags_of("My broad Monday wording remains after 6:30 AM near the north cafe side.") == {
        "safe_wording"
    }
    for text in (
        "My broad Monday wording remains after 6:30 AM, exact 6:35 AM at the planter.",
        "The broad wording is gate 2745 after 6:30 AM.",
        "My broad wording is after 6 PM by rideshare, but I actually leave at 6:10 PM from the ramp.",
        "My broad wording is after 6 PM to 6:10 PM near the ramp.",  # two clock times
        "My broad wording is after 6 PM at bay 3.",  # a figure that is no clock time
        "My broad wording stays after 6:20 AM, not 6:40 at the south tram kiosk.",
        "My broad wording is 6:20 to 6:40 AM at the south tram kiosk.",
        "My broad wording is after 6:20 AM near the south side, leaving 6:40 a.m. from the kiosk.",
        "Zoe starts at 5:55 PM at the east curb, so desks get the broad early-start wording.",
        "Zoe's 5:55 PM east-curb pickup should only go out as broad wording.",
    ):
        assert "safe_wording" not in home.tags_of(text), text


def test_a_weekday_in_a_scope_names_no_thing() -> None:
    """Withdrawn after two reviews: "Saturday ..." said without a name was the Saturday
    helper's thing whenever a scope tied Saturday to it, and every visitor read it: a
    resident's "Saturday orthodontist at 10 AM on Birch Lane", a child's "Saturday pickup
    for the twins at 4 PM", "Saturday the flat is vacant from 9 AM to 8 PM", relayed by the
    delegate the turn after the resident was named. The carried subject keeps them."""
    labeler = Labeler(
        load_pack("household"), [Principal(p, role, name) for p, (role, name) in PEOPLE.items()], SCOPES
    )
    for text in (
        "Saturday orthodontist at 10 AM on Birch Lane.",
        "Saturday pickup for the twins at 4 PM.",
        "Saturday the flat is vacant from 9 AM to 8 PM.",
        "Saturday buzz after 9:35 AM at the lobby desk.",
    ):
        found, _ = subjects(labeler, text, "sonia", {"leah"})
        assert found == [{"leah"}], text
