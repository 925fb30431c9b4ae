"""Erasure: tokens, tombstones, sentence erasure and label spans carried onto the new text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govmem.governance.erasure import (
    MIN_ITEM_CHARS,
    Erasure,
    Tombstones,
    digest,
    erase,
    longest_tokens,
    moved_spans,
    tokens,
)
from govmem.governance.labeling import sentence_spans

# tokens


@pytest.mark.parametrize("word", ["617-555-0140", "4,800", "bh_temp_4471", "D-4471", "9:30"])
def test_a_value_with_inner_punctuation_is_one_token(word: str) -> None:
    assert tokens(f"call {word} now") == ["call", word.lower(), "now"]


def test_tokens_ignore_case_and_runs_of_whitespace() -> None:
    assert (
        tokens("Pine   LODGE\n\t is  open") == tokens("pine lodge is open") == ["pine", "lodge", "is", "open"]
    )


def test_tokens_drop_trailing_punctuation() -> None:
    assert tokens("The code is 4417.") == ["the", "code", "is", "4417"]
    assert tokens("'pending review',") == ["pending", "review"]


def test_digest_is_of_the_normalised_token_sequence() -> None:
    assert digest(tokens("Pine  Lodge")) == digest(tokens("pine lodge")) == digest(["pine", "lodge"])
    assert digest(["pine", "lodge"]) != digest(["pinelodge"])


# tombstones


def test_of_items_drops_items_shorter_than_the_minimum() -> None:
    short = "x" * (MIN_ITEM_CHARS - 1)
    assert not Tombstones.of_items([short, "12", "", "  ", "!!"])
    kept = Tombstones.of_items([short, "4417"])
    assert kept.entries == frozenset({(1, digest(["4417"]))})


def test_of_items_holds_no_text_and_merges_spellings() -> None:
    stones = Tombstones.of_items(["Pine Lodge", "pine  lodge", "PINE\nLODGE"])
    assert stones.entries == frozenset({(2, digest(["pine", "lodge"]))})
    assert "pine" not in repr(stones).lower()
    assert stones.lengths == {2}


def test_held_by_finds_a_multi_word_item_across_a_line_break_and_case() -> None:
    stones = Tombstones.of_items(["Pine Lodge"])
    assert stones.held_by("We stayed at the PINE\nlodge last year.")
    assert stones.held_by("pine lodge")
    assert not stones.held_by("The pine by the lodge.")


def test_held_by_does_not_match_part_of_a_token() -> None:
    assert not Tombstones.of_items(["617-555-01"]).held_by("Call 617-555-0140 tonight.")
    assert not Tombstones.of_items(["555-0140"]).held_by("Call 617-555-0140 tonight.")
    assert not Tombstones.of_items(["441"]).held_by("The code is 4417.")
    assert Tombstones.of_items(["617-555-0140"]).held_by("Call 617-555-0140.")


def test_empty_tombstones_hold_nothing() -> None:
    stones = Tombstones.of_items([])
    assert not stones
    assert not stones.held_by("anything at all 4417")


def test_longest_tokens_is_one_search_string_per_item() -> None:
    assert longest_tokens(["the old line 617-555-0140", "Pine Lodge", "!!"]) == ["617-555-0140", "lodge"]


# erase

TEXT = "The lobby opens at nine. The gate code is 4417. Parking is behind the clinic.\nBring your card."


def test_erase_removes_exactly_the_sentences_holding_an_item() -> None:
    erasure = erase(TEXT, Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert erasure.text == "The lobby opens at nine. Parking is behind the clinic.\nBring your card."
    assert not erasure.empty


def test_erase_of_several_items_keeps_the_rest_verbatim() -> None:
    erasure = erase(TEXT, Tombstones.of_items(["4417", "YOUR card"]))
    assert erasure is not None
    assert erasure.text == "The lobby opens at nine. Parking is behind the clinic."


def test_erase_returns_none_when_no_sentence_holds_an_item() -> None:
    assert erase(TEXT, Tombstones.of_items(["5512", "Pine Lodge"])) is None
    assert erase(TEXT, Tombstones.of_items(["441"])) is None  # part of a token


def test_erase_returns_an_empty_erasure_when_every_sentence_goes() -> None:
    erasure = erase("The code is 4417. Again: 4417!", Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert erasure.empty and erasure.text == "" and erasure.kept == ()


def test_erase_leaves_no_trailing_whitespace() -> None:
    erasure = erase("Parking is behind the clinic. The code is 4417.  \n", Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert erasure.text == "Parking is behind the clinic."
    erasure = erase("Parking is behind the clinic.\n\nThe code is 4417.", Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert erasure.text == "Parking is behind the clinic."


def test_erase_of_the_first_sentence_starts_at_the_next() -> None:
    erasure = erase("The code is 4417. Parking is behind the clinic.", Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert erasure.text == "Parking is behind the clinic."
    assert erasure.kept == ((18, 47, 0),)


def test_an_item_spanning_a_sentence_break_erases_the_whole_text() -> None:
    erasure = erase("We met at Pine. Lodge rooms were full.", Tombstones.of_items(["Pine Lodge"]))
    assert erasure is not None and erasure.empty


def anyone(sentence: str, clause: str) -> bool:
    return True


def test_erase_keeps_the_plain_clauses_beside_a_forgotten_code() -> None:
    text = "No early switch is planned. The rule stays keypad 2745 before 10:05 AM, desk buzz after 10:05 AM."
    whole = erase(text, Tombstones.of_items(["2745"]))  # not told which clauses speak of no one
    assert whole is not None and whole.text == "No early switch is planned." and whole.cut == ()
    erasure = erase(text, Tombstones.of_items(["2745"]), anyone)
    assert erasure is not None
    assert erasure.text == "No early switch is planned. desk buzz after 10:05 AM."
    assert erasure.cut == ((28, len(text)),)  # the sentence cut in part, in old offsets
    for old_start, old_end, new_start in erasure.kept:
        assert erasure.text[new_start : new_start + old_end - old_start] == text[old_start:old_end]


@pytest.mark.parametrize(
    "text",
    [
        "I am deleting 2745, den credenza lower drawer, and 6:40 AM from shared memory.",  # a list
        "Please remove 2745, and keep 9:10 AM as the start.",
        "SOL-2745 is retired, and the new badge is SOL-9214.",  # a code beside it
        "The code 2745 is retired, the phrase is 'blue heron' at 9 AM.",  # a phrase beside it
        "The old code 2745 is gone, Derek.",  # nothing plain is left to keep
        "Noted, 2745 is gone.",
        "The side den keypad is 2745, the last two digits 45 match the old shed lock.",
        "The spare key is 2745, 3 steps left of the side gate.",
        "Garage keypad 2745 for Friday, we are out from 9 AM to 8 PM.",  # whereabouts
        "My restricted Thursday note: 5:55 PM, east rideshare curb bay 3.",  # a time forgotten
        "Pickup phrase 'linden fold', valid after 5:40 PM, Gabe at curb 2.",
        "The keypad is 2745, last two digits 45 work after 10:05 AM.",
        "The gate code is 2745, kids at school until 3:00 PM.",
    ],
)
def test_a_clause_beside_a_forgotten_item_goes_with_it_unless_it_is_a_plain_time(text: str) -> None:
    erasure = erase(text, Tombstones.of_items(["2745", "SOL-2745", "5:55 PM", "linden fold"]), anyone)
    assert erasure is not None and erasure.empty and erasure.cut == ()


def test_a_clause_naming_someone_takes_its_sentence() -> None:
    """Labelled again later on its own, the kept clause would lose whose it was."""
    text = "Leah's keypad 2745 works before 10:05 AM, desk buzz after 10:05 AM."
    erasure = erase(text, Tombstones.of_items(["2745"]), lambda sentence, clause: "Leah" not in clause)
    assert erasure is not None and erasure.empty


def test_an_item_spanning_a_clause_break_takes_its_sentence() -> None:
    erasure = erase(
        "The date is Saturday, November 7, at 9 AM. Bring tea.", Tombstones.of_items(["Saturday, November 7"])
    )
    assert erasure is not None and erasure.text == "Bring tea."


def test_kept_maps_old_stretches_onto_the_new_text() -> None:
    erasure = erase(TEXT, Tombstones.of_items(["4417"]))
    assert erasure is not None
    for old_start, old_end, new_start in erasure.kept:
        assert erasure.text[new_start : new_start + old_end - old_start] == TEXT[old_start:old_end]


# moved_spans


def test_moved_spans_keep_each_kept_sentence_s_label() -> None:
    first, second, third = "Ada takes warfarin daily. ", "The gate code is 4417. ", "Parking is behind."
    text = first + second + third
    a, b = len(first), len(first) + len(second)
    spans = [(0, a, 7), (a, b, 8), (b, len(text), 9)]
    erasure = erase(text, Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert erasure.text == first + third
    moved = moved_spans(spans, erasure)
    assert moved == [(0, a, 7), (a, a + len(third), 9)]
    labelled = {label: erasure.text[start:end] for start, end, label in moved}
    assert labelled == {7: first, 9: third}


def test_moved_spans_merge_adjacent_pieces_of_one_label() -> None:
    text = "One fact here. The code is 4417. Another fact here."
    spans = [(0, 15, 3), (15, 33, 4), (33, len(text), 3)]
    erasure = erase(text, Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert moved_spans(spans, erasure) == [(0, len(erasure.text), 3)]


def test_moved_spans_clip_a_span_crossing_an_erased_sentence() -> None:
    text = "Ada takes warfarin daily. The gate code is 4417. Parking is behind."
    spans = [(0, 30, 5), (30, len(text), 6)]  # label 5 runs into the erased sentence
    erasure = erase(text, Tombstones.of_items(["4417"]))
    assert erasure is not None
    assert moved_spans(spans, erasure) == [(0, 26, 5), (26, len(erasure.text), 6)]


def test_moved_spans_of_an_empty_erasure_are_empty() -> None:
    assert moved_spans([(0, 10, 1)], Erasure("", ())) == []


# property

WORDS = ["gate", "code", "lodge", "pine", "4417", "617-555-0140", "blue", "heron", "the", "is", "at"]
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(
    lambda ws: " ".join(ws).capitalize() + "."
)
items = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=2).map(" ".join), min_size=1, max_size=3
)
separator = st.sampled_from([" ", "  ", "\n", " \n"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(sentence, separator), min_size=1, max_size=6), items)
def test_erased_text_never_holds_an_item_and_keeps_sentences_verbatim(
    parts: list[tuple[str, str]], forgotten: list[str]
) -> None:
    text = "".join(s + sep for s, sep in parts).rstrip()
    stones = Tombstones.of_items(forgotten)
    erasure = erase(text, stones)
    if erasure is None:
        assert not stones.held_by(text)
        return
    assert not stones.held_by(erasure.text)
    assert erasure.text == erasure.text.rstrip()
    originals = [text[s:e] for s, e in sentence_spans(text)]
    for old_start, old_end, new_start in erasure.kept:
        piece = text[old_start:old_end]
        assert erasure.text[new_start : new_start + len(piece)] == piece
        assert piece.rstrip() in {o.rstrip() for o in originals}
        assert not stones.held_by(piece)
    assert sum(e - s for s, e, _ in erasure.kept) == len(erasure.text)
    kept_sentences = {text[s:e].rstrip() for s, e, _ in erasure.kept}
    for original in originals:  # a sentence not holding an item is kept unless the whole text went
        if not stones.held_by(original) and not erasure.empty:
            assert original.rstrip() in kept_sentences
