"""Household: a visitor's schedule is theirs, not the last-named resident's, and not every
visitor's to read (``visitors_own_their_logistics``); a personal matter no one is named in
or carried into is its speaker's (``personal_speaker``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from govmem import Memory, Turn
from govmem.governance.labeling import Labeler
from govmem.governance.policy_pack import load_pack
from govmem.models import Principal

PEOPLE = [
    Principal("olivia", "primary_resident", "Olivia Chen"),
    Principal("zoe", "adult_child", "Zoe Reed"),
    Principal("pavel", "technician", "Pavel Novak"),
    Principal("marco", "guest", "Marco Ives"),
    Principal("ethan", "home_it_helper", "Ethan Cho"),
]
AT = "2026-06-01T10:{:02d}:00"
LATER = "2026-06-02T00:00:00"
TURNS = [
    Turn("t1", "olivia", "Olivia's private dentist visit is on Saturday at 7:10 PM.", "e1", AT.format(0)),
    Turn("t2", "olivia", "Pavel's repair window is now Friday from 3:15 PM to 5:00 PM.", "e1", AT.format(1)),
    Turn("t3", "olivia", "The repair uses the side door and the kitchen.", "e1", AT.format(2)),
    Turn("t4", "zoe", "The current exact note is now 6:10 PM at the north garage ramp.", "e1", AT.format(3)),
]


def labeler() -> Labeler:
    return Labeler(load_pack("household"), PEOPLE, [])


def subjects(label) -> set[str]:
    return {s for span in label.spans for s, t in span.facets if s and not t.startswith("said_by:")}


def test_a_sentence_naming_only_a_visitor_is_theirs_and_passes_no_one_on() -> None:
    lab = labeler()
    label, after = lab.label(TURNS[1].text, "olivia", None, frozenset({"zoe"}))
    assert subjects(label) == {"pavel"}
    assert after == frozenset()


def test_a_visitor_referred_to_by_a_pronoun_is_left_to_the_usual_rules() -> None:
    label, _ = labeler().label("Pavel will fix her desk lamp on Friday.", "olivia", None, frozenset({"zoe"}))
    assert "zoe" in subjects(label)


def test_a_visitors_code_is_still_a_personal_matter() -> None:
    label, after = labeler().label("Pavel's door code is 4471.", "olivia", None, frozenset())
    assert subjects(label) == {"pavel"} and after == frozenset({"pavel"})


def test_a_personal_matter_no_one_is_named_in_is_its_speakers() -> None:
    lab = labeler()
    label, after = lab.label(TURNS[3].text, "zoe", None, frozenset())
    assert subjects(label) == {"zoe"} and after == frozenset()
    carried, _ = lab.label(TURNS[3].text, "zoe", None, frozenset({"olivia"}))
    assert subjects(carried) == {"olivia"}  # whom the talk is about still comes first


def test_a_request_is_not_made_the_speakers_own() -> None:
    label, _ = labeler().label("Please keep the exact minute private.", "zoe", None, frozenset())
    assert "zoe" not in subjects(label)


def test_other_packs_keep_carrying_through_a_named_clinician() -> None:
    pack = load_pack("medical")
    assert not pack.visitors_own_their_logistics
    assert "personal_speaker" not in pack.unnamed_subject


def ingested(batches: Sequence[Sequence[Turn]]) -> Memory:
    memory = Memory(":memory:", policy="household")
    memory.add_principals(PEOPLE)
    for batch in batches:
        memory.ingest_many(batch)
    return memory


def spans_of(memory: Memory) -> dict[str, list[frozenset]]:
    keys = memory.store.turn_keys("e1", [t.turn_id for t in TURNS])
    spans = memory.store.turn_spans(list(keys.values()))
    return {t: [memory._facets_of([k])[k] for _, _, k in spans[key][2]] for t, key in keys.items()}


@pytest.mark.parametrize("split", [1, 2, 3])
def test_labels_do_not_depend_on_how_turns_were_batched(split: int) -> None:
    with ingested([TURNS]) as together, ingested([TURNS[:split], TURNS[split:]]) as apart:
        assert spans_of(apart) == spans_of(together)
    with ingested([[t] for t in TURNS]) as one_by_one, ingested([TURNS]) as together:
        assert spans_of(one_by_one) == spans_of(together)


def test_a_visitors_window_is_read_by_them_and_residents_not_by_another_guest() -> None:
    with ingested([TURNS]) as memory:
        query = "When is the repair window?"
        assert "3:15 PM" in memory.recall("pavel", query, k=10, as_of=LATER).context()
        assert "3:15 PM" in memory.recall("olivia", query, k=10, as_of=LATER).context()
        assert "3:15 PM" not in memory.recall("marco", query, k=10, as_of=LATER).context()


def test_a_resident_reads_back_their_own_note() -> None:
    with ingested([TURNS]) as memory:
        context = memory.recall("zoe", "What is my current exact note?", k=10, as_of=LATER).context()
        assert "north garage ramp" in context
        guest = memory.recall("marco", "What is the exact note?", k=10, as_of=LATER).context()
        assert "north garage ramp" not in guest


def test_the_device_helper_reads_who_may_view_the_cameras() -> None:
    turns = [
        Turn("c1", "olivia", "Camera scope: residents Olivia and Zoe have clip access.", "e2", AT.format(0)),
        Turn("c2", "olivia", "Zoe's private interview is on Saturday at 7:10 PM.", "e2", AT.format(1)),
    ]
    with Memory(":memory:", policy="household") as memory:
        memory.add_principals(PEOPLE)
        memory.ingest_many(turns)
        query = "Who has camera clip access, and when is the interview?"
        ethan = memory.recall("ethan", query, k=10, as_of=LATER).context()
        assert "clip access" in ethan and "7:10 PM" not in ethan
        assert "clip access" not in memory.recall("marco", query, k=10, as_of=LATER).context()
