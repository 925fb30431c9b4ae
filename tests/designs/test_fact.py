"""Fact memory: atomic facts, latest value wins, every stating turn a source."""

from __future__ import annotations

import pytest
from derived_checks import (
    EPISODE,
    check_batch_size_invariance,
    check_closure,
    check_recall_by_design,
    household,
    objects,
    stored,
)

from govmem import Turn
from govmem.designs import DESIGNS, FactDeriver, NarrativeDeriver, make_derivers
from govmem.designs.base import parts_of
from govmem.designs.writers import ExtractedFact, RuleFactExtractor


@pytest.mark.parametrize(
    ("speaker", "text", "facts"),
    [
        ("bo", "My address is 12 Oak St.", [("bo", "address", "12 Oak St")]),
        ("bo", "Okay, my gate code is 4417.", [("bo", "gate code", "4417")]),
        ("ana", "Bo's address is 12 Oak St.", [("Bo", "address", "12 Oak St")]),
        ("ana", "I moved to Porto last spring.", [("ana", "residence", "Porto last spring")]),
        ("ana", "Carla is allergic to penicillin.", [("Carla", "allergy", "penicillin")]),
        ("ana", "Carla starts at the bakery on Monday.", [("Carla", "start", "at the bakery on Monday")]),
        (
            "ana",
            "Dan prefers tea; Eve works at Acme.",
            [("Dan", "preference", "tea"), ("Eve", "workplace", "Acme")],
        ),
        (
            "rex",
            "Walter Brandt follow-up with Dr. Varga on Thursday at 9:45 in Room 2.",
            [("Walter Brandt", "follow-up", "with Dr. Varga on Thursday at 9:45 in Room 2")],
        ),
        ("rex", "Lab result for Ada Moreno: TSH 7.9.", [("Ada Moreno", "lab result", "TSH 7.9")]),
        ("rex", "The Falcon release slipped to Friday.", [("Falcon", "release", "Friday")]),
        ("rex", "Your confirmation is LR-5531.", [("rex", "confirmation", "LR-5531")]),
        ("ana", "What is Bo's address?", []),  # a question states nothing
        ("ana", "Thanks, see you soon.", []),
    ],
)
def test_rule_extractor(speaker: str, text: str, facts: list[tuple[str, str, str]]) -> None:
    found = RuleFactExtractor().extract(speaker, text, None, [1])
    assert [(f.subject, f.attribute, f.value) for f in found] == facts


def test_make_derivers_gives_the_narrative_design_the_embedder() -> None:
    assert set(DESIGNS) == {"turn", "session", "summary", "narrative", "fact"}
    marker = object()
    derivers = make_derivers(["fact", "narrative", "summary"], embedder=marker)  # type: ignore[arg-type]
    assert [d.kind for d in derivers] == ["fact", "narrative", "summary"]
    assert isinstance(derivers[1], NarrativeDeriver) and derivers[1].embedder is marker


def test_groups_are_episode_subject_and_attribute() -> None:
    turns = [
        stored(1, "bo", "My address is 12 Oak St."),
        stored(2, "ana", "Bo's address is 9 Elm Rd."),  # the subject is case-folded
        stored(3, "bo", "My pin is 1234."),
    ]
    groups = FactDeriver().groups_of(turns)
    assert sorted(parts_of(g) for g in groups) == [
        ("fact", [EPISODE, "bo", "address"]),
        ("fact", [EPISODE, "bo", "pin"]),
    ]


def test_groups_stay_pending_until_derived() -> None:
    deriver = FactDeriver()
    assert deriver.groups_of([stored(3, "bo", "Thanks!")]) == set()
    groups = deriver.groups_of([stored(1, "bo", "My address is 12 Oak St.")])
    # a later batch's groups_of still names them, so the api derives each group once per call
    assert deriver.groups_of([stored(3, "bo", "Thanks!")]) == groups


def test_derive_states_the_latest_value_with_every_stating_turn_as_source() -> None:
    deriver = FactDeriver()
    turns = [
        stored(1, "bo", "My address is 12 Oak St.", "2026-03-01T09:00"),
        stored(2, "bo", "My address is 9 Elm Rd now.", "2026-03-05T09:00"),
        stored(3, "bo", "My address is 3 Ash Lane.", "2026-03-03T09:00"),  # ingested later, said earlier
    ]
    (group,) = deriver.groups_of(turns)
    (draft,) = deriver.derive(group, turns)
    assert draft.text == "bo — address: 9 Elm Rd now"
    assert draft.source_keys == (1, 2, 3)
    assert draft.observed_at == "2026-03-05T09:00"
    assert draft.kind == "fact" and draft.embed_text
    assert FactDeriver().derive(group, turns) == [draft]  # deterministic, whoever derives it
    assert deriver.derive(group, []) == []


def test_same_timestamp_goes_to_the_later_turn() -> None:
    deriver = FactDeriver()
    turns = [
        stored(1, "bo", "My pin is 1111.", "2026-03-01T09:00"),
        stored(2, "bo", "My pin is 2222.", "2026-03-01T09:00"),
    ]
    (group,) = deriver.groups_of(turns)
    assert deriver.derive(group, turns)[0].text == "bo — pin: 2222"


def test_a_custom_extractor_sees_each_turn_with_its_key() -> None:
    calls = []

    class Echo:
        name = "echo"

        def extract(self, speaker, text, timestamp, sources):
            calls.append(tuple(sources))
            return [ExtractedFact(speaker, "said", text)]

    deriver = FactDeriver(Echo())
    turns = [stored(5, "bo", "hello"), stored(6, "bo", "bye")]
    (group,) = deriver.groups_of(turns)
    assert deriver.derive(group, turns)[0].text == "bo — said: bye"
    assert set(calls) == {(5,), (6,)}  # each turn read once: extraction is memoised


def fact_of(memory, attribute: str) -> list[tuple[str, tuple[str, ...]]]:
    return [
        (text, sources)
        for group, text, sources in objects(memory, "fact").values()
        if group.endswith(attribute)
    ]


def test_a_newer_value_wins_and_deleting_it_restores_the_older() -> None:
    memory = household(["fact"])
    memory.ingest(
        Turn("t8", "bo", "My address is 9 Elm Road now.", EPISODE, "2026-04-03T09:00", session_id="s4")
    )
    assert fact_of(memory, "address") == [("bo — address: 9 Elm Road now", ("t1", "t8"))]
    memory.delete_turns(["t8"], EPISODE)
    assert fact_of(memory, "address") == [("bo — address: 12 Oak Street", ("t1",))]
    memory.delete_turns(["t1"], EPISODE)
    assert fact_of(memory, "address") == []  # a fact whose sources are all gone is gone
    memory.close()


def test_fact_text_keeps_no_raw_turn_text() -> None:
    memory = household(["fact"])
    texts = {text for _, text, _ in objects(memory, "fact").values()}
    assert "bo — address: 12 Oak Street" in texts
    assert "carla — locker number: 2291" in texts
    assert not any(t.turn.text in text for t in memory.store.turns_by_keys(range(1, 8)) for text in texts)
    memory.close()


def test_deleting_a_secret_leaves_no_trace() -> None:
    check_closure("fact", survivors=False)  # the gate code's only source was the deleted turn


def test_batch_size_changes_no_fact(monkeypatch) -> None:
    check_batch_size_invariance("fact", monkeypatch)


def test_recall_by_design_returns_only_facts() -> None:
    check_recall_by_design("fact")
