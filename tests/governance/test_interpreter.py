"""The rule interpreter: which turns are deletion requests, and which items and kinds they name."""

from __future__ import annotations

import pytest

from govmem import Turn
from govmem.governance.erasure import tokens
from govmem.governance.interpreter import DeletionRequest, RuleInterpreter, interpret_all

INTERPRETER = RuleInterpreter()


def requests(text: str, speaker: str = "ana") -> list[DeletionRequest]:
    return INTERPRETER.interpret(Turn("t1", speaker, text))


def only(text: str, speaker: str = "ana") -> DeletionRequest:
    (request,) = requests(text, speaker)
    return request


def keys(request: DeletionRequest) -> set[str]:
    return {" ".join(tokens(item)) for item in request.items}


def test_a_polite_request_names_a_value_and_its_kind() -> None:
    request = only("Please erase the stale backup number 555-0462 from memory.")
    assert request.items == ("555-0462",)
    assert "number" in request.kinds
    assert request.requested_by == "ana"


def test_the_requester_is_the_speaker() -> None:
    assert (
        only("Please erase the stale backup number 555-0462 from memory.", speaker="bo").requested_by == "bo"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Delete Cedar Cabin, 555-0456, and the alias Wren from shared memory.",
            {"cedar cabin", "555-0456", "wren"},
        ),
        (
            "Delete Birch Hall, 555-0777, and the alias Finch from memory.",
            {"birch hall", "555-0777", "finch"},
        ),
    ],
)
def test_an_imperative_lists_a_place_a_value_and_an_alias(text: str, expected: set[str]) -> None:
    request = only(text)
    assert keys(request) == expected
    assert "alias" in request.kinds


def test_a_treated_as_deleted_sentence_names_the_value() -> None:
    request = only(
        "Delete the earlier staff PIN from accessible memory. "
        "The previous value 2284 should be treated as deleted and unavailable from now on."
    )
    assert request.items == ("2284",)
    assert "pin" in request.kinds


def test_a_treated_as_deleted_sentence_after_a_line_break() -> None:
    request = only(
        "Delete the earlier staff PIN from memory.\nThe previous value 2284 should be treated as deleted."
    )
    assert request.items == ("2284",)


def test_a_treated_as_deleted_sentence_alone_is_not_a_request() -> None:
    assert requests("The previous value 2284 should be treated as deleted going forward.") == []


def test_quoted_wording_is_deleted_but_wording_to_keep_is_not() -> None:
    request = only(
        "Please delete the precise internal wording 'disciplinary hold' from memory. "
        "Keep only the general wording 'schedule change'."
    )
    assert keys(request) == {"disciplinary hold"}
    assert "wording" in request.kinds


def test_only_the_earlier_amount_is_deleted() -> None:
    request = only(
        "Please remove the earlier draft amount of 3,450 EUR from active memory. "
        "Future answers should use only the current confirmed 3,900 EUR amount."
    )
    assert request.items == ("3,450",)
    assert "amount" in request.kinds
    assert not keys(request) & {"eur", "3,900", "3,450 eur"}


def test_a_value_kept_in_the_same_turn_is_not_deleted() -> None:
    request = only("Please erase the stale desk code D-4471 from memory; the active code is D-5582.")
    assert keys(request) == {"d-4471"}


def test_a_naming_noun_introduces_a_phrase() -> None:
    assert keys(only("Please forget the label blue heron from memory.")) == {"blue heron"}


@pytest.mark.parametrize(
    "text",
    [
        "Prepare to remove the superseded code from active memory.",
        "We are planning to delete the expired voucher code 5561 from memory next week.",
        "Get ready to erase the retired PIN 8830 from memory.",
    ],
)
def test_a_plan_is_not_a_request(text: str) -> None:
    assert requests(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "The new lease removes the automatic renewal clause.",
        "The update removes the extra 15 USD fee.",
        "I deleted the reminder for room 12 yesterday.",
        "The app will delete files older than 30 days.",
        "Can you remove the duplicate rows from the spreadsheet 2024-Q3?",
        "Remove the tray from the oven at 6 pm.",
        "Kitchen note: remove the tray from the oven at 6 pm.",  # a label about something else
        "Our memory of the trip to Lisbon is fading.",
    ],
)
def test_unrelated_uses_of_a_deletion_verb_give_nothing(text: str) -> None:
    assert requests(text) == []


@pytest.mark.parametrize(
    ("text", "item", "qualifier"),
    [
        ("Delete the old Heron relay identifier relay-7 from memory.", "relay-7", "heron"),
        ("Please delete the retired Kestrel door code 8812 from memory.", "8812", "kestrel"),
        ("Delete the old Osprey Gate relay identifier relay-9 from memory.", "relay-9", "osprey gate"),
    ],
)
def test_a_capitalised_qualifier_is_not_an_item(text: str, item: str, qualifier: str) -> None:
    request = only(text)
    assert keys(request) == {item}
    assert not any(qualifier.split()[0] in key for key in keys(request))


def test_a_short_count_after_an_article_is_not_an_item() -> None:
    for request in requests("Please delete the 2 stale photos from memory."):
        assert "the 2" not in keys(request)


def test_a_short_value_keeps_its_noun() -> None:
    request = only("Please delete seat 4 from memory.")
    assert keys(request) == {"seat 4"}
    assert "seat" in request.kinds


def test_ordinary_turns_are_not_requests() -> None:
    assert requests("The gate code is 4417, please keep it private.") == []
    assert requests("My locker number is 2291.") == []


def test_interpret_all_gives_the_index_of_each_request() -> None:
    turns = [
        Turn("t1", "ana", "The gate code is 4417."),
        Turn("t2", "bo", "Please delete the old gate code 4417 from memory."),
        Turn("t3", "ana", "Thanks."),
        Turn("t4", "ana", "Please forget the label blue heron from memory."),
    ]
    found = interpret_all(INTERPRETER, turns)
    assert [(index, request.requested_by, request.items) for index, request in found] == [
        (1, "bo", ("4417",)),
        (3, "ana", ("blue heron",)),
    ]


def test_what_a_quoted_mapping_maps_to_is_an_item_of_its_own() -> None:
    request = only(
        "Delete the mapping from memory: do not retain the note 'Project Falcon = Norbridge Logistics'."
    )
    assert {"project falcon norbridge logistics", "norbridge logistics"} <= keys(request)
    assert "project falcon" not in keys(request)  # the public project name stays


# reported deletions ("X is deleted from memory")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The earlier provisional amount 2,750 EUR is deleted from active Quill Grant memory.", {"2,750"}),
        (
            "Cleanup notice: retired badge KTX-4410 has been deleted from the working record, "
            "and only KTX-4418 remains active.",
            {"ktx-4410"},
        ),
        ("Deletion saved: 6093 has been deleted from active memory. Current fallback is 7720.", {"6093"}),
        ("The retired locker code 4471 was removed from memory.", {"4471"}),
        ("The retired code 4471 is now deleted from the working file.", {"4471"}),
        ("Codes 6610 and 6611 were deleted from memory.", {"6610", "6611"}),
    ],
)
def test_a_reported_deletion_is_a_request_for_what_it_reports_deleted(text: str, expected: set[str]) -> None:
    assert keys(only(text)) == expected


def test_a_reported_deletion_names_its_kind() -> None:
    assert "amount" in only("The earlier draft amount 2,750 EUR is deleted from active memory.").kinds


@pytest.mark.parametrize(
    ("text", "deleted", "remains"),
    [
        (
            "The old hangar fallback 6610 is deleted from memory, Tom's active cleaning PIN remains 2219.",
            {"6610"},
            "2219",
        ),
        (
            "The earlier hangar fallback 6610 is deleted from memory, and Tom's cleaning PIN is still 2219.",
            {"6610"},
            "2219",
        ),
        (
            "The earlier storage code 8841 is deleted from memory while locker PIN 3307 remains in use.",
            {"8841"},
            "3307",
        ),
        ("The old code 4471 was removed from memory and replaced by 5590.", {"4471"}, "5590"),
        # the subject names no value: nothing to delete, and never the value that remains
        ("The earlier dock fallback is deleted, Lena's active cleaning PIN remains 8817.", set(), "8817"),
        (
            "The earlier dock fallback is deleted from memory, Lena's active cleaning PIN remains 8817.",
            set(),
            "8817",
        ),
    ],
)
def test_a_reported_deletion_never_deletes_what_it_says_remains(
    text: str, deleted: set[str], remains: str
) -> None:
    found = set().union(*(keys(r) for r in requests(text)))
    assert found == deleted
    assert not any(remains in key for key in found)


@pytest.mark.parametrize(
    ("text", "deleted", "remains"),
    [
        (
            "Only KTX-4418 remains active, KTX-4410 has been deleted from the working record.",
            "ktx-4410",
            "ktx-4418",
        ),
        (
            "Uma's locker PIN remains 3307, and the earlier storage code 8841 is deleted from memory.",
            "8841",
            "3307",
        ),
    ],
)
def test_a_value_said_to_remain_before_the_reported_deletion_is_not_deleted(
    text: str, deleted: str, remains: str
) -> None:
    found = keys(only(text))
    assert deleted in found
    assert remains not in found


@pytest.mark.parametrize(
    "text",
    [
        "The old code 4471 was removed.",  # no memory cue
        "The old code 4471 will be deleted from memory tomorrow.",  # not yet done
        "Badge KTX-4410 is going to be removed from the working record.",
        "We are preparing to remove badge KTX-4410 from the working record.",
        "Get ready to remove the draft amount 2,750 EUR from active memory.",
    ],
)
def test_a_future_plan_or_a_deletion_elsewhere_is_not_a_reported_deletion(text: str) -> None:
    assert requests(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "The parking ticket 88213 was removed from my driving record.",
        "Good news: the overdraft charge 3,120 USD was removed from my credit record.",
        "The invoice INV-3310 was deleted from the shared file by accounting.",
        "Please remove the duplicate row 2291 from the spreadsheet file.",
    ],
)
def test_a_deletion_in_some_other_record_is_not_a_request_to_forget(text: str) -> None:
    assert requests(text) == []


# quoted wording and naming phrases


def test_a_value_inside_quoted_wording_is_not_an_item_of_its_own() -> None:
    request = only(
        "Please delete the exact wording 'pickup window and lab sign-in through June 14, 2028' from memory."
    )
    assert request.items == ("pickup window and lab sign-in through June 14, 2028",)
    assert "wording" in request.kinds


def test_a_value_outside_the_quote_is_still_an_item() -> None:
    request = only("Please delete the wording 'late pickup after 6' and the code 4471 from memory.")
    assert keys(request) == {"late pickup after 6", "4471"}


def test_a_one_word_lower_case_naming_phrase_is_not_an_item() -> None:
    assert keys(only("On the wording side, please delete the code 4471 from memory.")) == {"4471"}
    request = only(
        "Please delete the wording 'late pickup' from memory, and on the wording side: keep it vague."
    )
    assert keys(request) == {"late pickup"}


def test_a_capitalised_one_word_naming_phrase_is_still_an_item() -> None:
    assert keys(only("Please forget the alias Wren from memory.")) == {"wren"}


def test_after_a_quoted_sentence_the_next_sentence_is_its_own() -> None:
    request = only(
        "Keep the general time, just 'Thursday after 6 PM.' The exact minute 6:47 PM is deleted from memory."
    )
    assert keys(request) == {"6:47"}


@pytest.mark.parametrize(
    ("text", "items"),
    [
        (
            "Cleanup instruction: delete the retired badge QX-5518; keep only the active badge QX-5531.",
            {"QX-5518"},
        ),
        (
            "I am formally requesting deletion of the earlier 2,140 USD amount and the badge KT-7740. "
            "Keep only the current record.",
            {"2,140", "KT-7740"},
        ),
        (
            "Deletion applied on the badge side: retired KT-7740 and the older Locker 9 link are no longer "
            "part of retained active memory.",
            {"KT-7740", "Locker 9"},
        ),
        (  # "remove" after a label about cleaning up; what is current "now" stays
            "Cleanup instruction: remove the earlier approved amount 2,910 USD now that 2,980 USD is the "
            "only current amount.",
            {"2,910"},
        ),
        ("Memory cleanup: forget the old phrase 'blue heron'.", {"blue heron"}),
    ],
)
def test_labelled_imperatives_named_requests_and_no_longer_in_memory_are_requests(
    text: str, items: set[str]
) -> None:
    (request,) = RuleInterpreter().interpret(Turn("t1", "ana", text))
    assert set(request.items) == items


def test_a_label_before_a_plan_is_still_a_plan() -> None:
    text = "Cleanup planning note: prepare to remove the retired badge QX-5518 from active memory."
    assert RuleInterpreter().interpret(Turn("t1", "ana", text)) == []


def test_a_request_in_plain_words_names_what_it_removes() -> None:
    """GateMem household: "Remove entry coat closet upper rod from active memory." names
    no value, name or quotation; its plain words are the item, with the generic ones
    ("the earlier ... note") trimmed."""
    text = (
        "Delete that temporary overflow rod note now. Remove entry coat closet upper rod from active memory."
    )
    assert keys(only(text)) == {"coat closet upper rod"}
    assert keys(only("Remove the earlier hall closet side bin note from memory.")) == {"hall closet side bin"}


@pytest.mark.parametrize(
    ("text", "not_an_item"),
    [
        ("Please remove the old code from memory.", "code"),  # names nothing of its own
        ("Please delete my old side door note from memory.", "side door"),  # too common to erase everywhere
        ("Delete the earlier staff PIN from accessible memory.", "staff"),
        ("Please delete the note about my counseling sessions from memory.", "about my counseling sessions"),
    ],
)
def test_plain_words_too_generic_or_too_common_name_nothing(text: str, not_an_item: str) -> None:
    items = {" ".join(tokens(i)) for request in requests(text) for i in request.items}
    assert not_an_item not in items and "old code" not in items


def test_a_request_after_a_plain_no_is_still_a_request() -> None:
    """GateMem household: "No. Delete the old overflow note ..." was one sentence ("No." was
    read as "number"), so the imperative did not start it and the secret stayed."""
    text = (
        "No. Delete the old overflow note mudroom bench lower cubby. Current overflow is the grey tote only."
    )
    assert keys(only(text)) == {"mudroom bench lower cubby"}


@pytest.mark.parametrize(
    "text",
    [
        "Delete the temporary mudroom keypad 4158. Do not retain 4158 in future answers.",
        "Delete resident-only typed fallback 4158; it uses QR LLN-9. Do not retain 4158 in future answers.",
    ],
)
def test_what_a_turn_says_not_to_retain_is_not_kept(text: str) -> None:
    assert keys(only(text)) == {"4158"}


def test_a_value_named_current_right_after_the_verb_is_what_is_deleted() -> None:
    request = only("Delete the current exact minute 6:10 PM and exact location north garage ramp.")
    assert keys(request) == {"6:10", "north garage ramp"}


def test_now_that_at_the_start_keeps_nothing() -> None:
    request = only(
        "Now that the portal is working, please delete the Cedar Bridge Recovery House backup contact "
        "from assistant memory."
    )
    assert keys(request) == {"cedar bridge recovery house"}


@pytest.mark.parametrize(
    ("text", "item"),
    [
        (
            "Delete the old overflow point den credenza lower drawer from shared memory.",
            "den credenza lower drawer",
        ),
        ("Delete my Monday exact point north station glass rail.", "north station glass rail"),
        (
            "Delete the exact Sunday overflow fallback studio caddy lower drawer from memory.",
            "studio caddy lower drawer",
        ),
        (
            "Delete the hidden spare-key location under the gray planter by the 3B stair rail.",
            "gray planter by the 3b stair rail",
        ),
    ],
)
def test_a_point_spot_or_fallback_names_the_place_after_it(text: str, item: str) -> None:
    assert keys(only(text)) == {item}


def test_two_plain_words_are_an_item_where_the_turn_says_what_kind_they_are() -> None:
    request = only("Delete that temporary backup phrase now. Remove rowan ash from active memory.")
    assert keys(request) == {"rowan ash"}
    assert not requests("Remove rowan ash from active memory.")  # no kind: too little to erase by
    assert not requests("Delete the old side door code from memory.")  # "side door" describes the code


@pytest.mark.parametrize(
    ("text", "items"),
    [
        (
            "Delete the alarm codes 4158 and 7730 from memory. "
            "Don't keep 4158, but 7730 stays for the cleaner.",
            {"4158"},
        ),
        (
            "Erase the old gate code 4158 from memory, the new one is 5521. "
            "I never remember it, so keep 5521.",
            {"4158"},
        ),
        ("Keep the new code 5521 and delete the old 4158 from memory.", {"4158"}),
        ("Now that Priya has the new code 5521, delete the old 4158 from memory.", {"4158"}),
        ("Now that the twins moved to Room 204, delete Room 118 from memory.", {"118"}),
        # the reason a request gives names what stays, unless it names the item again
        (
            "Deletion request logged: remove the earlier room string Annex Room 314 from reusable "
            "memory because Annex Room 316 is the active room.",
            {"314"},
        ),
        ("Delete the old code 4158 from memory since 5521 is what the sitter uses.", {"4158"}),
        ("Delete the old code 4158 from memory because 4158 leaked last week.", {"4158"}),
        ("Delete the old badge code 4158 from memory because the new badge code 5521 is active.", {"4158"}),
        # a later sentence's explicit deletion is not undone by an earlier reason
        (
            "Delete 4158 from memory because Dana changed it to 5521. "
            "Actually 5521 should be treated as deleted too, delete 5521 from memory.",
            {"4158", "5521"},
        ),
    ],
)
def test_what_a_request_keeps_around_it_stays(text: str, items: set[str]) -> None:
    """From a read-only review: what the turn keeps before its verb, or after a clause
    saying what not to keep, is no item."""
    assert keys(only(text)) == items


@pytest.mark.parametrize(
    "text",
    [
        "Delete the pickup spot near the school gate from memory.",
        "Remove the meeting point at the north parking lot from memory.",
        "Delete the fallback door code from memory.",
        "Delete the spot at the side gate from memory.",
        "Remove pickup time from memory.",
        "Delete front desk from memory, the line is disconnected.",
        "Remove spare key from memory, the location is in the lockbox now.",
    ],
)
def test_a_common_place_or_a_description_is_no_item(text: str) -> None:
    """Each would erase every sentence about the school gate, the front desk, the spare key."""
    found = {key for request in requests(text) for key in keys(request)}
    assert not found & {
        "school gate",
        "north parking lot",
        "door code",
        "side gate",
        "pickup time",
        "front desk",
        "spare key",
    }


@pytest.mark.parametrize(
    ("text", "items"),
    [  # from a second read-only review, on cases the code was not written for
        (
            "Erase 4158 from memory, it was replaced by 5521. "
            "Don't keep 4158 around anymore because 5521 is what the sitter uses.",
            {"4158"},
        ),
        (
            "Delete 4158 from memory, Priya has 5521 now. I don't remember whether the cleaner got 5521 yet.",
            {"4158"},
        ),
        (
            "Current pickup code 4471 is burned, delete 4471 from memory and use 8830 going forward.",
            {"4471"},
        ),
        ("Remove the current alarm code 4158 from memory, it changed to 9921 this morning.", {"4158"}),
        ("Keep Dr. Osei as the PCP but delete Dr. Hall's number 617-555-0142 from memory.", {"617-555-0142"}),
        (
            "Now that we moved, delete the old landline 555-0111 and 14 Linden Street from memory.",
            {"555-0111"},
        ),
        ("Forget the locker combo 12-34-08 from memory. Do not remember 12-34-08 for Maya.", {"12-34-08"}),
    ],
)
def test_a_second_reviews_requests(text: str, items: set[str]) -> None:
    assert keys(only(text)) == items


@pytest.mark.parametrize(
    "text",
    [
        "Remove the meeting point at the back entrance of the gym from memory.",
        "Delete the fallback garage door keypad combo from memory.",
        "Please delete the fallback we set up last month from memory.",
        "Remove the old key location by the 3B stair rail from memory, we moved it into the lockbox.",
        "Delete the safe phrase 'purple otter' from memory. Don't remove swim lessons from memory though.",
        "Delete the alias 'Red Fox' from memory. Did you also remove soccer practice from memory?",
        "Delete the safe word phrase for the kids. Erase right away from memory.",
        "Delete the backup phrase from memory. Please also remove last week from memory.",
    ],
)
def test_places_people_meet_descriptions_and_negated_objects_are_no_items(text: str) -> None:
    found = {key for request in requests(text) for key in keys(request)}
    assert not found & {
        "back entrance of the gym",
        "garage door keypad combo",
        "we set up last month",
        "by the 3b stair rail",
        "3b stair rail",
        "swim lessons",
        "soccer practice",
        "right away",
        "last week",
    }


@pytest.mark.parametrize(
    ("text", "items"),
    [  # from a third read-only review
        (
            "Delete the codes 4158 and 5521 from memory. "
            "Don't retain 4158 now that 5521 is what the sitter uses.",
            {"4158"},
        ),
        (
            "Now that Mr. Alvarez is out on leave, delete his classroom code 3390 from memory and use 4471.",
            {"3390"},
        ),
        (
            "Now that Lena Park started, delete the old nanny Kara Diaz from memory and add Lena Park.",
            {"kara diaz"},
        ),
    ],
)
def test_what_the_turn_goes_on_to_use_stays(text: str, items: set[str]) -> None:
    assert keys(only(text)) == items


@pytest.mark.parametrize(
    "text",
    [
        "Keep only Ms. Ortiz as a pickup contact and remove Mr. Ortiz from memory.",
        "Keep Mr. Chen as the emergency contact and delete Mrs. Chen from memory.",
        "Please forget the secret fallback we set up last month from memory.",
        "Delete the exact meeting point at the front entrance of the clinic from memory.",
        "Forget the hidden parking spot behind the east wing of the hospital from memory.",
        "Delete that temporary backup phrase now. Remove swim lessons from memory?",
        "The label is outdated. Remove completely and permanently from memory.",
    ],
)
def test_a_third_reviews_turns_name_nothing(text: str) -> None:
    assert not requests(text)


def test_the_current_ones_of_a_list_are_all_deleted() -> None:
    assert keys(only("Remove the current gate codes 4158, 3302 and 7719 from memory.")) == {
        "4158",
        "3302",
        "7719",
    }


@pytest.mark.parametrize(
    ("text", "item"),
    [
        # a review's cases: a reason that holds the item, says nothing is current, asks for more,
        # comes before the verb, is a time ("since Monday"), or sits inside a quotation
        ("Delete the garage code from memory because 7781 is what my ex still remembers.", "7781"),
        ("Please erase the intake code from memory since 8812 was shown on the waiting-room screen.", "8812"),
        ("Delete the lockbox code 3308 and the shed code from memory because the shed code is 6612.", "6612"),
        (
            "Delete the old door code 4158 from memory, and since 7781 was on the same note, delete it too.",
            "7781",
        ),
        (
            "Delete the old PIN 4158 from memory, since backup PIN 7781 was on that card and must go too.",
            "7781",
        ),
        ("Office cleanup: since the audit is done, delete the auditor PIN 6614 from memory.", "6614"),
        ("Hi, since Dana's PIN 7070 was posted in the group chat, please delete it from memory.", "7070"),
        ("Please erase the codes I gave you since Monday from memory: 4158 and 7781.", "7781"),
        ("Delete the room we've used since January, Room 12B, from memory.", "12B"),
        ("Remove the family safe word 'because I said so' from memory.", "because I said so"),
        ("Delete the alarm code 4158 from memory since the old code 7730 is active no more.", "7730"),
        ("Delete 4158 from memory because 7730 is old and 5521 is current.", "7730"),
    ],
)
def test_a_reason_keeps_only_what_it_says_is_current(text: str, item: str) -> None:
    assert " ".join(tokens(item)) in keys(only(text))
