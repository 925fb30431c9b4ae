"""Forgetting through ``Memory``: ``forget`` and deletion requests read from ingested turns.

After forgetting, no row of the store (objects, full-text index and its shadow
tables, turns, governance events, tombstones) holds an item; the other sentences
of a changed turn survive verbatim with their labels; later turns are stored
without the sentences that hold a forgotten item.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from conftest import DEMO_EPISODE_ID, DEMO_PATH, dump_tables
from designs.derived_checks import objects, rows_with
from govmem import Memory, Principal, Turn, read_episodes
from govmem.errors import InputError, UnknownPrincipal
from govmem.governance.erasure import digest, tokens
from govmem.governance.labeling import said_by
from small_clinic import small_clinic
from small_household import household as small_home

EPISODE = "home"
CODE = "4417"
LINE = "617-555-0140"
DINNER = "Dinner is at seven on Friday."
WINDOW = "I prefer the window seat on trains."
HOME = [
    Turn("t1", "ana", f"The gate code is {CODE}. {DINNER}", EPISODE, "2026-03-09T09:00", session_id="s1"),
    Turn("t2", "bo", f"My backup line is {LINE}.", EPISODE, "2026-03-09T09:05", session_id="s1"),
    Turn("t3", "carla", WINDOW, EPISODE, "2026-04-02T10:00", session_id="s2"),
]
REQUEST = "Please delete the old gate code 4417 from memory."


def household(turns: list[Turn] = HOME, path: str = ":memory:", **options) -> Memory:
    memory = Memory(path, **options)
    memory.add_principals(
        [Principal("ana", "member"), Principal("bo", "member"), Principal("carla", "member")]
    )
    memory.ingest_many(turns)
    return memory


def texts(memory: Memory, episode_id: str = EPISODE) -> dict[str, str]:
    rows = memory.store.db.execute("SELECT turn_id, text FROM turns WHERE episode_id = ?", (episode_id,))
    return dict(rows)


def sha(item: str) -> str:
    return hashlib.sha256(" ".join(tokens(item)).encode()).hexdigest()


def deletions(memory: Memory) -> list[dict]:
    return [event for event in memory.governance_events() if event["kind"] == "deletion"]


# Memory.forget


def test_forget_leaves_no_row_holding_an_item() -> None:
    with household() as memory:
        assert rows_with(memory, CODE) and rows_with(memory, LINE)
        memory.forget([CODE, LINE], EPISODE, requested_by="ana", kinds=["code", "phone number"])
        for needle in (CODE, LINE, "555-0140"):
            assert rows_with(memory, needle) == [], needle
        assert memory.store.lexical_search(f'"{CODE}"', 10, None, None) == []


def test_forget_keeps_other_sentences_verbatim_and_deletes_an_emptied_turn() -> None:
    with household() as memory:
        memory.forget([CODE, LINE], EPISODE)
        assert texts(memory) == {"t1": DINNER, "t3": WINDOW}  # t2 held only the line
        assert memory.store.turn_keys(EPISODE, ["t2"]) == {}


def test_forget_leaves_objects_of_untouched_turns_alone() -> None:
    with household() as memory:
        before = {kind: objects(memory, kind) for kind in ("turn", "session")}
        memory.forget([CODE, LINE], EPISODE)
        after = {kind: objects(memory, kind) for kind in ("turn", "session")}
        for kind in ("turn", "session"):
            untouched = {key: obj for key, obj in before[kind].items() if "t1" not in obj[2]}
            untouched = {key: obj for key, obj in untouched.items() if "t2" not in obj[2]}
            assert untouched, kind
            assert {key: after[kind].get(key) for key in untouched} == untouched  # same keys and texts
        assert [(text, sources) for _, text, sources in after["turn"].values()] == [
            (WINDOW, ("t3",)),
            (DINNER, ("t1",)),
        ]
        (window,) = [text for _, text, sources in after["session"].values() if sources == ("t1",)]
        assert window.endswith(f"ana: {DINNER}")  # derived again from what is left of s1


def test_the_deletion_event_and_tombstones_hold_only_digests() -> None:
    with household() as memory:
        memory.forget(
            [CODE, f"  {LINE.upper()} "], EPISODE, requested_by="ana", kinds=["code", "phone number"]
        )
        (event,) = deletions(memory)
        assert event["source"] == "api"
        assert event["payload"] == {
            "items_sha256": sorted([sha(CODE), sha(LINE)]),
            "kinds": ["code", "phone number"],
            "episode_id": EPISODE,
            "requested_by": "ana",
        }
        assert all(re.fullmatch(r"[0-9a-f]{64}", d) for d in event["payload"]["items_sha256"])
        entries, kinds = memory.store.tombstones(EPISODE)
        assert entries == {(1, digest([CODE])), (1, digest([LINE]))}
        assert kinds == {"code", "phone number"}
        stored = memory.store.db.execute("SELECT words, digest, episode_id, kinds FROM tombstones")
        listed = json.dumps(["code", "phone number"])
        assert sorted(stored) == sorted((1, d, EPISODE, listed) for d in (sha(CODE), sha(LINE)))


def test_forget_matches_a_multi_word_item_in_any_case_and_spacing() -> None:
    turns = [Turn("t1", "ana", "We stayed at PINE   lodge in May. The lake was cold.", EPISODE)]
    with household(turns) as memory:
        memory.forget(["Pine Lodge"], EPISODE)
        assert texts(memory) == {"t1": "The lake was cold."}


def test_forget_through_a_turn_erases_only_up_to_it() -> None:
    turns = [*HOME, Turn("t4", "ana", f"Still {CODE} at the gate. Bring a coat.", EPISODE, session_id="s2")]
    with household(turns) as memory:
        memory.forget([CODE], EPISODE, through_turn="t2")
        assert texts(memory)["t1"] == DINNER
        assert CODE in texts(memory)["t4"]  # said after the request's turn


def test_forget_is_confined_to_its_episode() -> None:
    turns = [*HOME, Turn("t1", "ana", f"The shed code is {CODE}.", "cabin")]
    with household(turns) as memory:
        memory.forget([CODE], EPISODE)
        assert texts(memory, "cabin") == {"t1": f"The shed code is {CODE}."}
        assert CODE not in " ".join(texts(memory).values())


def test_forget_on_a_file_store_clears_the_full_text_index(tmp_path: Path) -> None:
    with Memory(str(tmp_path / "demo.db"), policy="medical") as memory:
        memory.ingest_episodes(read_episodes(DEMO_PATH))
        assert rows_with(memory, "V-2207")
        memory.forget(["V-2207"], DEMO_EPISODE_ID)
        assert rows_with(memory, "V-2207") == [] and rows_with(memory, "2207") == []
        (voucher,) = memory.store.db.execute("SELECT text FROM turns WHERE turn_id = 't037'")
        assert voucher == ("Show it at the P2 exit gate.",)


def test_recall_after_forgetting_returns_nothing_holding_the_item() -> None:
    with household() as memory:
        assert any(CODE in item.text for item in memory.recall("ana", f"gate code {CODE}").items)
        memory.forget([CODE], EPISODE)
        result = memory.recall("ana", f"what is the gate code {CODE}?", k=20)
        assert result.items  # dinner and the rest remain
        assert not any(CODE in item.text for item in result.items)
        assert not any(CODE in item.text for item in memory.export("ana"))


def test_forget_finds_an_item_with_a_non_ascii_capital() -> None:
    turns = [Turn("t1", "ana", "We meet at Éclair Café on Friday. Bring snacks.", EPISODE)]
    with household(turns) as memory:
        memory.forget(["Éclair Café"], EPISODE)
        assert texts(memory) == {"t1": "Bring snacks."}


# labels survive erasure

WARFARIN = "Ada takes warfarin 5 mg daily."
PARKING = "Parking is in the garage behind the lobby."
GATE = f"The side gate code is {CODE}."


def test_kept_sentences_keep_their_labels() -> None:
    # The erased sentence comes first: labels left at their old offsets would put
    # the parking remark's (public) label over the medication sentence.
    turn = Turn("t1", "lee", f"{GATE} {PARKING} {WARFARIN}", timestamp="2024-03-01T09:05:00")
    with small_clinic([turn]) as clinic:
        before = {label for _, _, label in clinic.store.turn_spans([1])[1][2]}
        assert len(before) == 3
        clinic.forget([CODE], requested_by="lee")

        ((_, text, spans),) = clinic.store.turn_spans([1]).values()
        assert text == f"{PARKING} {WARFARIN}"
        facets = clinic.engine.labels
        by_sentence = {text[start:end].strip(): facets[label] for start, end, label in spans}
        assert by_sentence[WARFARIN] == {("ada", "medication"), said_by("lee")}
        assert ("ada", "medication") not in by_sentence[PARKING]

        for outsider in ("kit", "fay", "rex"):
            seen = [item.text for item in clinic.export(outsider)]
            assert any(PARKING in t for t in seen), outsider
            assert not any("warfarin" in t for t in seen), outsider
            answer = clinic.recall(outsider, "which blood thinner does Ada take? warfarin", k=10)
            assert not any("warfarin" in item.text for item in answer.items), outsider
        treating = [item.text for item in clinic.export("lee")]
        assert any(WARFARIN in t for t in treating)
        assert not any(CODE in t for t in treating)


# deletion requests read from ingested turns


def test_a_request_erases_earlier_turns_and_itself() -> None:
    turns = [
        HOME[0],
        Turn("t2", "bo", f"{REQUEST} Thanks for the invite.", EPISODE, "2026-03-09T09:05", session_id="s1"),
        Turn("t3", "carla", "Dinner sounds good.", EPISODE, "2026-03-09T09:06", session_id="s1"),
    ]
    with household(turns) as memory:
        assert texts(memory) == {"t1": DINNER, "t2": "Thanks for the invite.", "t3": "Dinner sounds good."}
        assert rows_with(memory, CODE) == []
        (event,) = deletions(memory)
        assert event["source"] == "interpreter"
        assert event["payload"]["requested_by"] == "bo"
        assert event["payload"]["items_sha256"] == [sha(CODE)]
        assert event["payload"]["kinds"] == ["code"]
        assert memory.store.tombstones(EPISODE)[1] == {"code"}


def test_a_request_turn_holding_only_the_request_is_not_kept() -> None:
    turns = [HOME[0], Turn("t2", "bo", REQUEST, EPISODE, "2026-03-09T09:05", session_id="s1")]
    with household(turns) as memory:
        assert texts(memory) == {"t1": DINNER}
        assert rows_with(memory, CODE) == []


def test_a_turn_after_the_request_in_the_same_call_is_stored_without_the_item() -> None:
    turns = [
        Turn("t1", "bo", REQUEST, EPISODE, "2026-03-09T09:05", session_id="s1"),
        Turn("t2", "ana", f"Noted, {CODE} is gone. See you at seven.", EPISODE, session_id="s1"),
    ]
    with household(turns) as memory:
        assert texts(memory) == {"t2": "See you at seven."}
        assert rows_with(memory, CODE) == []


def test_later_calls_store_no_sentence_holding_a_forgotten_item(tmp_path: Path) -> None:
    path = str(tmp_path / "home.db")
    turns = [HOME[0], Turn("t2", "bo", REQUEST, EPISODE, "2026-03-09T09:05", session_id="s1")]
    with household(turns, path) as memory:
        memory.ingest_many(
            [Turn("t3", "carla", f"Is the gate code still {CODE}? The bins go out on Monday.", EPISODE)]
        )
        assert texts(memory)["t3"] == "The bins go out on Monday."
        memory.ingest_many([Turn("t4", "ana", f"{CODE}", EPISODE, session_id="s1")])  # nothing left
        assert "t4" not in texts(memory)
        assert rows_with(memory, CODE) == []
    with Memory(path) as reopened:  # the tombstones are in the store, not the object
        reopened.ingest_many([Turn("t1b", "ana", HOME[0].text, EPISODE, session_id="s9")])
        assert texts(reopened)["t1b"] == DINNER
        assert rows_with(reopened, CODE) == []
        result = reopened.recall("ana", f"gate code {CODE}", k=20)
        assert not any(CODE in item.text for item in result.items)


def test_no_interpreter_no_action_on_requests() -> None:
    turns = [HOME[0], Turn("t2", "bo", REQUEST, EPISODE, "2026-03-09T09:05", session_id="s1")]
    with household(turns, interpreter=None) as memory:
        assert texts(memory) == {"t1": HOME[0].text, "t2": REQUEST}
        assert deletions(memory) == []
        assert memory.store.tombstones(EPISODE) == (frozenset(), frozenset())


# errors change nothing


@pytest.fixture
def home():
    with household() as memory:
        yield memory


def test_forget_with_only_too_short_items_raises(home: Memory) -> None:
    before = dump_tables(home)
    with pytest.raises(InputError, match="nothing to forget"):
        home.forget(["ab", "7", "  "], EPISODE)
    assert dump_tables(home) == before


def test_forget_through_an_unknown_turn_raises_naming_it(home: Memory) -> None:
    before = dump_tables(home)
    with pytest.raises(InputError, match="t99"):
        home.forget([CODE], EPISODE, through_turn="t99")
    assert dump_tables(home) == before


def test_forget_by_an_unknown_principal_raises(home: Memory) -> None:
    before = dump_tables(home)
    with pytest.raises(UnknownPrincipal) as raised:
        home.forget([CODE], EPISODE, requested_by="mallory")
    assert raised.value.principal_id == "mallory"
    assert dump_tables(home) == before
    assert CODE in texts(home)["t1"]


# a sentence cut in part

PLAIN_BESIDE_CODE = (
    "Leah has the studio this week. Keypad 2745 works before 10:05 AM, desk buzz after 10:05 AM."
)
HOUSE = {
    "mara": ("primary_resident", "Mara Chen"),
    "leah": ("adult_child", "Leah Chen"),
    "noah": ("guest", "Noah Kim"),
}


@pytest.mark.parametrize("request_first", [False, True])
def test_what_is_kept_of_a_sentence_cut_in_part_is_still_whose_it_was(request_first: bool) -> None:
    """The kept clause names no one: labelled on its own it would be no one's, and a guest
    would read Leah's schedule. It keeps the label of the sentence it was cut from, and
    is labelled the same again when the store is relabelled (the erased clause named no
    one: a clause naming someone takes its sentence, see test_erasure)."""
    said = [("mara", PLAIN_BESIDE_CODE), ("mara", "Please delete 2745 from active memory.")]
    memory = small_home(HOUSE, said[::-1] if request_first else said, "2026-03-09T09:00:00")
    keys = memory.store.turn_keys("default", ["t0", "t1"])
    spans = memory.store.turn_spans(list(keys.values()))
    ((_, text, cut),) = [spans[key] for key in keys.values() if key in spans]
    assert text == "Leah has the studio this week. desk buzz after 10:05 AM."
    stretches = {text[s:e].strip(): memory.engine.labels[label] for s, e, label in cut}
    assert {s for s, t in stretches["desk buzz after 10:05 AM."] if not t.startswith("said_by")} == {"leah"}
    assert "desk buzz" not in memory.recall("noah", "When is the desk buzz?", k=10).context()
    assert "desk buzz" in memory.recall("mara", "When is the desk buzz?", k=10).context()
    memory.relabel()
    assert "desk buzz" not in memory.recall("noah", "When is the desk buzz?", k=10).context()
    memory.close()


@pytest.mark.parametrize(
    "sentence",
    [
        "Private note 'interview', 7:20 PM to 7:50 PM.",  # private: labelled alone, the time would not be
        "Keypad 2745 during the trip, desk after 10:15 AM.",  # absence
        "Leah's keypad 2745 before 10:05 AM, desk buzz after 10:05 AM.",  # names whose it is
    ],
)
def test_a_sentence_whose_rest_would_be_labelled_otherwise_goes_whole(sentence: str) -> None:
    """A relabel (after new principals, say) labels what is kept on its own: the erased
    clause must not have given the rest a subject or a tag."""
    from govmem.governance.erasure import Tombstones, erase

    memory = small_home(HOUSE, [], "2026-03-09T09:00:00")
    erasure = erase(sentence, Tombstones.of_items(["2745", "interview"]), memory.labeler().erasable_apart)
    assert erasure is not None and erasure.empty
    memory.close()


def test_a_phrase_deleted_in_two_plain_words_leaves_no_row() -> None:
    """A request of "Delete that temporary backup phrase now. Remove rowan ash from active memory.":
    the phrase goes from the turn that gave it, the request and the acknowledgement."""
    turns = [
        Turn("t1", "ana", "The temporary backup phrase is rowan ash. " + DINNER, EPISODE, "2026-03-09T09:00"),
        Turn(
            "t2",
            "ana",
            "Delete that temporary backup phrase now. Remove rowan ash from active memory.",
            EPISODE,
            "2026-03-09T09:05",
        ),
        Turn(
            "t3", "bo", "Deletion logged: rowan ash removed. Photo match only.", EPISODE, "2026-03-09T09:06"
        ),
    ]
    with household(turns) as memory:
        assert rows_with(memory, "rowan ash") == []
        assert texts(memory)["t1"] == DINNER and texts(memory)["t3"] == "Photo match only."
