"""What the talk is about does not pass through a deletion request or a turn erased whole."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import pytest

from govmem import Memory, Turn
from govmem.models import Principal

PEOPLE = [
    Principal("rina", "primary_resident", "Rina Cho"),
    Principal("lena", "adult_child", "Lena Cho"),
    Principal("derek", "technician", "Derek Lin"),
    Principal("emma", "household_manager", "Emma Cross"),
]
AT = "2026-05-12T08:0{}:00"
TURNS = [
    Turn("t1", "rina", "Lena's private note remains private.", "e1", AT.format(0)),
    Turn("t2", "rina", "Please delete Derek's old door code 5532 from active memory.", "e1", AT.format(1)),
    Turn("t3", "rina", "The new side door code is 8841.", "e1", AT.format(2)),
    Turn(
        "t4", "emma", "The old code 5532 is gone, Derek.", "e1", AT.format(3)
    ),  # erased whole: 5532 is forgotten
    Turn("t5", "emma", "Keep service access and private notes from getting mixed.", "e1", AT.format(4)),
]


def facets_by_turn(memory: Memory) -> dict[str, list[frozenset]]:
    keys = memory.store.turn_keys("e1", [t.turn_id for t in TURNS])
    spans = memory.store.turn_spans(list(keys.values()))
    return {
        turn_id: [memory._facets_of([label])[label] for _, _, label in spans[key][2]]
        for turn_id, key in keys.items()
        if key in spans
    }


def ingested(batches: Sequence[Sequence[Turn]]) -> tuple[dict[str, list[frozenset]], Memory]:
    memory = Memory(":memory:", policy="household")
    memory.add_principals(PEOPLE)
    for batch in batches:
        memory.ingest_many(batch)
    return facets_by_turn(memory), memory


def test_whom_a_deletion_request_names_does_not_own_the_next_sentence() -> None:
    labels, memory = ingested([TURNS])
    assert "t2" not in labels and "t4" not in labels  # erased whole at ingest
    assert all("derek" not in {s for s, _ in facets} for facets in labels["t3"])
    result = memory.recall("derek", "What is the side door code?", as_of="2026-05-13T00:00:00")
    assert "8841" not in result.context()
    memory.close()


@pytest.mark.parametrize("split", [1, 2, 3, 4])
def test_labels_do_not_depend_on_how_turns_were_batched(split: int) -> None:
    together, memory = ingested([TURNS])
    memory.close()
    apart, memory = ingested([TURNS[:split], TURNS[split:]])
    memory.close()
    one_by_one, memory = ingested([[t] for t in TURNS])
    memory.close()
    assert apart == together and one_by_one == together


def test_a_request_inside_a_longer_turn_does_not_pass_its_subject_on() -> None:
    """Review: the kept sentence after the request inherited Derek, and the next turn too."""
    turns = [
        TURNS[0],
        Turn(
            "t2",
            "rina",
            "Emma will check the boiler. Please delete Derek's old door code 5532. It was on the fridge.",
            "e1",
            AT.format(1),
        ),
        TURNS[2],
    ]
    for batches in ([turns], [[t] for t in turns]):
        memory = Memory(":memory:", policy="household")
        memory.add_principals(PEOPLE)
        for batch in batches:
            memory.ingest_many(batch)
        labels = facets_by_turn(memory)
        assert all("derek" not in {s for s, _ in facets} for facets in labels["t3"]), batches
        result = memory.recall("derek", "What is the side door code?", as_of="2026-05-13T00:00:00")
        assert "8841" not in result.context()
        memory.close()


@pytest.mark.parametrize(
    "text",
    [
        "Emma will check the boiler. Please delete Derek's old door code 5532. It was on the fridge.",
        "Please delete the code 5532. Lena's note stays private.",
        "Lena's note stays private. The code 5532 is gone.",
        "First. 5532 here. Third. 5532 again. Fifth.",
    ],
)
def test_a_turn_labelled_as_what_is_kept_of_it_still_covers_its_whole_text(text: str) -> None:
    from govmem.governance.erasure import Tombstones, erase, kept_label
    from govmem.governance.labeling import Labeler
    from govmem.governance.policy_pack import load_pack

    labeler = Labeler(load_pack("household"), PEOPLE, [])
    erasure = erase(text, Tombstones.of_items(["5532"]))
    assert erasure is not None and not erasure.empty
    whole, _ = labeler.label(text, "rina", None, frozenset({"lena"}))
    kept, _ = labeler.label(erasure.text, "rina", None, frozenset({"lena"}))
    spans = kept_label(whole, kept, erasure).spans
    assert spans[0].start == 0 and spans[-1].end == len(text)
    assert all(a.end == b.start for a, b in pairwise(spans))
    for old_start, old_end, new_start in erasure.kept:  # kept text carries the kept labels
        for span in spans:
            if old_start <= span.start < old_end:
                at = span.start - old_start + new_start
                assert span.facets == next(k.facets for k in kept.spans if k.start <= at < k.end)


@pytest.mark.parametrize(
    "said",
    [
        "My laptop PIN is 9032, please keep it to yourself.",
        "Please remember: my laptop PIN is 9032.",
        "So my laptop PIN is 9032.",
    ],
)
def test_a_residents_own_code_is_not_carried_from_a_helper_named_before(said: str) -> None:
    people = [*PEOPLE, Principal("tessa", "driver_pickup_contact", "Tessa Hall")]
    turns = [
        Turn("p1", "rina", "Friday pickup: Tessa at 5:50 PM, release phrase blue cedar.", "e2", AT.format(0)),
        Turn("p2", "lena", said, "e2", AT.format(1)),
    ]
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(people)
        memory.ingest_many(turns)
        later = "2026-05-13T00:00:00"
        assert "9032" in memory.recall("lena", "What is my laptop PIN?", k=10, as_of=later).context()
        assert "9032" not in memory.recall("tessa", "What is the laptop PIN?", k=10, as_of=later).context()


@pytest.mark.parametrize(
    ("before", "said", "owner"),
    [
        (
            "Noah's new bank card came today.",
            "My reminder is that the card PIN is 7777, please don't lose it.",
            "noah",
        ),
        ("Ava got a new tablet.", "My advice is the tablet PIN is 1212, please tell nobody.", "ava"),
    ],
)
def test_a_remark_opening_on_my_is_not_the_speakers_own_thing(before: str, said: str, owner: str) -> None:
    people = [
        Principal("olivia", "primary_resident", "Olivia Chen"),
        Principal("noah", "partner_spouse", "Noah Reed"),
        Principal("ava", "minor_child", "Ava Chen"),
    ]
    code = said.split("PIN is ")[1][:4]
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(people)
        memory.ingest_many(
            [Turn("r1", "olivia", before, "e3", AT.format(0)), Turn("r2", "olivia", said, "e3", AT.format(1))]
        )
        later = "2026-05-13T00:00:00"
        assert code in memory.recall(owner, "What is the PIN?", k=10, as_of=later).context()


def test_an_own_code_carries_to_the_rest_of_the_turn_and_no_further() -> None:
    people = [*PEOPLE, Principal("tessa", "driver_pickup_contact", "Tessa Hall")]
    turns = [
        Turn("s1", "rina", "Friday pickup: Tessa at 5:50 PM, release phrase blue cedar.", "e5", AT.format(0)),
        Turn(
            "s2",
            "lena",
            "My laptop PIN is 9032, please keep it to yourself. The backup PIN is 1111.",
            "e5",
            AT.format(1),
        ),
        Turn("s3", "rina", "The garage code is 4471.", "e5", AT.format(2)),
    ]
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(people)
        memory.ingest_many(turns)
        later = "2026-05-13T00:00:00"
        lena = memory.recall("lena", "What are my laptop PIN and backup PIN?", k=10, as_of=later).context()
        assert "9032" in lena and "1111" in lena
        assert "1111" not in memory.recall("tessa", "What is the backup PIN?", k=10, as_of=later).context()
        assert "4471" not in memory.recall("lena", "What is the garage code?", k=10, as_of=later).context()


def test_a_residents_private_detail_said_after_a_helper_is_not_the_helpers() -> None:
    """The caregiver named in the turn before does not own Maya's private time (she read
    it as her own information before): it is the home's too, so only residents read it."""
    people = [
        Principal("olivia", "primary_resident", "Olivia Chen"),
        Principal("maya", "adult_child", "Maya Chen"),
        Principal("rosa", "caregiver", "Rosa Mendez"),
    ]
    turns = [
        Turn("c1", "olivia", "Rosa's care PIN is 7318 for Friday.", "e6", AT.format(0)),
        Turn(
            "c2",
            "maya",
            "Reminder: my interview stays private even if calendars get crowded. The exact time is 7:10 PM.",
            "e6",
            AT.format(1),
        ),
    ]
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(people)
        memory.ingest_many(turns)
        later = "2026-05-13T00:00:00"
        assert "7:10" not in memory.recall("rosa", "What time is it on Friday?", k=10, as_of=later).context()
        assert "7:10" in memory.recall("olivia", "What time is the interview?", k=10, as_of=later).context()
        assert "7318" in memory.recall("rosa", "What is my care PIN?", k=10, as_of=later).context()


def recall_after(people: list[Principal], said: list[tuple[str, str]], requester: str, query: str) -> str:
    turns = [Turn(f"v{i}", speaker, text, "e7", AT.format(i)) for i, (speaker, text) in enumerate(said)]
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(people)
        memory.ingest_many(turns)
        return memory.recall(requester, query, k=10, as_of="2026-05-13T00:00:00").context()


VISITING = [
    Principal("dana", "primary_resident", "Dana Kim"),
    Principal("leo", "roommate", "Leo Park"),
    Principal("maya", "adult_child", "Maya Kim"),
    Principal("rosa", "caregiver", "Rosa Mendez"),
    Principal("gabe", "driver_pickup_contact", "Gabe Mills"),
]


def test_a_visitor_keeps_what_refers_back_to_them() -> None:
    """A review's cases: "Her exact arrival ..." after Rosa's code is Rosa's own."""
    said = [("dana", "Rosa's gate code is 2291."), ("dana", "Her exact arrival is 9:10 AM on Friday.")]
    assert "9:10" in recall_after(VISITING, said, "rosa", "When do I arrive on Friday?")


def test_a_code_said_before_a_name_in_the_same_sentence_is_not_the_visitors() -> None:
    """A review's case: a figure before a full stop ("August 4.") no longer splits a sentence
    whose second half names its owner, leaving the code to the visitor named before."""
    said = [
        ("dana", "Rosa's care PIN is 7318."),
        ("dana", "The side door code is 4471 through August 4. Leo changes it when he is back."),
    ]
    assert "4471" not in recall_after(VISITING, said, "rosa", "Which code opens the side door?")


def test_a_wonderful_remark_stays_the_speakers_own() -> None:
    """A review's case: "wonderfully" is no "wonder"."""
    said = [
        ("dana", "Gabe's release phrase is blue cedar."),
        ("maya", "My new bike lock code is 9032 and wonderfully easy to remember."),
    ]
    assert "9032" not in recall_after(VISITING, said, "gabe", "Which code opens the bike lock?")
    assert "9032" in recall_after(VISITING, said, "maya", "Which code opens my bike lock?")


def test_where_no_role_is_a_subject_no_one_is_a_visitor() -> None:
    from govmem.governance.labeling import Labeler
    from govmem.governance.policy_pack import load_pack

    people = [Principal("bob", "employee", "Bob Tanaka"), Principal("mia", "manager", "Mia Ross")]
    label, _ = Labeler(load_pack("office"), people, []).label(
        "Back at the desk after therapy at 2 PM, private.", "mia", None, frozenset({"bob"})
    )
    assert "" not in {s for s, t in label.facets if not t.startswith("said_by")}


@pytest.mark.parametrize(
    "said",
    [
        "My bike lock code is 4471 - text me when you get there.",
        "My gym locker code is 4471 and I wonder why it keeps jamming.",
    ],
)
def test_a_request_after_my_own_code_leaves_it_mine(said: str) -> None:
    """A review's cases: "text me" and "wonder" take a read-back away, never the owner."""
    turns = [("dana", "Rosa's care PIN is 7318."), ("maya", said)]
    assert "4471" in recall_after(VISITING, turns, "maya", "Which code is mine?")
    assert "4471" not in recall_after(VISITING, turns, "rosa", "Which code opens the lock?")


def test_a_sentence_after_a_one_letter_word_goes_on_to_whom_it_names() -> None:
    """A review's case: "The gate code is 4471 for unit B. I gave it to Rosa." is one
    sentence, Rosa's, not the driver's named the turn before (cutting it at "B." gave the
    code to the driver)."""
    said = [
        ("dana", "Gabe's release phrase is blue cedar."),
        ("dana", "The gate code is 4471 for unit B. I gave it to Rosa."),
    ]
    assert "4471" not in recall_after(VISITING, said, "gabe", "Which code opens the gate?")
    assert "4471" in recall_after(VISITING, said, "rosa", "Which code opens the gate?")


def test_another_patients_result_before_a_one_letter_word_stays_theirs() -> None:
    from small_clinic import small_clinic

    turns = [
        Turn("m1", "lee", "Ben Okafor is resting in bed 2.", "e8", AT.format(0)),
        Turn(
            "m2",
            "lee",
            "The biopsy came back malignant for lesion B. I will call Ada Moreno about it now.",
            "e8",
            AT.format(1),
        ),
    ]
    with small_clinic(turns) as memory:
        later = "2026-05-13T00:00:00"
        assert (
            "malignant" not in memory.recall("ben", "What did the biopsy show?", k=10, as_of=later).context()
        )
        assert "malignant" in memory.recall("ada", "What did the biopsy show?", k=10, as_of=later).context()


def test_the_homes_absence_said_after_a_visitor_is_not_the_visitors() -> None:
    """A review's case: the family's trip, said after the caregiver was named, was hers."""
    said = [
        ("dana", "Rosa's care PIN is 7318."),
        ("dana", "We fly out Friday at 6 AM and stay away until Sunday."),
    ]
    assert "6 AM" not in recall_after(VISITING, said, "rosa", "What happens on Friday?")
    assert "6 AM" in recall_after(VISITING, said, "dana", "What happens on Friday?")


def test_the_homes_code_said_after_a_visitor_is_not_the_visitors() -> None:
    """A review's case: "The side door code is 4471." after the caregiver's PIN was hers."""
    said = [("dana", "Rosa's care PIN is 7318."), ("dana", "The side door code is 4471 this week.")]
    assert "4471" not in recall_after(VISITING, said, "rosa", "Which code opens the side door?")
    assert "7318" in recall_after(VISITING, said, "rosa", "What is my care PIN?")
    assert "4471" in recall_after(VISITING, said, "dana", "Which code opens the side door?")


ROSAS_PIN = ("dana", "Rosa's care PIN is 7318.")


@pytest.mark.parametrize(
    ("said", "query", "secret"),
    [
        (
            ("maya", "Mom and Dad fly out Friday at 6 AM and stay away until Sunday."),
            "What happens on Friday?",
            "6 AM",
        ),
        (
            ("dana", "The kids are at camp all week and they return Sunday night."),
            "When do the kids return?",
            "Sunday",
        ),
        (
            ("dana", "The cameras are switched off Friday through Sunday."),
            "Are the cameras on?",
            "switched off",
        ),
        (("dana", "The garage code is 5590, same as your old one."), "Which code opens the garage?", "5590"),
        (("dana", "The landline number is 415-555-0199."), "What is the landline number?", "555-0199"),
        (("maya", "Dad's biopsy came back benign, keep it private."), "What did the biopsy show?", "benign"),
        (("maya", "Mom's phone PIN is 8812."), "What is the phone PIN?", "8812"),
    ],
)
def test_a_residents_matter_said_with_they_you_or_mom_is_not_the_visitors(
    said: tuple[str, str], query: str, secret: str
) -> None:
    """A review's cases: "they", "your", "Mom" refer to residents as often as to the visitor
    named before, and an alarm or a number is the home's as much as a code."""
    assert secret not in recall_after(VISITING, [ROSAS_PIN, said], "rosa", query)
    assert secret in recall_after(VISITING, [ROSAS_PIN, said], "dana", query)


@pytest.mark.parametrize(
    ("said", "query", "own"),
    [
        ([ROSAS_PIN, ("dana", "It changes to 7319 on Friday.")], "What is my care PIN from Friday?", "7319"),
        (
            [("dana", "Rosa's care PIN is 7318. It changes to 7319 on Friday.")],
            "What is my PIN from Friday?",
            "7319",
        ),
        ([ROSAS_PIN, ("dana", "The new one from Friday is 7319.")], "What is my care PIN?", "7319"),
    ],
)
def test_a_visitors_own_code_said_after_them_stays_theirs(
    said: list[tuple[str, str]], query: str, own: str
) -> None:
    """A review's cases: a code said after the visitor's, that names nothing of the home's, is
    still theirs (hiding it left them the PIN that stops working on Friday)."""
    assert own in recall_after(VISITING, said, "rosa", query)


@pytest.mark.parametrize(
    "said",
    [
        ("dana", "The cabinet code is 4471."),
        ("dana", "The PIN for the wine fridge is 2210."),
        ("dana", "The backup key sits under the planter."),
        ("maya", "The pharmacy portal password is tulip-9."),
        ("dana", "The building entry code is 8080."),
        ("maya", "Grandma's jewelry box code is 7070."),
    ],
)
def test_a_code_said_after_a_visitors_own_is_the_homes(said: tuple[str, str]) -> None:
    """A review's leaks of the version that kept any code without a door word the visitor's:
    only a sentence opening on "it", "that", "the new one" goes on about the visitor's code
    (so "The backup phrase is red maple" after the driver's phrase is hidden from him too)."""
    secret = {"4471", "2210", "planter", "tulip-9", "8080", "7070"} & set(said[1].replace(".", " ").split())
    query = "What is the code?"
    assert not any(s in recall_after(VISITING, [ROSAS_PIN, said], "rosa", query) for s in secret)
    assert all(s in recall_after(VISITING, [ROSAS_PIN, said], "dana", query) for s in secret)


@pytest.mark.parametrize(
    ("said", "secret"),
    [
        (("maya", "Mom got a new phone. Her PIN is 5521."), "5521"),
        (("maya", "Grandpa is staying with us. His pill box code is 3030."), "3030"),
        (("maya", "Mom is at the hospital tonight; her passcode is 2580."), "2580"),
        (("maya", "Dad is worried; his biopsy results come Tuesday."), "biopsy"),
    ],
)
def test_her_or_his_after_a_relative_is_not_the_visitor(said: tuple[str, str], secret: str) -> None:
    """A review's leaks: "her" after "Mom" in the turn points at her, not the caregiver named before."""
    assert secret not in recall_after(VISITING, [ROSAS_PIN, said], "rosa", "What is the PIN?")
    assert secret in recall_after(VISITING, [ROSAS_PIN, said], "dana", "What is the PIN?")
