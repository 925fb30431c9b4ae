"""Claims inside turns: values by attribute, replaced values, anchors, assertion."""

from __future__ import annotations

import pytest

from claim_records import found_in_any_batches, records
from govmem.governance.revocation.claim_supersession import (
    ClaimRecord,
    changed_attributes,
    find_claim_supersessions,
    related,
    same_thing,
)
from govmem.governance.revocation.claims import claims_of


def only(text: str):
    claims = claims_of(text)
    assert len(claims) == 1, claims
    return claims[0]


def superseded(*texts: str) -> list[int]:
    """The records whose claims the later ones supersede, in finding order."""
    return [f.older for f in find_claim_supersessions(records(*texts), [])]


def test_values_by_attribute_and_replaced_values() -> None:
    claim = only("The follow-up moved from Tuesday 10:00 AM to Thursday 1:30 PM.")
    assert claim.values == {"weekday": {"thursday"}, "clock": {"13:30"}}
    assert claim.replaced == {"weekday": {"tuesday"}, "clock": {"10:00"}}
    assert claim.revises and claim.asserts
    assert "follow" in claim.anchor and "mov" not in claim.anchor


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("Increase metoprolol tartrate to 37.5 mg BID.", "dose", "37.5 mg"),
        ("Nifedipine 30 milligrams nightly.", "dose", "30 mg"),
        ("The budget is 231,000 USD.", "amount", "231000"),
        ("The room is now LH-318.", "code", "LH-318"),
        ("The keypad code is now 2745.", "code", "2745"),
        ("The cap is 8% now.", "percent", "8"),
        ("Visit on July 8 at noon.", "date", "july 8"),
    ],
)
def test_value_kinds(text: str, attribute: str, value: str) -> None:
    assert value in only(text).values[attribute]


def test_a_unit_matched_only_by_case_folding_is_no_dose_and_no_error() -> None:
    (claim,) = claims_of("Give 5 \u0130U tonight, then LH-318 at 4 PM.")  # dotted capital I
    assert "dose" not in claim.values
    assert claim.values["code"] == {"LH-318"} and claim.values["clock"] == {"16:00"}


def test_codes_are_found_inside_any_run_of_word_characters() -> None:
    claims = claims_of("Badge bh_temp_5926, room 7Q4N, line 555-0144 (not 3,980 or 2026).")
    codes = set().union(*(c.values.get("code", set()) for c in claims))
    assert codes == {"BH_TEMP_5926", "7Q4N", "555-0144"}


def test_a_year_and_an_ordinal_are_not_codes() -> None:
    claims = claims_of("Since 2024 the 2nd floor desk opens at 9:00 AM.")
    assert all("code" not in c.values for c in claims)


def test_questions_conditions_and_requests_assert_nothing() -> None:
    for text in (
        "Can I move the visit to Friday at 3 PM?",
        "If you move Monday to 4 PM, we can switch lines.",
        "Please move my appointment to Friday at 2 PM.",
        "Since I only drive, tell me whether Friday July 10 is the eye clinic or the dentist.",
        "Confirm whether the 3:15 PM slot still holds.",
    ):
        assert not only(text).asserts, text


def test_negated_change_wording_is_no_revision() -> None:
    assert not only("The dose did not change: 25 mg daily.").revises


def test_a_weekday_naming_a_thread_is_part_of_the_anchor_not_a_value() -> None:
    claim = only("The Saturday summary is desk buzz after 9:25 AM.")
    assert "weekday" not in claim.values and "saturday" in claim.anchor
    assert only("The visit moved to Saturday at 9:25 AM.").values["weekday"] == {"saturday"}


def test_a_listing_sentence_is_cut_into_its_items() -> None:
    text = "Calendar: Wednesday July 8 at 2:00 PM nephrology and Friday July 10 at 11:00 AM rheumatology."
    claims = claims_of(text)
    assert len(claims) == 2
    assert "nephrology" in claims[0].anchor and "rheumatology" in claims[1].anchor
    assert text[claims[1].start : claims[1].end].startswith("Friday July 10")


def test_an_item_naming_its_own_owner_and_no_value_is_not_the_values() -> None:
    """Two held-out samples found "and Tuesday's ECG plus cardiology visit" taking the Monday
    callback's 8:40 AM: the Tuesday ECG's move then cut the callback that still holds."""
    text = "I am just confirming Monday's nurse callback at 8:40 AM and Tuesday's ECG plus cardiology visit."
    claim = only(text)
    assert text[claim.start : claim.end] == "I am just confirming Monday's nurse callback at 8:40 AM"
    assert "ecg" not in claim.anchor and not claim.sentence
    found = found_in_any_batches(
        records(text, "I found an opening. Tuesday's ECG can move to 12:50 PM with Dr. Patel at 1:20 PM.")
    )
    assert found == []
    # an item without an owner of its own still says what the value is of
    assert "voicemail" in only("Call 510-555-0184 extension 12 and leave no detailed voicemail.").anchor


@pytest.mark.parametrize(
    "confirmation",
    [
        "I am confirming the nurse callback at 8:40 AM and Dr. Patel's ECG review.",
        "Confirming the nurse callback at 8:40 AM and her ECG plus echo.",
        "Confirming Monday's nurse callback at 8:40 AM, Tuesday's ECG, and Wednesday's labs.",
        "The nurse callback is at 8:40 AM and then Tuesday's ECG.",
        "The standup stays at 9:30 AM and the Designers' critique.",
    ],
)
def test_an_owners_valueless_item_in_other_shapes_is_not_the_values(confirmation: str) -> None:
    """A review's wrong cuts: a titled, plural or pronoun owner, "and then", a list's comma."""
    change = "I found an opening. Tuesday's ECG can move to 12:50 PM, the critique to 11 AM."
    assert find_claim_supersessions(records(confirmation, change), []) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Tuesday's ECG is at 10 AM.", "The cardiology visit moved to 12:50 PM and Tuesday's ECG too."),
        (
            "Dana's fasting labs are Thursday at 8 AM.",
            "The infusion moves to Friday at 8 AM and Dana's fasting labs with it.",
        ),
        (
            "Priya's quarterly review is at 2 PM.",
            "The budget sync moved to 3 PM and Priya's quarterly review as well.",
        ),
        (
            "Leo's dentist appointment is Thursday at 3 PM.",
            "Piano moved to 4 PM and Leo's dentist appointment also.",
        ),
        ("Leo's bike lock code is 9032.", "The shed code is now 5590 and Leo's bike lock changed to match."),
        (
            "Maria's warfarin dose is 5 mg nightly.",
            "The dose goes up to 7.5 mg and Maria's warfarin stays at night.",
        ),
    ],
)
def test_an_item_naming_its_own_owner_that_shares_the_value_is_still_changed(old: str, new: str) -> None:
    """A review's cases: the first version split off "and Tuesday's ECG too", so the change was lost."""
    assert find_claim_supersessions(records(old, new), [])


def test_a_claim_opening_on_a_longer_sibling_name_is_that_ones() -> None:
    """A held-out sample found the Copper budget's change cutting "Copperline has a separate
    ... budget": a sentence's first word is no entity, so the sibling name went unseen."""
    sibling = "Copperline has a separate 198,000 USD working budget, never a proxy for Copper."
    change = "The Copper budget is now 224,000 USD."
    assert find_claim_supersessions(records(sibling, change), []) == []
    assert len(find_claim_supersessions(records("Copper has a 255,000 USD working budget.", change), [])) == 1
    rooming = records("Rooming budget is 3,000 USD.", "Update: the Room budget is now 3,200 USD.")
    assert len(find_claim_supersessions(rooming, [])) == 1  # an inflection names nothing else


def test_a_claim_that_only_says_how_to_take_the_value_before_goes_with_it() -> None:
    """Held-out sample 2036: "Treat August 29, 2026 as current until later update." stayed
    current after the target moved on, since it names nothing the change names."""
    found = found_in_any_batches(
        records(
            "Update: Willow now moves from August 18, 2026 to August 29, 2026 because review added a cycle. "
            "Treat August 29, 2026 as current until later update.",
            "Launch update: Willow now moves from August 29, 2026 to September 16, 2026 because work slowed.",
        )
    )
    assert sorted((f.older, f.whole, f.reasons[0]) for f in found) == [
        (0, True, "named-replaced"),
        (0, True, "restates-replaced"),
    ]
    # a claim of its own beside the value is not taken with it
    assert (
        len(
            find_claim_supersessions(
                records(
                    "The review moves to Tuesday at 10 AM. Parking opens at 10 AM.",
                    "Update: the review moves from 10 AM to 11 AM.",
                ),
                [],
            )
        )
        == 1
    )


@pytest.mark.parametrize(
    ("earlier", "change"),
    [
        (
            "The flu shot and the blood draw are both moved to Tuesday at 9 AM. Treat 9 AM as confirmed.",
            "Update: the blood draw moves from 9 AM to 11 AM.",
        ),
        (
            "Physio is now Monday and Wednesday at 9 AM. Keep 9 AM on Wednesday.",
            "Update: Monday physio moves from 9 AM to 10 AM.",
        ),
        (
            "Piano lessons are now Tuesdays and Thursdays at 4 PM. Treat 4 PM as current.",
            "Update: Thursday piano moves from 4 PM to 5 PM.",
        ),
        (
            "The school bus now leaves at 7:40 AM. Use 7:40 AM for both.",
            "Update: the bus moves from 7:40 AM to 7:55 AM.",
        ),
        (
            "Metoprolol is now 5 mg in the evening. Morning dose: keep 5 mg.",
            "Update: metoprolol changes from 5 mg to 10 mg in the evening.",
        ),
        (
            "The budget review moves to Thursday at 3 PM. Planning stays at 3 PM.",
            "Update: the budget review moves from 3 PM to 4 PM.",
        ),
        (
            "The tuition deadline moves to March 30. The hold is valid until March 30.",
            "Update: the tuition deadline moves from March 30 to April 6.",
        ),
        (
            "The flu clinic is now October 14. Use by October 14.",
            "Update: the flu clinic moves from October 14 to October 21.",
        ),
    ],
)
def test_a_claim_after_the_changed_one_that_holds_on_its_own_stays(earlier: str, change: str) -> None:
    """A review's wrong cuts of the first version: another thing or day of the value, a
    heading naming another thing, a noun among the words of taking, an expiry."""
    follow_on = claims_of(earlier)[-1]
    found = find_claim_supersessions(records(earlier, change), [])
    assert all(f.start != follow_on.start for f in found), found


def test_different_medications_are_different_things() -> None:
    old = only("Apixaban 5 mg BID.")
    new = only("Increase metoprolol tartrate to 37.5 mg BID.")
    assert not same_thing(old, new)
    assert same_thing(only("Metoprolol tartrate 25 mg BID."), new)


def test_a_clock_without_am_pm_matches_either_half_of_the_day() -> None:
    old = only("The exact note is 6:10 at the north ramp.")
    new = only("Update: the exact note is 6:10 PM at the north ramp.")
    assert changed_attributes(old, new) == []


def test_a_change_supersedes_only_the_claim_it_revises() -> None:
    found = find_claim_supersessions(
        records(
            "Your follow-up is Tuesday at 10:00 AM. Metoprolol stays at 25 mg BID.",
            "Good news: the follow-up moved to Thursday at 1:30 PM.",
        ),
        [],
    )
    assert [(f.older, f.newer, f.whole) for f in found] == [(0, 1, True)]
    assert (
        "Tuesday" in records("Your follow-up is Tuesday at 10:00 AM.")[0].text[found[0].start : found[0].end]
    )


def test_a_change_revises_the_list_item_it_fits_best() -> None:
    """The list's opening words ("follow-up items") go with its first item only; the
    rheumatology move is still not the nephrology item's (weights as in a conversation
    where rheumatology is said often, so "follow" weighs more)."""
    texts = (
        "Rheumatology labs are due March 3.",
        "The rheumatology clinic is on floor 3 at 9:00 AM.",
        "Rheumatology wants a urine sample by March 5.",
        "Three active follow-up items are Wednesday July 8 at 2:00 PM nephrology, "
        "Friday July 10 at 11:00 AM rheumatology, and Monday July 20 at 1:00 PM pharmacist call.",
        "Because Friday clinic closed, the rheumatology follow-up moved to Monday July 13 at 3:00 PM.",
    )
    listed = records(*texts)
    found = find_claim_supersessions(listed, [])
    cut = [listed[f.older].text[f.start : f.end] for f in found]
    assert cut == ["Friday July 10 at 11:00 AM rheumatology"]


def test_a_public_value_is_not_revised_by_a_private_change() -> None:
    public = "Our notes mention Showcase Bay 328 and the public amount 3,405 USD; none of that is private."
    change = "Current private amount is now 3,410 USD; 3,470 USD is no longer the active figure."
    private = "The private amount is 3,470 USD."
    talk = [f"The {track} room is Bay {n}." for n in range(320, 326) for track in ("public", "private")]
    found = find_claim_supersessions(records(*talk, public, private, change), [])
    assert [f.older for f in found] == [len(talk) + 1]  # "public" and "private" weigh little, "amount" much


def test_a_sentence_saying_what_changes_before_its_value_says_what_the_value_is_of() -> None:
    earlier = "The guest network code is 4410."
    change = "The guest network code also changed. The current code is 5583."
    assert superseded(earlier, change) == [0]
    release = (
        "Sunday release stays after 1:15 PM.",
        "Sunday release is moving later. Make it release after 1:20 PM.",
    )
    assert superseded(*release) == [0]


def test_a_sentence_before_about_another_thing_lends_nothing() -> None:
    """A review's traps: the claim names something the sentence before does not."""
    for hours, change in (
        (
            "Pharmacy hours are 8:00 AM to 8:00 PM.",
            "The pharmacy changed its hours. Your MRI is now Tuesday at 9:00 AM.",
        ),
        ("The alarm code is 2211.", "The alarm company rotated codes. The garage code is now 9900."),
        ("Lunch duty is at 11:30 AM.", "Lunch duty rotates weekly. Your recess duty is now at 12:45 PM."),
    ):
        assert find_claim_supersessions(records(hours, change), []) == [], change


def test_the_weekday_of_a_sentence_saying_what_changes_names_the_thread_of_its_value() -> None:
    sunday = "Sunday release is moving slightly later. Make it release after 1:20 PM."
    monday = "Update the broad Monday wording slightly later: after 6:20 AM on the east tram side."
    assert find_claim_supersessions(records(sunday, monday), []) == []
    # the weekday before is the old slot's when the value gives its own
    slot = "Schedule update: Wednesday slot released. New procedure slot is Thursday March 12 at 11:10 AM."
    moved = "The Thursday room was taken, so your procedure slot moved to Friday, March 13 at 12:30 PM."
    assert superseded(slot, moved) == [0]


def test_narrow_as_an_adjective_is_no_change_wording() -> None:
    setup = "Saturday setup window is 9:20 AM to 10:50 AM."
    still = "Saturday setup window still runs 9:50 AM to 10:10 AM with the narrow porch-console scope."
    assert find_claim_supersessions(records(setup, still), []) == []
    for narrowed in (
        "The Saturday setup window narrows to 9:50 AM to 10:10 AM.",
        "Narrow the Saturday setup window to 9:50 AM to 10:10 AM.",
        "They narrow your Saturday setup window to 9:50 AM to 10:10 AM.",
    ):
        assert find_claim_supersessions(records(setup, narrowed), []), narrowed


def test_a_name_saying_which_side_of_a_thing_names_the_thing() -> None:
    note = "Public Makers note: the open roster still points to Showcase Bay 327."
    move = "Public update: Raven Makers is moving from Showcase Bay 327 to Showcase Bay 328."
    assert superseded(note, move) == [0]
    other = "Falcon Makers note: the open roster still points to Showcase Bay 327."
    assert find_claim_supersessions(records(other, move), []) == []
    # only where both call their thing by that side: "Public Storage" is no "Cube Storage"
    for old, new in (
        ("Cube Storage rent is 95 USD a month.", "Public Storage rent went up to 130 USD a month."),
        (
            "Hope Door clinic walk-in hours are 9:00 AM to 1:00 PM.",
            "Open Door clinic walk-in hours are now 10:00 AM to 2:00 PM.",
        ),
    ):
        assert find_claim_supersessions(records(old, new), []) == [], new


def test_now_before_a_present_tense_is_change_wording_for_values() -> None:
    earlier = "Current private review date remains April 9, 2027."
    shown = "Registrar now shows April 11, 2027 as the active private review date."
    assert superseded(earlier, shown) == [0]
    opens = ("The garage opens at 7:00 AM.", "The garage now opens at 6:00 AM.")
    assert superseded(*opens) == [0]
    added = "Physical therapy now has a second weekly session on Thursday at 10:00 AM."
    assert find_claim_supersessions(records("Physical therapy is Monday at 10:00 AM.", added), []) == []


def test_a_sentence_listing_more_than_its_values_is_marked_not_cut() -> None:
    summary = "Current Cedar Care summary: ends at 6:40 PM, side door keypad, kitchen plus Helen's bedroom."
    change = "Updating Cedar Care: the window now ends at 6:25 PM rather than 6:40 PM."
    found = find_claim_supersessions(records(summary, change), [])
    assert [(f.older, f.whole) for f in found] == [(0, False)]  # the door and the rooms still hold
    plain = "Current Cedar Care window: ends at 6:40 PM."
    assert [(f.older, f.whole) for f in find_claim_supersessions(records(plain, change), [])] == [(0, True)]


def test_a_record_named_alike_is_one_thing() -> None:
    note = "Current support note is now February 25, 2027 and proctor-slot confirmation pending."
    summary = "Current support summary now uses February 27, 2027 as the private target date."
    assert superseded(note, summary) == [0]
    other = "Current housing note is now February 25, 2027 and proctor-slot confirmation pending."
    assert find_claim_supersessions(records(other, summary), []) == []


def test_a_claim_giving_more_than_its_replacement_restates_is_superseded_in_part() -> None:
    found = find_claim_supersessions(
        records(
            "The dropoff window is September 18 from 6:30 PM to 6:50 PM.",
            "Update: the dropoff window is now 6:40 PM to 7:00 PM.",
        ),
        [],
    )
    assert [(f.older, f.whole) for f in found] == [(0, False)]


def test_no_supersession_without_change_wording_or_of_another_person() -> None:
    assert not find_claim_supersessions(
        records("Your follow-up is Tuesday at 10:00 AM.", "Your follow-up is Thursday at 1:30 PM."), []
    )
    assert not find_claim_supersessions(
        records(
            "Walter Brandt, your follow-up is Tuesday at 10:00 AM.",
            "Lena Okafor, your follow-up moved to Thursday at 1:30 PM.",
        ),
        [],
    )


def test_a_later_record_never_supersedes_by_store_order_against_time() -> None:
    earlier_in_time = ClaimRecord(5, "2026-01-01T09:00", "The follow-up moved to Thursday at 1:30 PM.")
    later_in_time = ClaimRecord(1, "2026-02-01T09:00", "Your follow-up is Tuesday at 10:00 AM.")
    assert not find_claim_supersessions([earlier_in_time], [later_in_time])


def test_abbreviated_calendar_dates_are_dates_not_names() -> None:
    recap = "Recap: Tue Mar 10 7:30 AM repeat labs and Wed Mar 11 11:30 AM kidney follow-up."
    (first, second) = claims_of(recap)
    assert first.values["date"] == {"march 10"} and first.values["weekday"] == {"tuesday"}
    assert second.values["date"] == {"march 11"} and second.values["weekday"] == {"wednesday"}
    assert not {"tue", "wed", "mar"} & (first.anchor | second.anchor | first.entities | second.entities)


@pytest.mark.parametrize(
    "text",
    [
        "The signoff window narrows to 9:40 AM.",
        "We pushed back the pickup to 6:05 PM.",
        "The review is postponed to June 12.",
        "Her shift is extended until 7:30 PM.",
    ],
)
def test_narrowing_extending_and_postponing_say_a_value_changed(text: str) -> None:
    (claim,) = claims_of(text)
    assert claim.revises and claim.values


def test_a_time_takes_its_role_from_the_word_next_to_it() -> None:
    assert only("Please arrive by 8:50 AM.").values == {"clock:arrival": {"08:50"}}
    assert only("CT on Tuesday at 8:50 AM arrival.").values["clock:arrival"] == {"08:50"}
    assert only("You're checked in for your 8:15.").values == {"clock:check-in": {"08:15~"}}
    assert only("Lisinopril started March 9.").values == {"date:start": {"march 9"}}
    assert only("The CT is Tuesday at 9:10 AM.").values["clock"] == {"09:10"}  # the event's own time
    # a range shares its role
    assert only("Marisol arrives 4:05 PM to 4:20 PM.").values == {"clock:arrival": {"16:05", "16:20"}}
    assert only("Marisol arrives 4:05-4:20 PM.").values == {"clock:arrival": {"04:05~", "16:20"}}


def test_times_of_different_roles_never_replace_each_other() -> None:
    found = find_claim_supersessions(
        records("The CT is Tuesday at 9:10 AM.", "Update for the CT: now arrive at 8:50 AM."), []
    )
    assert found == []


def test_a_titled_name_stays_out_of_the_anchor_an_addressed_one_stays_in() -> None:
    claim = only("Walter Brandt, you're checked in for your 8:15 with Dr. Varga in Exam Room 4.")
    assert "varga" not in claim.anchor  # two slots with one clinician are not one slot
    assert {"walt", "brandt"} <= claim.anchor  # whose slot it is
    assert "varga" in claim.names
    assert "ct" in only("CT on Tuesday at 9:10.").anchor  # an acronym names the thing itself
    bins = only("Opening Birch Bins window is Sunday, December 13, from 10:10 AM to 10:35 AM.")
    helper = only("Yes. Your revised helper window is 9:20 AM to 11:00 AM.")
    assert not same_thing(bins, helper)


def test_weekdays_naming_different_threads_are_different_things() -> None:
    setup = claims_of("The Saturday setup window stays 9:20 AM to 10:45 AM and the zones stay the shelf.")[0]
    window = claims_of(
        "I have the updated Sunday signoff layer: release after 1:20 PM and my window 2:10 PM."
    )[-1]
    assert setup.threads == {"saturday"} and window.threads == {"sunday"}
    assert not same_thing(setup, window)


def test_the_same_long_heading_is_a_form_not_a_subject() -> None:
    setup = only("Final Saturday update before the next summary: move setup to 9:10 AM to 10:40 AM.")
    helper = only("Final Saturday update before the next summary: move Colin's helper window to 9:20 AM.")
    assert not same_thing(setup, helper)


def test_my_slot_said_by_someone_else_is_another_slot() -> None:
    old = ClaimRecord(0, "2026-03-01T09:00", "My stability window remains 1:40 PM to 1:55 PM.", "lena")
    new = ClaimRecord(
        1, "2026-03-02T09:00", "I have the updated layer: my window is now 2:10 PM to 2:25 PM.", "owen"
    )
    assert find_claim_supersessions([new], [old]) == []
    same = ClaimRecord(1, "2026-03-02T09:00", "My stability window is now 2:10 PM to 2:25 PM.", "lena")
    assert find_claim_supersessions([same], [old])


def test_change_wording_inside_a_condition_is_no_revision() -> None:
    assert not only("The clinic will charge 55 dollars unless we reschedule by Tuesday.").revises


def test_a_list_item_is_superseded_in_part_never_cut() -> None:
    found = find_claim_supersessions(
        records(
            "Calendar: Wednesday July 8 at 2:00 PM nephrology and Friday July 10 at 11:00 AM rheumatology.",
            "The rheumatology follow-up moved to Monday July 13 at 3:00 PM.",
        ),
        [],
    )
    assert [(f.older, f.whole) for f in found] == [(0, False)]


def test_the_outcome_does_not_depend_on_how_records_are_batched() -> None:
    texts = [
        "Your follow-up is Tuesday at 10:00 AM. The desk opens at 8:00 AM.",
        "Note: parking is on level P2.",
        "The follow-up moved to Thursday at 1:30 PM.",
        "Update: the follow-up moved again, to Friday at 9:00 AM.",
    ]
    found_in_any_batches(records(*texts))


def test_a_name_joined_by_the_capitalised_first_word_of_a_sentence_is_the_same_name() -> None:
    found = find_claim_supersessions(
        records(
            "Provisional Cedar Care extension: the Friday care window is 4:35 PM to 6:40 PM.",
            "Updating Cedar Care: the Friday support window is now 4:35 PM to 6:25 PM rather than 6:40 PM.",
        ),
        [],
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]
    assert not find_claim_supersessions(  # two people sharing a family name are two names
        records(
            "Helen Chen has the Friday care window from 4:35 PM to 6:40 PM.",
            "Rosa Chen now has the Friday care window from 4:35 PM to 6:25 PM.",
        ),
        [],
    )


def test_a_record_naming_the_value_it_replaces_needs_only_a_shared_name_or_word() -> None:
    old = "Recording the current Lighthouse target date as June 25 while the legal review continues."
    moved = "Customer questions are dragging a week, so Lighthouse moves from June 25 to July 2."
    found = find_claim_supersessions(records(old, moved), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)] and found[0].reasons[0] == "named-replaced"
    assert not same_thing(only(old), claims_of(moved)[0])  # the anchors alone would not say so
    for unrelated in ("The gym opens on June 25 for members.", "Copperhill has its own launch on June 25."):
        assert not find_claim_supersessions(records(unrelated, moved), []), unrelated
    elsewhere = "The approved budget is now 216,000 USD. This replaces 224,000 USD."
    found = find_claim_supersessions(
        records("Approved budget: 224,000 USD for the core team.", elsewhere), []
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]  # named in another sentence of the turn


def test_reasons_and_words_about_the_record_are_not_what_a_value_is_of() -> None:
    moved = (
        "Because mornings are hard, I updated the schedule to Wednesday July 8 at 2 PM for the kidney visit."
    )
    assert only(moved).anchor == {"kidney", "visit"}
    assert only("Calendar recap: the eye exam is Friday at 9:00 AM.").anchor == {"eye", "exam"}
    found = find_claim_supersessions(
        records("Booked first: Tuesday July 7 at 8:00 AM kidney visit.", moved), []
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


def test_a_new_code_of_the_same_family_replaces_the_old_one() -> None:
    old = "Credential state is unchanged: CR-8804 remains the active badge for the petition track."
    new = "Current active pair is now badge CR-8816 with Harbor Annex Booth 7."
    found = find_claim_supersessions(records(old, new), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)] and found[0].reasons[0] == "code-family"
    other = "Do not mix the public code CP-8818 with anything else; it stays active for the showcase."
    assert not find_claim_supersessions(records(other, new), [])  # another family: another code
    assert not find_claim_supersessions(records("The active badge room is 1404.", new), [])  # a bare number


def test_a_value_said_to_be_old_after_it_is_replaced_not_current() -> None:
    claim = only("3,090 USD remains the active amount and 3,120 USD is now earlier history.")
    assert claim.values == {"amount": {"3090"}} and claim.replaced == {"amount": {"3120"}}
    retired = only("JRX-7794 is no longer active.")
    assert retired.values == {} and retired.replaced == {"code": {"JRX-7794"}} and retired.retires
    assert not only("The exam was completed on June 6 as scheduled.").retires  # "was" is not "retired"
    # a replaced value stands within a few words of its cue
    assert only("The earlier code will retire once the BH-238 move completes.").values == {"code": {"BH-238"}}


def test_a_record_retiring_a_value_supersedes_the_claims_stating_it() -> None:
    old = "The current active upload code is 9T4R-M3PV for the archive path."
    found = find_claim_supersessions(records(old, "Credential rotation: 9T4R-M3PV is retired."), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)] and found[0].reasons[0] == "named-retired"
    history = "JRX-7731 is no longer active."  # true of the past: nothing current to supersede
    assert not find_claim_supersessions(records(history, "JRX-7794 is now the active badge."), [])


def test_a_code_of_the_family_under_the_same_name_replaces_the_old_one() -> None:
    old = "Separation note: the public code WTUT-542 belongs to Willow Tutors and not to Quinn's file."
    new = "Public update: Willow Tutors now uses code WTUT-541 tied to Commons Hall 541."
    found = find_claim_supersessions(records(old, new), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)]
    other = "Separation note: the public code WTUT-542 belongs to Cedar Tutors and not to Quinn's file."
    assert not find_claim_supersessions(records(other, new), [])  # another name: another code


def test_a_list_item_is_not_about_the_names_of_later_items() -> None:
    recap = (
        "Current logistics note: private review date September 17, safe label thesis review, "
        "public hall Orbit Commons 805, public date September 19."
    )
    moved = "Review note: the Orbit Review review date moves to September 18."
    found = find_claim_supersessions(records(recap, moved), [])
    assert [(f.older, f.newer, f.whole) for f in found] == [(0, 1, False)]
    first, hall, public = claims_of(recap)
    assert (first.entities, hall.entities) == (frozenset(), {"orbit commons"})
    assert public.entities == {"orbit commons"}  # said before it in the sentence
    # a name of its own still keeps an item apart
    other = "Private review date September 17 for Cedar Review, public hall Orbit Commons 805."
    assert not find_claim_supersessions(records(other, moved), [])


def test_a_possessive_ends_a_name() -> None:
    assert only("The date for Elena's Orbit Review board is May 4.").entities == {"elena", "orbit review"}


def test_an_owner_said_by_one_claim_only_does_not_set_the_two_apart() -> None:
    old = "Current safe-summary note: the thesis review date is September 15 and the blocker stays."
    new = "Review update: Elena's thesis review date moves to September 16."
    found = find_claim_supersessions(records(old, new), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)]
    # two owners stay two slots
    theirs = "Review update: Marco's thesis review date moves to September 16."
    mine = "Review note: Elena's thesis review date is September 15."
    assert not find_claim_supersessions(records(mine, theirs), [])
    # the same person named both ways is one slot
    named = "Current safe-summary note: Samara remains in thesis review with date August 20."
    owned = "Review update: Samara's thesis review date moves to August 21."
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(named, owned), [])] == [(0, 1)]


def test_a_value_after_no_longer_is_the_replaced_one() -> None:
    [moved_off, _] = claims_of("The active location is no longer Annex Pod 1405. It is now Annex Pod 1406.")
    assert (moved_off.values, moved_off.replaced) == ({}, {"code": {"1405"}})
    found = find_claim_supersessions(
        records(
            "The current pod remains Annex Pod 1405.",
            "The location is no longer Annex Pod 1405. It is now Annex Pod 1406.",
        ),
        [],
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


def test_a_contrast_without_a_value_is_not_what_a_value_is_of() -> None:
    note = (
        "Finance note: the active private amount is 3,880 USD, distinct from the public Orbit Mentors line."
    )
    assert only(note).anchor == {"financ", "activ", "privat", "amount"}
    listed = claims_of(
        "The private amount is 3,780 USD, separate from the public planning line of 3,775 USD."
    )
    assert [c.values for c in listed] == [{"amount": {"3780"}}, {"amount": {"3775"}}]
    assert {"public", "plan", "line"} <= listed[1].anchor  # its own value's contrast says what it is of
    moved = "Finance update: the private bridge-support amount is now 3,840 USD pending final routing."
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(note, moved), [])] == [(0, 1)]


def test_uses_is_not_what_a_value_is_of() -> None:
    assert only("Orbit Mentors uses Orbit Commons 804.").anchor == {"orbit", "mentor", "common"}


def test_a_code_of_a_differently_named_place_is_not_a_new_value_but_a_new_ward_or_gate_is() -> None:
    old = "The private pod is Annex Pod 1405."
    remark = "The public move to Commons 1406 should not trigger any assumption about the private pod."
    assert not find_claim_supersessions(records(old, remark), [])
    moved = "The private pod moves to Annex Pod 1406."
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(old, moved), [])] == [(0, 1)]
    # the names keep Annex Pod and Commons apart; a new word before a code does not (the
    # code-head rule that tried was withdrawn after review: it missed these)
    for before, after in (
        ("Booth 6 remains current while CR-8804 stays active.", "The active pair is now badge CR-8816."),
        ("Leo's hospital bed is 304.", "Leo's hospital bed moved to Ward 310."),
        (
            "Boarding for the Denver flight is at Gate B12.",
            "Boarding for the Denver flight moved to Lounge B14.",
        ),
    ):
        assert find_claim_supersessions(records(before, after), []), before


def test_from_opens_a_range_unless_a_verb_of_change_comes_before_it() -> None:
    window = only("Rosa's next support is now Friday, May 24 from 4:35 PM to 6:30 PM.")
    assert window.values["clock"] == {"16:35", "18:30"} and not window.replaced
    moved = only("Faculty now moves the private review date from April 11 to April 13.")
    assert (moved.values, moved.replaced) == ({"date": {"april 13"}}, {"date": {"april 11"}})
    old = "Updating Cedar Care: current Wednesday support window is now 4:20 PM to 6:10 PM."
    new = "Updating Cedar Care: the support is now Friday, May 24 from 4:35 PM to 6:30 PM."
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(old, new), [])] == [(0, 1)]


def test_a_quoted_value_after_a_cue_is_replaced_whatever_role_its_time_has() -> None:
    new = (
        "Release scope was narrowed from 'arrival window and building check-in through March 20' "
        "to 'arrival timing only through March 24' after review."
    )
    claim = only(new)
    assert claim.replaced == {"date:check-in": {"march 20"}} and claim.values == {"date": {"march 24"}}
    old = "The current release remains 'arrival window and building check-in through March 20'."
    found = find_claim_supersessions(records(old, new), [])
    assert [(f.older, f.newer, f.reasons[0]) for f in found] == [(0, 1, "named-replaced")]


def test_a_relative_clause_says_which_thing_a_value_is_of() -> None:
    old = "The evening pill, which is the lisinopril, is 10 mg."
    assert not find_claim_supersessions(
        records(old, "The evening pill for cholesterol was increased to 40 mg."), []
    )


def test_an_owner_is_left_to_the_subject_check_only_when_the_other_claim_names_no_one_else() -> None:
    old = "Grandma's warfarin is 5 mg every evening."
    assert not find_claim_supersessions(
        records(old, "The warfarin for Grandpa was reduced to 2.5 mg every evening."), []
    )
    found = find_claim_supersessions(records(old, "The warfarin was reduced to 2.5 mg every evening."), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


def test_only_is_no_longer_says_which_value_was_replaced() -> None:
    old = "Mia and Ben take the 7:45 AM bus."
    assert not find_claim_supersessions(
        records(old, "Ben no longer takes the 7:45 AM bus; he bikes now."), []
    )
    claims = claims_of("Dr. Lee no longer works on Friday, so your visit moved to Thursday at 9 AM.")
    assert all(not claim.replaced for claim in claims)


def test_a_lone_from_names_the_replaced_value_and_a_range_does_not() -> None:
    for text, replaced in (
        ("We moved your follow-up to Thursday at 1:30 PM from Tuesday at 10:00 AM.", {"10:00"}),
        ("Your lisinopril is now 10 mg once a day, up from 5 mg.", set()),
        ("The visit is Friday from 4:35 PM to 6:30 PM.", set()),
    ):
        assert set().union(*only(text).replaced.values()) >= replaced, text
    assert only("Your lisinopril is now 10 mg once a day, up from 5 mg.").replaced == {"dose": {"5 mg"}}
    assert only("The visit is Friday from 4:35 PM to 6:30 PM.").replaced == {}
    old = "Your follow-up is Tuesday at 10:00 AM."
    new = "We moved your follow-up to Thursday at 1:30 PM from Tuesday at 10:00 AM."
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(old, new), [])] == [(0, 1)]


def test_names_after_every_value_of_a_sentence_are_about_each_item() -> None:
    old = "Piano is Monday at 4 PM, and swim is Wednesday at 4 PM, both for Leo."
    assert not find_claim_supersessions(
        records(old, "The piano lesson for Ava moved to Tuesday at 4 PM."), []
    )


def test_from_after_no_change_wording_or_after_separate_replaces_nothing() -> None:
    separate = claims_of("The support figure remains 4,020 USD and is separate from public 4,015 USD.")
    assert [claim.replaced for claim in separate] == [{}, {}]
    assert only("The nurse will call from 555-0144 on Friday at 10 AM.").replaced == {}
    assert only("Travel state: away from Friday, June 5 at 7:10 AM through Sunday at 9:10 PM.").replaced == {}


def test_only_a_prepositional_tail_shares_its_names_with_every_item() -> None:
    text = "Partners still uses August 22 and Commons Hall 326 and does not need any of Jordan's details."
    assert "jordan" not in claims_of(text)[0].entities  # the date item: Jordan is named after it


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Your copay for specialist visits is $20.", "The specialist copay went from $20 to $35."),
        ("Prednisone is 20 mg daily.", "We are tapering prednisone to 10 mg daily."),
        ("The club fee is $40.", "The club fee drops to $30 next month."),
        ("Her dose is 5 mg.", "Her dose is 10 mg now, up from 5 mg."),
    ],
)
def test_going_up_down_dropping_and_tapering_say_a_value_changed(old: str, new: str) -> None:
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(old, new), [])] == [(0, 1)]


def test_dropping_someone_off_is_no_change() -> None:
    old = "Mom takes Leo to school at 8 AM."
    assert not find_claim_supersessions(records(old, "Dad drops Leo at school at 7:45 AM on Fridays."), [])


def test_a_name_ending_another_names_the_same_thing() -> None:
    old = "Logging Sunday state: 12:40 PM to 2:20 PM, PIN 8071, signoff 2:00 PM."
    new = "The current Walnut Wrap PIN is now 9136. The earlier one is stale."
    found = find_claim_supersessions(records(old, new), [])
    assert [(old[f.start : f.end], f.newer) for f in found] == [("PIN 8071", 1)]
    # two people sharing a family name stay two names
    assert not find_claim_supersessions(
        records(
            "Helen Chen has the care window from 4:35 PM.", "Rosa Chen now has the care window from 4:50 PM."
        ),
        [],
    )


def test_a_value_said_retired_or_stale_before_it_is_not_stated_as_current() -> None:
    claim = only("Cleanup list: retired badge CR-8804 and the older Booth 6 reference are to be removed.")
    assert claim.replaced == {"code": {"CR-8804"}} and "code" not in claim.values
    current = "Current active badge is CR-8816 and the active booth is Booth 7."
    cleanup = "Cleanup list: retired badge CR-8804 and the older Booth 6 reference are to be removed."
    assert not find_claim_supersessions(records(current, cleanup), [])


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a condition in the change's own clause: nothing changed yet
        (
            "Dad's lisinopril dose is 10 mg.",
            "Dad's lisinopril dose goes up to 20 mg if his blood pressure stays high.",
        ),
        # someone else, named without an owner's 's or in lower case
        ("Mia takes 5 mL of Zyrtec at bedtime.", "Ben's Zyrtec was raised to 7.5 mL at bedtime."),
        (
            "Grandma's metoprolol is 25 mg every morning.",
            "My husband's metoprolol was reduced to 12.5 mg every morning.",
        ),
        ("Ben has speech therapy on Monday at 2 PM.", "Mia's speech therapy was moved to Wednesday at 2 PM."),
        # retiring a time someone else keeps
        ("Mia takes the 7:45 AM bus.", "Ben is no longer on the 7:45 AM bus; he takes the 8:10 AM bus now."),
        # "up from" before a word, "went to" a place
        (
            "Mia's dentist appointment is Friday at 3:30 PM.",
            "I'll pick Mia up from school early, at 2:45 PM on Friday.",
        ),
        ("Ben's math class is in Room 204.", "Ben went to Room 210 for the math test at 9 AM."),
    ],
)
def test_what_is_not_a_change_of_this_slot_supersedes_nothing(old: str, new: str) -> None:
    assert not find_claim_supersessions(records(old, new), [])


@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        (
            "Dad takes 10 mg of lisinopril every evening.",
            "Dr. Patel increased the evening dose of Dad's lisinopril from 10 mg to 20 mg.",
            {"10 mg"},
        ),
        (
            "Her dose is 10 mg every evening.",
            "Her dose is now 20 mg every evening, up from 10 mg, according to Dr. Patel.",
            {"10 mg"},
        ),
        ("The nurse line is 555-0144.", "The nurse line is now 555-0199 (from 555-0144).", {"555-0144"}),
    ],
)
def test_from_names_the_replaced_value_beyond_five_words_and_before_a_non_value_to(
    old: str, new: str, replaced: set[str]
) -> None:
    assert set().union(*claims_of(new)[-1].replaced.values()) == replaced
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(old, new), [])] == [(0, 1)]


@pytest.mark.parametrize(
    "new",
    [
        "We changed the alarm code to 8840 just in case.",
        "We changed the alarm code to 8840 because the installer asked whenever we rotate it.",
        "We changed the alarm code to 8840 and will tell the sitter if needed.",
    ],
)
def test_a_condition_outside_the_change_itself_leaves_it_a_change(new: str) -> None:
    assert [
        (f.older, f.newer) for f in find_claim_supersessions(records("The alarm code is 3317.", new), [])
    ] == [(0, 1)]


def test_a_pin_said_no_longer_to_be_another_things_pin_retires_nothing() -> None:
    assert not find_claim_supersessions(
        records("The garage PIN is 5532.", "The alarm PIN is no longer 5532, it was reset."), []
    )


def test_an_earlier_recap_restating_a_replaced_value_is_superseded_with_it() -> None:
    stated = "The Beacon award stipend is 3,720 USD."
    recap = "Panel recap: Beacon award stipend 3,720 USD."
    change = "Correction after the audit review: the Beacon award amount changes to 3,710 USD."
    assert not find_claim_supersessions(records(recap, change), [])  # not by itself the same thing
    found = find_claim_supersessions(records(stated, recap, change), [])
    assert sorted((f.older, f.newer) for f in found) == [(0, 2), (1, 2)]
    (restatement,) = [f for f in found if f.older == 1]
    assert restatement.reasons[0] == "restates-replaced" and restatement.whole


def test_a_recap_giving_the_new_value_or_another_thing_is_not_a_restatement() -> None:
    found = find_claim_supersessions(
        records(
            "Finance note: the active amount is 3,720 USD for the Beacon award.",
            "Travel note: the active amount is 3,720 USD for the Harbor trip.",
            "Correction: the Beacon award amount is revised from 3,720 USD to 3,710 USD.",
        ),
        [],
    )
    assert [(f.older, f.newer) for f in found] == [(0, 2)]


def test_of_two_values_a_claim_gives_only_the_replaced_one_is_gone() -> None:
    found = find_claim_supersessions(
        records(
            "Budget note: the private amount is 2,910 USD while the public line is 2,915 USD.",
            "Budget recap: the public line is 2,915 USD.",
            "Update: the private amount is now 2,980 USD.",
        ),
        [],
    )
    assert all(f.older != 1 for f in found)


def test_a_value_named_as_the_one_replaced_is_not_restated_by_the_change() -> None:
    found = find_claim_supersessions(
        records(
            "The panel meets in Committee Room 242 on Friday.",
            "The panel is moving from Committee Room 242 to Committee Room 243 "
            "to eliminate the 242/242 confusion.",
        ),
        [],
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


def test_a_public_thing_is_not_the_private_one_of_the_same_name() -> None:
    public = "The public showcase sits in Commons Room 242."
    private = "Update: the private showcase interview moved to Commons Room 243."
    assert not related(only(public), only(private)) and not related(only(private), only(public))
    assert not find_claim_supersessions(records(public, private), [])
    same = "Update: the public showcase moved to Commons Room 243."
    assert [(f.older, f.newer) for f in find_claim_supersessions(records(public, same), [])] == [(0, 1)]


def test_a_vague_dose_restating_one_of_two_drugs_revises_neither() -> None:
    found = find_claim_supersessions(
        records(
            "Until then, continue apixaban 5 milligrams twice daily without interruption. Increase "
            "metoprolol tartrate from 25 milligrams twice daily to 37.5 milligrams twice daily "
            "starting tonight.",
            "I am calling to make sure the new metoprolol dose is clear.",
            "You are moving to 37.5 milligrams twice daily.",
        ),
        [],
    )
    assert not found  # the apixaban dose is still current


def test_a_vague_change_of_the_only_dose_still_revises_it() -> None:
    found = find_claim_supersessions(
        records(
            "Continue metoprolol 25 milligrams twice daily.", "You are moving to 37.5 milligrams twice daily."
        ),
        [],
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


@pytest.mark.parametrize(
    "texts",
    [
        # a recap more specific than the claim the change revised is another thing
        (
            "The stipend is 3,720 USD.",
            "The housing stipend is also 3,720 USD.",
            "The Beacon stipend changes to 3,710 USD.",
        ),
        (
            "The dose is 5 mL twice daily.",
            "Mia takes 5 mL twice daily too.",
            "Grandpa's dose changes to 7.5 mL twice daily.",
        ),
        ("The PIN is 5532.", "The mailbox PIN is 5532 as well.", "The alarm PIN changes to 6104."),
        (
            "The callback number is 555-0144.",
            "Contacts: pharmacy callback number 555-0144; billing callback number 555-0177.",
            "The nurse callback number changes to 555-0190.",
        ),
    ],
)
def test_a_restatement_is_only_of_what_the_change_and_the_revised_claim_speak_of(texts) -> None:
    assert all(f.older != 1 for f in find_claim_supersessions(records(*texts), []))


def test_a_value_one_claim_retires_and_another_keeps_is_still_restated() -> None:
    found = find_claim_supersessions(
        records(
            "The back door code is 4417.",
            "The front door code 4417 is retired; the back door code stays 4417.",
        ),
        [],
    )
    assert not found


@pytest.mark.parametrize(
    ("first", "change", "item"),
    [
        (
            "Lantus 20 units twice daily. Humalog 10 units twice daily.",
            "The Lantus is changing to 10 units twice daily.",
            "Lantus",
        ),
        (
            "Metformin 1000 mg twice daily. Gabapentin 300 mg twice daily.",
            "Gabapentin is increased to 1000 mg twice daily.",
            "Gabapentin",
        ),
        (
            "Phase 1 target date is June 25. Phase 2 target date is July 2.",
            "Phase 1 target date moves to July 2.",
            "Phase 1",
        ),
        (
            "Metoprolol is 25 mg twice daily this week; next week it goes to 37.5 mg twice daily.",
            "You are moving to 37.5 mg twice daily now.",
            "25 mg",
        ),
    ],
)
def test_a_change_agreeing_with_another_item_of_the_record_still_revises_its_own(first, change, item) -> None:
    (found,) = find_claim_supersessions(records(first, change), [])
    assert (found.older, found.newer) == (0, 1) and item in first[found.start : found.end]


def test_a_lettered_code_named_as_replaced_is_that_code_wherever_it_is_said() -> None:
    found = find_claim_supersessions(
        records(
            "Private access remains unchanged for now: CR-8804 is active.",
            "Rotation note: the current badge is now CR-8816, while CR-8804 becomes retired history.",
        ),
        [],
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


def test_a_change_said_not_to_affect_another_thing_does_not_revise_it() -> None:
    assert not find_claim_supersessions(
        records(
            "The current private pod remains 1405.",
            "The public move to Commons 1406 should not trigger any assumption about the private pod.",
        ),
        [],
    )
    found = find_claim_supersessions(
        records("The current private pod remains 1405.", "The private pod moves to 1406."), []
    )
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


def test_a_name_the_old_turn_gives_before_its_claim_is_the_claims() -> None:
    """The replacing record names Cedar Carpool; the old turn named it a sentence before
    the claim with the replaced time."""
    old = (
        "For Cedar Carpool, Tessa Hall is the Thursday pickup contact. "
        "Initial plan is Thursday at 3:20 PM, and Tessa expects to arrive in the red Subaru."
    )
    moved = "Updating Cedar Carpool: current Thursday pickup time is now 3:15 PM rather than 3:20 PM."
    found = find_claim_supersessions(records(old, moved), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)] and found[0].reasons[0] == "named-replaced"
    elsewhere = (
        "For the Maple Walk, Tessa Hall leads the group. "
        "Initial plan is Thursday at 3:20 PM, and Tessa expects to arrive in the red Subaru."
    )
    assert not find_claim_supersessions(records(elsewhere, moved), [])  # another thing at 3:20 PM


def test_a_clause_after_while_is_a_claim_of_its_own() -> None:
    """In "X moves to Y while Z remains W" the change is the first clause's alone, so the
    private amount and the public line of one sentence are superseded each by its own change."""
    change, kept = claims_of(
        "Review update: Elena's private Orbit Review target moves to September 14, 2027 "
        "while the private room remains Observatory Annex Room 804."
    )
    assert change.values == {"date": {"september 14"}} and "room" not in change.anchor
    assert kept.values == {"code": {"804"}}
    both = "Current private amount is 2,860 USD while the public Summit Scholars line is 2,865 USD."
    found = find_claim_supersessions(
        records(both, "Public materials line is now 2,915 USD and still belongs only to Summit Scholars."), []
    )
    assert [both[f.start : f.end] for f in found] == ["the public Summit Scholars line is 2,865 USD."]


def test_a_name_one_claim_says_as_an_owner_is_named_by_both() -> None:
    """A possessive opening a sentence ("Review update: Elena's ...") is an owner, not a
    name: it still names the Elena of "Elena's file"."""
    old = (
        "Private case note: the exact internal wording on Elena's file is 'restricted review "
        "pending committee note', with an initial review target of September 13, 2027."
    )
    new = "Review update: Elena's private Orbit Review target moves to September 14, 2027."
    found = found_in_any_batches(records(old, new))
    assert [(f.older, f.newer) for f in found] == [(0, 1)]
    other = "Review update: Marco's private Orbit Review target moves to September 14, 2027."
    assert not find_claim_supersessions(records(old, other), [])


def test_a_code_without_a_separator_still_names_its_own_thing() -> None:
    """Lab names such as "C3" and "C4" are two complement proteins, not two values of one label."""
    old = "Preliminary lab recap posted: creatinine 1.6, urine protein/creatinine 1.9, and C3 low."
    assert not find_claim_supersessions(records(old, "Complement update posted: C4 remains normal."), [])


def test_an_older_value_the_change_keeps_is_not_replaced() -> None:
    """A turn saying "Keep the older garage fallback 4408 only as emergency backup" keeps
    4408 current; keeping it out of something does not."""
    old = (
        "Recording a fallback service garage code of 4408 in case the mudroom latch jams "
        "during Sofia's cleaning window."
    )
    kept = (
        "Updating Oak Cleaning credentials: Sofia's current cleaning PIN is now 5532. "
        "Keep the older garage fallback 4408 only as emergency backup."
    )
    assert not find_claim_supersessions(records(old, kept), [])
    assert only("Keep the older garage fallback 4408 only as emergency backup.").values == {"code": {"4408"}}
    assert only("Keep the old code 4408 out of future notes.").replaced == {"code": {"4408"}}


def test_a_clause_after_while_with_no_owner_of_its_own_keeps_the_owner_before_it() -> None:
    old = "Dad's metoprolol is 25 mg in the morning while it's 12.5 mg at night."
    assert not find_claim_supersessions(records(old, "Mom's melatonin at night goes up to 3 mg."), [])
    found = find_claim_supersessions(records(old, "Dad's metoprolol at night goes up to 25 mg."), [])
    assert [old[f.start : f.end] for f in found] == ["it's 12.5 mg at night."]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Leo Chen's dentist appointment is March 4 at 3 PM.",
            "Mia Chen's dentist appointment moves to March 6 at 3 PM.",
        ),
        (
            "The flu shot for Ana Silva is October 3 at 9 AM.",
            "Rui Silva's flu shot moves to October 5 at 9 AM.",
        ),
        ("The badge for Andreas Vogel is CR-8804.", "Andrea's new badge at North Gate is CR-8816."),
    ],
)
def test_a_family_name_two_people_share_is_no_owner_of_either(old: str, new: str) -> None:
    """Nor is a name one letter shorter ("Andrea's" of "Andreas Vogel")."""
    assert not find_claim_supersessions(records(old, new), [])


def test_an_owner_names_the_name_it_opens() -> None:
    old = "Public planning: Mia Dawson is on the roster and the printed materials line is 3,335 USD."
    new = "Mia's public update: planning now uses Hall 416 with a printed materials line of 3,345 USD."
    found = found_in_any_batches(records(old, new))
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Grace's dental cleaning is March 12 at 10 AM.",
            "Dr. Kim's office called: the dental cleaning moves from March 12 to March 19.",
        ),
        (
            "Dad's cardiology follow-up is April 2 at 9 AM.",
            "Dr. Shah's office moved the cardiology follow-up from April 2 to April 9.",
        ),
    ],
)
def test_a_change_relayed_by_someone_else_still_names_the_value_it_replaces(old: str, new: str) -> None:
    found = find_claim_supersessions(records(old, new), [])
    assert [(f.older, f.newer) for f in found] == [(0, 1)]


@pytest.mark.parametrize(
    "rule",
    [
        "The budget becomes 20,000 USD once the board approves it.",
        "In summer, the bedtime becomes 9 PM.",
        "The conference room becomes available from 3 PM to 5 PM.",
    ],
)
def test_what_a_value_becomes_under_a_condition_supersedes_nothing(rule: str) -> None:
    olds = {
        "budget": "The budget is 18,000 USD.",
        "bedtime": "The bedtime is 8 PM.",
        "room": "The conference room is booked from 1 PM to 3 PM.",
    }
    old = next(text for word, text in olds.items() if word in rule)
    assert not find_claim_supersessions(records(old, rule), [])


def test_what_a_value_must_not_be_used_for_says_nothing_of_what_it_is() -> None:
    """Held-out sample 2038 (lumen t073): the public orientation date "should not be used
    to guess anything about Mina's private case", so its words "private case" do not make
    it the case's date."""
    old = "The case date remains May 19, 2026."
    new = (
        "Public Lumen Leaders reminder: orientation is now May 22, and that public date should "
        "not be used to guess anything about Mina's private case."
    )
    assert not find_claim_supersessions(records(old, new), [])
    assert find_claim_supersessions(records(old, "Mina's private case date is now May 22."), [])
