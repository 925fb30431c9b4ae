"""Summary memory: session, day and monthly profile summaries over every turn of their group."""

from __future__ import annotations

import pytest
from derived_checks import (
    EPISODE,
    HOME,
    check_batch_size_invariance,
    check_closure,
    check_recall_by_design,
    household,
    objects,
    stored,
)

from govmem.designs import SummaryDeriver
from govmem.designs.base import group_id_of, parts_of
from govmem.designs.writers import ExtractiveSummaryWriter, clip, sentences


@pytest.mark.parametrize("parts", [("ep", "s1"), ("a/b:c", "2:x", ""), ("e", "p1", "2026-03")])
def test_group_ids_round_trip(parts: tuple[str, ...]) -> None:
    assert parts_of(group_id_of("day", *parts)) == ("day", list(parts))


def test_groups_are_session_day_and_profile() -> None:
    dated = stored(1, "ana", "Hello.", "2026-03-09T09:00")
    undated = stored(2, "bo", "Hi.", None, session="undated")
    assert sorted(parts_of(g) for g in SummaryDeriver().groups_of([dated, undated])) == [
        ("day", [EPISODE, "2026-03-09"]),
        ("profile", [EPISODE, "ana", "2026-03"]),
        ("profile", [EPISODE, "bo", "undated"]),  # an undated turn has no day, and an undated month
        ("session", [EPISODE, "s1"]),
        ("session", [EPISODE, "undated"]),
    ]


def test_sentences_keep_titles() -> None:
    assert sentences("Dr. Lee saw Ana. She is fine! Next visit? Friday.") == [
        "Dr. Lee saw Ana.",
        "She is fine!",
        "Next visit?",
        "Friday.",
    ]
    assert clip("one two three four", 12) == "one two…"


def test_extractive_summary_keeps_the_best_sentences_in_order() -> None:
    lines = [
        "ana: Okay.",
        "bo: The Falcon budget review moved to Friday at 10:00 in room 4.",
        "ana: Thanks.",
        "bo: The Falcon budget needs a 10 percent cut before Friday.",
        "ana: Nice weather today.",
        "bo: Sure.",
    ]
    text = ExtractiveSummaryWriter(max_lines=2).summarize("Summary:", lines, [1, 2, 3, 4, 5, 6])
    assert text == (
        "Summary:\n"
        "bo: The Falcon budget review moved to Friday at 10:00 in room 4.\n"
        "bo: The Falcon budget needs a 10 percent cut before Friday."
    )
    assert ExtractiveSummaryWriter().summarize("Summary:", ["ana: Okay."], [1]) == "Summary:\nana: Okay."
    with pytest.raises(ValueError):
        ExtractiveSummaryWriter(max_lines=0)


def test_derive_is_deterministic_and_bounded() -> None:
    turns = [
        stored(k, "ana" if k % 2 else "bo", f"Note {k}: restock saline in cabinet {k}.", "2026-03-09T09:00")
        for k in range(1, 40)
    ]
    group = group_id_of("session", EPISODE, "s1")
    (draft,) = SummaryDeriver().derive(group, turns)
    assert SummaryDeriver().derive(group, turns) == [draft]
    lines = draft.text.split("\n")
    assert lines[0] == "Summary of session s1 (2026-03-09):"
    assert len(lines) == 5  # the title and four sentences
    assert draft.source_keys == tuple(range(1, 40))  # every turn the choice depended on
    assert draft.kind == "summary" and draft.embed_text and draft.observed_at == "2026-03-09T09:00"
    assert SummaryDeriver().derive(group, []) == []


def test_sources_are_every_turn_of_the_group_and_text_comes_from_them() -> None:
    memory = household(["summary"])
    by_id = {t.turn_id: t for t in HOME}
    titles = set()
    for group, text, sources in objects(memory, "summary").values():
        prefix, parts = parts_of(group)
        if prefix == "session":
            expected = {t.turn_id for t in HOME if t.session_id == parts[1]}
        elif prefix == "day":
            expected = {t.turn_id for t in HOME if t.timestamp[:10] == parts[1]}
        else:
            expected = {t.turn_id for t in HOME if t.speaker == parts[1] and t.timestamp[:7] == parts[2]}
        assert set(sources) == expected
        title, *body = text.split("\n")
        titles.add(title)
        for line in body:
            speaker, _, sentence = line.partition(": ")
            assert any(by_id[s].speaker == speaker and sentence in by_id[s].text for s in sources)
    assert {
        "Summary of session s1 (2026-03-09):",
        "Summary of 2026-03-10 in home:",
        "Profile of ana, 2026-04:",
    } <= titles
    memory.close()


def test_profile_holds_only_the_principals_own_statements() -> None:
    memory = household(["summary"])
    (profile,) = [
        text
        for group, text, _ in objects(memory, "summary").values()
        if parts_of(group)[1][1:] == ["bo", "2026-03"]
    ]
    assert profile.split("\n") == [
        "Profile of bo, 2026-03:",
        "bo: My address is 12 Oak Street.",
        "bo: I moved to Porto last spring.",
        "bo: My dentist appointment is on Tuesday at 9:30 am.",
    ]
    memory.close()


def test_deleting_a_secret_leaves_no_trace() -> None:
    check_closure("summary")


def test_batch_size_changes_no_summary(monkeypatch) -> None:
    check_batch_size_invariance("summary", monkeypatch)


def test_recall_by_design_returns_only_summaries() -> None:
    check_recall_by_design("summary")
