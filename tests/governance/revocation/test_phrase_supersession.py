"""Things replaced in words: a vehicle, a document, a route named after "rather than"."""

from __future__ import annotations

import pytest

from claim_records import found_in_any_batches, records
from govmem import Memory, Principal, Turn
from govmem.governance.revocation.claim_supersession import find_claim_supersessions
from govmem.governance.revocation.phrase_supersession import replaced_things
from phrase_cases import CASES


def superseded(*texts: str) -> list[tuple[int, str, int, bool]]:
    """(old record, the superseded text, new record, whole) of ``texts`` said in order."""
    every = records(*texts)
    return [
        (f.older, every[f.older].text[f.start : f.end], f.newer, f.whole)
        for f in find_claim_supersessions(every, [])
    ]


@pytest.mark.parametrize(
    ("sentence", "things"),
    [
        (
            "Vehicle update: this week I will use the gray Highlander rather than the red Subaru.",
            [("red subaru", None)],
        ),
        (
            "The blocker is now the faculty archive note rather than the earlier external-review memo.",
            [("external-review memo", None)],
        ),
        ("The current blocker is no longer the conduct memo.", [("conduct memo", "blocker")]),
        ("Helpers should hear the broad wording rather than the exact phrase.", []),  # a rule
        ("Current suspicion is a bad sync path rather than an external compromise.", []),  # no change said
        ("Broad updates should use the insurance pilot instead of exact customer identity.", []),
        ("If the helper is late, switch to desk buzz instead of the keypad.", []),  # a condition
        ("The room is now 214 rather than 212.", []),  # figures are the claims'
        ("The blocker is no longer pending.", []),
    ],
)
def test_what_a_sentence_names_as_replaced(sentence: str, things: list) -> None:
    assert [(r.thing, r.holder) for r in replaced_things(sentence)] == things


def test_a_named_vehicle_replaced_is_marked_in_the_clause_that_gave_it() -> None:
    found = superseded(
        "Initial plan is Thursday at 3:20 PM, using the release phrase blue cedar, and Tessa expects "
        "to arrive in the red Subaru.",
        "Vehicle update: this week I will use the gray Highlander rather than the red Subaru.",
    )
    assert found == [(0, "the red Subaru.", 1, False)]


def test_a_sentence_naming_only_the_replaced_thing_goes_whole() -> None:
    found = superseded(
        "Tessa drives the red Subaru.",
        "Update: Tessa now drives the gray Highlander instead of the red Subaru.",
    )
    assert found == [(0, "Tessa drives the red Subaru.", 1, True)]


def test_a_weekday_of_the_change_must_be_the_old_statement_s_too() -> None:
    assert (
        superseded(
            "Tessa's current Thursday vehicle is the gray Highlander.",
            "Friday vehicle update: for the Friday run I use the blue RAV4 rather than the gray Highlander.",
        )
        == []
    )


def test_what_is_no_longer_something_must_be_what_the_old_statement_spoke_of() -> None:
    assert superseded("Ben remains the primary driver.", "Tessa is no longer the primary driver.") == []
    found = superseded(
        "The conduct memo remains the private blocker, and the review target has not moved yet.",
        "The current blocker is no longer the conduct memo. It is now the reentry form.",
    )
    assert found == [(0, "The conduct memo remains the private blocker, ", 1, False)]


def test_a_quoted_wording_a_denial_or_a_question_is_not_superseded() -> None:
    assert (
        superseded(
            "The exact wording is 'review pending external-review memo'.",
            "Is the external-review memo still the blocker?",
            "We are not waiting on the external-review memo.",
            "The blocker is now the faculty note rather than the external-review memo.",
        )
        == []
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [  # a read-only review's traps: each hid a current statement in a first version
        (
            "Arthur checks his sugar with the Accu-Chek Guide.",
            "New ward policy: nurses use the Contour Next meter rather than the Accu-Chek Guide.",
        ),
        (
            "Arthur's referral letter went to Lakeside Cardiology.",
            "Update: Arthur would prefer Northgate Heart rather than Lakeside Cardiology.",
        ),
        (
            "Arthur takes Toprol XL each morning.",
            "Update: Dr. Patel decided not to switch to Coreg instead of Toprol XL.",
        ),
        (
            "Our courier is FastShip Logistics.",
            "Update: for the Berlin shipment only, we are using DHL Express instead of FastShip Logistics.",
        ),
        (
            "Leo takes the Red Line train.",
            "Mia switched to the bus rather than the Red Line train, but Leo still takes the Red Line train.",
        ),
        (
            "Arthur's cardiologist is Dr. Patel.",
            "Arthur's sleep doctor is now Dr. Lin rather than Dr. Okafor.",
        ),
        ("Priya runs the Monday standup.", "Update: Sam now owns the Grafana alerts instead of Priya."),
        (
            "Arthur goes to Riverside Rehab because it is the closest clinic.",
            "Riverside Rehab is no longer the closest clinic.",
        ),
    ],
)
def test_a_wish_a_rule_one_occasion_or_another_matter_supersedes_nothing(old: str, new: str) -> None:
    assert superseded(old, new) == []


def test_a_person_replaced_supersedes_what_they_did_of_that_matter_only() -> None:
    found = superseded(
        "Priya owns the Grafana alerts.",
        "Priya runs the standup.",
        "Update: Sam now owns the Grafana alerts instead of Priya.",
    )
    assert found == [(0, "Priya owns the Grafana alerts.", 2, True)]


def test_each_part_of_a_listing_sentence_is_judged_apart() -> None:
    found = superseded(
        "Priya is the billing dashboard owner and Marco is the search owner.",
        "Priya is no longer the billing dashboard owner.",
    )
    assert found == [(0, "the billing dashboard owner ", 1, False)]


def test_a_thing_the_change_still_states_elsewhere_is_not_replaced() -> None:
    assert (
        superseded(
            "Tessa drives the gray Highlander.",
            "Friday update: the blue RAV4 now rather than the gray Highlander. Thursday: gray Highlander.",
        )
        == []
    )


def test_a_clause_beside_a_value_keeps_the_value_s_own_supersession() -> None:
    found = superseded(
        "Current blocker is still the external-review memo, and the workstation is Archive Carrel 417.",
        "The blocker is now the faculty archive note rather than the earlier external-review memo.",
        "The workstation moves from Archive Carrel 417 to Archive Carrel 418.",
    )
    assert sorted((old, text.split()[0], new) for old, text, new, _ in found) == [
        (0, "Current", 2),
        (0, "the", 1),
    ]


def test_the_outcome_does_not_depend_on_how_records_are_batched() -> None:
    every = records(
        "Initial plan: Thursday at 3:20 PM, and Tessa expects to arrive in the red Subaru.",
        "Tessa drives the red Subaru on Thursdays, the desk says.",
        "Vehicle update: this week I will use the gray Highlander rather than the red Subaru.",
        "Note: the blocker is the conduct memo, and the form is pending.",
        "The current blocker is no longer the conduct memo.",
    )
    assert len(found_in_any_batches(every)) == 3


def test_a_read_marks_the_replaced_thing_and_keeps_the_rest() -> None:
    with Memory(":memory:", policy="household", detect_supersession="statements") as memory:
        memory.add_principals(
            [Principal("rina", "primary_resident"), Principal("tessa", "driver_pickup_contact")]
        )
        memory.ingest(
            Turn(
                "t1",
                "rina",
                "Pickup is Thursday at 3:15 PM, and Tessa arrives in the red Subaru.",
                timestamp="2026-05-01T09:00",
            )
        )
        memory.ingest(
            Turn(
                "t2",
                "tessa",
                "Vehicle update: this week I will use the gray Highlander rather than the red Subaru.",
                timestamp="2026-05-02T09:00",
            )
        )
        context = memory.recall("rina", "Which car does Tessa use for pickup?", design="turn").context()
        assert (
            "Thursday at 3:15 PM, and Tessa arrives in the red Subaru [SUPERSEDED: not current]." in context
        )


def test_a_clause_marked_inside_a_claim_marked_too_keeps_both_marks() -> None:
    with Memory(":memory:", policy="household", detect_supersession="statements") as memory:
        memory.add_principal("rina", "primary_resident")
        texts = [
            "Current blocker is still the external-review memo, and the review is Tuesday at 10:00 AM.",
            "The blocker is now the faculty archive note rather than the earlier external-review memo.",
            "The review moved to 11:00 AM.",
        ]
        for n, text in enumerate(texts, start=1):
            memory.ingest(Turn(f"t{n}", "rina", text, timestamp=f"2026-05-0{n}T09:00"))
        (item,) = [i for i in memory.export("rina", design="turn") if i.sources == ("t1",)]
        mark = " [SUPERSEDED: not current]"
        blocker, review = (
            "Current blocker is still the external-review memo",
            "the review is Tuesday at 10:00 AM",
        )
        assert item.text == f"{blocker}{mark}, and {review}{mark}."


PACKS = {"clinic": "medical", "school": "education", "office": "office", "home": "household"}


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_the_review_s_sequences_hide_no_current_statement(case) -> None:
    _id, domain, people, turns, expected = case
    found = []
    with Memory(":memory:", policy=PACKS[domain], detect_supersession="statements") as memory:
        memory.add_principal("reader", "agent")
        for principal, role in people.items():
            memory.add_principal(principal, role)
        for n, (speaker, text) in enumerate(turns):
            report = memory.ingest(Turn(f"t{n}", speaker, text, timestamp=f"2026-05-{n + 1:02d}T09:00"))
            for s in report.superseded:
                if "named-replaced-thing" in s["reason"]:
                    old = int(s["old"][1:])
                    found.append((old, n, turns[old][1][slice(*s["span"])]))

    def meant(finding: tuple, wanted: tuple) -> bool:
        old, new, text = finding
        return (
            (old, new) == wanted[:2]
            and wanted[2].lower() in text.lower()
            and not (len(wanted) > 3 and wanted[3].lower() in text.lower())
        )

    assert [f for f in found if not any(meant(f, e) for e in expected)] == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Leo has a tuition hold.", "Maya called. Her tuition hold is now cleared."),
        (
            "Arthur has a penicillin allergy flag on his chart.",
            "The penicillin allergy flag was cleared by mistake and has been restored.",
        ),
        ("Mia's piano lesson is with Ms. Ford.", "Mia's piano lesson is cancelled this week."),
        ("Arthur is scheduled for knee surgery at Lakeside.", "The knee surgery was cleared by cardiology."),
        (
            "A tuition hold blocks registration until the bursar clears it.",
            "Maya's tuition hold is now cleared.",
        ),
    ],
)
def test_a_thing_said_to_have_ended_supersedes_nothing(old: str, new: str) -> None:
    """Tried and withdrawn (see DEVELOPERS.md): "X is now cleared / cancelled" superseding the
    clauses that asserted X. A review's wrong cuts: another person's ("Her ..."), a reversal
    after the verb, one occasion, "cleared" as approved, a general statement."""
    assert superseded(old, new) == []
