"""The Memory API: provenance, all-or-nothing writes, closure on delete, recall inputs."""

from __future__ import annotations

import json

import numpy as np
import pytest

import govmem.api.memory as memory_module
from govmem import (
    DuplicateTurn,
    EmbedderError,
    InputError,
    Memory,
    Principal,
    Relationship,
    Turn,
    UnknownPrincipal,
    WriteReport,
    read_episodes,
)
from govmem.read_path.recall import MAX_K, MAX_QUERY_CHARS
from govmem.retrieval.lexical import match_expression
from govmem.store.schema import LATEST_VERSION
from govmem.validation import MAX_TURN_CHARS

EPISODE = "demo_maple_clinic"
T037 = "For Thursday I'll give you a full-day validation voucher, number V-2207. Show it at the P2 exit gate."


def objects_by_key(memory: Memory) -> dict[int, tuple]:
    keys = [row[0] for row in memory.store.db.execute("SELECT object_key FROM objects")]
    return {key: (o.kind, o.text, o.sources) for key, o in memory.store.get_objects(keys).items()}


def new_turns(n: int, speaker: str = "nurse_quinn") -> list[Turn]:
    return [
        Turn(
            f"n{i}", speaker, f"Supply note {i}: restock saline in cabinet {i}.", EPISODE, "2026-03-13T09:00"
        )
        for i in range(n)
    ]


# 1. provenance


def test_derived_from_returns_the_turn_and_its_session_window(memory: Memory) -> None:
    objects = memory.derived_from("agent_maplecare", "t018", EPISODE)
    assert sorted(o.kind for o in objects) == ["session", "turn"]
    (turn_object,) = [o for o in objects if o.kind == "turn"]
    (window,) = [o for o in objects if o.kind == "session"]
    assert turn_object.sources == ("t018",)
    assert turn_object.text.startswith("Clinical note for Lena Okafor")
    assert window.sources == tuple(f"t{i:03d}" for i in range(13, 22))
    assert turn_object.text in window.text
    assert {o.episode_id for o in objects} == {EPISODE}


def test_derived_from_on_a_multi_episode_store(two_episodes: Memory) -> None:
    mine = two_episodes.derived_from("agent_maplecare", "t018", EPISODE)
    theirs = two_episodes.derived_from("agent_maplecare", "t018", "demo_copy")
    assert {o.episode_id for o in mine} == {EPISODE}
    assert {o.episode_id for o in theirs} == {"demo_copy"}
    assert {o.object_id for o in mine}.isdisjoint(o.object_id for o in theirs)
    assert sorted((o.kind, o.text, o.sources) for o in mine) == sorted(
        (o.kind, o.text, o.sources) for o in theirs
    )


def test_derived_from_unknown_turn(memory: Memory) -> None:
    with pytest.raises(InputError, match="no turn 't999' in episode"):
        memory.derived_from("agent_maplecare", "t999", EPISODE)
    with pytest.raises(InputError):
        memory.derived_from("agent_maplecare", "t018", "other_episode")


# 2. all-or-nothing ingest through the API


def test_duplicate_of_a_stored_turn_mid_batch_stores_nothing(memory: Memory, snapshot) -> None:
    before = snapshot(memory)
    batch = [*new_turns(3), Turn("t005", "nurse_quinn", "a clash", EPISODE), *new_turns(6)[3:]]
    with pytest.raises(DuplicateTurn) as info:
        memory.ingest_many(batch)
    assert info.value.episode_id == EPISODE
    assert snapshot(memory) == before


def test_duplicate_turn_error_names_the_duplicate(memory: Memory) -> None:
    batch = [*new_turns(3), Turn("t005", "nurse_quinn", "a clash", EPISODE)]
    with pytest.raises(DuplicateTurn, match="'t005'"):
        memory.ingest_many(batch)


def test_duplicate_within_a_batch_stores_nothing(memory: Memory, snapshot) -> None:
    before = snapshot(memory)
    batch = [*new_turns(3), Turn("n1", "nurse_quinn", "again", EPISODE)]
    with pytest.raises(DuplicateTurn, match="'n1'"):
        memory.ingest_many(batch)
    assert snapshot(memory) == before


def test_unknown_speaker_mid_batch_stores_nothing(memory: Memory, snapshot) -> None:
    before = snapshot(memory)
    batch = [*new_turns(3), Turn("x1", "stranger", "hello", EPISODE), *new_turns(6)[3:]]
    with pytest.raises(UnknownPrincipal, match=r"'stranger'.*'x1'") as info:
        memory.ingest_many(batch)
    assert info.value.principal_id == "stranger"
    assert snapshot(memory) == before


def test_oversized_text_is_refused_naming_the_turn(memory: Memory, snapshot) -> None:
    before = snapshot(memory)
    batch = [*new_turns(2), Turn("huge", "nurse_quinn", "x" * (MAX_TURN_CHARS + 1), EPISODE)]
    with pytest.raises(InputError, match=rf"turn 'huge'.*{MAX_TURN_CHARS + 1}.*limit is {MAX_TURN_CHARS}"):
        memory.ingest_many(batch)
    assert snapshot(memory) == before


def test_text_at_the_limit_is_accepted(memory: Memory) -> None:
    report = memory.ingest(Turn("big", "nurse_quinn", "word " * (MAX_TURN_CHARS // 5), EPISODE))
    assert report.turns == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"turn_id": "m1", "speaker": "nurse_quinn"}, "missing or empty 'text'"),
        ({"turn_id": "m1", "speaker": "nurse_quinn", "text": "   "}, "missing or empty 'text'"),
        ({"speaker": "nurse_quinn", "text": "hi"}, "missing or empty 'turn_id'"),
        ({"turn_id": "m1", "text": "hi"}, "missing or empty 'speaker'"),
        ({"turn_id": "m1", "speaker": "nurse_quinn", "text": "hi", "timestamp": "soon"}, "not an ISO 8601"),
        ({"turn_id": "m1", "speaker": "nurse_quinn", "text": "hi", "session_id": 7}, "'session_id' must be"),
        ("just a string", "must be a Turn or a mapping"),
    ],
)
def test_invalid_turns_store_nothing(memory: Memory, snapshot, bad, message: str) -> None:
    before = snapshot(memory)
    with pytest.raises(InputError, match=message):
        memory.ingest_many([*new_turns(2), bad])
    assert snapshot(memory) == before


def test_mappings_are_accepted_in_flat_and_gatemem_shape(memory: Memory) -> None:
    report = memory.ingest_many(
        [
            {"turn_id": "f1", "speaker": "nurse_quinn", "text": "Flat turn.", "episode_id": EPISODE},
            {
                "turn_id": "g1",
                "speaker": {"principal_id": "nurse_quinn", "role": "nurse"},
                "text": "GateMem turn.",
                "turn_kind": "note_update",
                "timestamp": "2026-03-13T10:00:00+02:00",
                "episode_id": EPISODE,
            },
        ]
    )
    assert report.turns == 2
    assert report.turn_ids == ["f1", "g1"]
    (obj,) = [o for o in memory.derived_from("agent_maplecare", "g1", EPISODE) if o.kind == "turn"]
    assert obj.observed_at == "2026-03-13T08:00:00"  # normalised to UTC
    stored = memory.store.turns_by_keys(memory.store.turn_keys(EPISODE, ["g1"]).values())
    assert stored[0].turn.kind == "note_update"


def test_reingesting_an_episode_rolls_back_its_principals_too(
    memory: Memory, snapshot, episode_record, jsonl_file
):
    record = episode_record()
    record["entities"]["principals"][0]["role"] = "changed_role"
    record["entities"]["principals"].append({"principal_id": "newcomer", "role": "nurse"})
    before = snapshot(memory)
    with pytest.raises(DuplicateTurn):
        memory.ingest_episodes(read_episodes(jsonl_file("again.jsonl", [record])))
    assert snapshot(memory) == before
    assert memory.store.get_principal("newcomer") is None


def test_empty_ingest(memory: Memory, snapshot) -> None:
    before = snapshot(memory)
    assert memory.ingest_many([]) == WriteReport()
    assert snapshot(memory) == before


# 5. closure on delete


def test_delete_removes_the_turn_and_rederives_its_windows(memory: Memory) -> None:
    memory.retriever.index  # noqa: B018 - loaded, so the incremental update is exercised
    before = objects_by_key(memory)
    (turn_key,) = memory.store.turn_keys(EPISODE, ["t037"]).values()
    touched = {key for key, _, _ in memory.store.objects_derived_from([turn_key])}

    report = memory.delete_turns(["t037"], EPISODE)

    after = objects_by_key(memory)
    assert report.turns == 1
    assert report.turn_ids == ["t037"]
    assert memory.store.turn_keys(EPISODE, ["t037"]) == {}
    gone = before.keys() - after.keys()
    fresh = after.keys() - before.keys()
    assert gone >= touched
    # only windows of the same session are re-derived; every other object keeps its key and content
    assert all(before[key][0] == "session" or key in touched for key in gone)
    for key in before.keys() & after.keys():
        assert after[key] == before[key]
    assert {after[key][0] for key in fresh} == {"session"}
    assert report.objects_removed == len(gone)
    assert report.objects_added == len(fresh)
    # the new windows cover exactly the surviving turns of 10 March after the first window
    new_sources = sorted(source for key in fresh for source in after[key][2])
    assert new_sources == [f"t{i:03d}" for i in range(34, 47) if i != 37]
    for key in fresh:
        assert T037 not in after[key][1]
        assert "V-2207" not in after[key][1]
    assert not any("t037" in sources for _, _, sources in after.values())

    # full-text search no longer matches the deleted text
    for word in ("voucher", "2207"):
        assert memory.store.lexical_search(match_expression(word), 50, None, None) == []
    full_text_index_is_consistent(memory)
    result = memory.recall("nurse_quinn", "full-day validation voucher V-2207", k=50)
    assert all("V-2207" not in item.text and "t037" not in item.sources for item in result.items)
    with pytest.raises(InputError):
        memory.derived_from("agent_maplecare", "t037", EPISODE)


def test_delete_several_turns_across_sessions(memory: Memory) -> None:
    memory.delete_turns(["t001", "t030", "t063"], EPISODE)
    counts = memory.stats()["counts"]
    assert counts["turns"] == 60
    assert counts["objects.turn"] == 60
    windows = sorted(
        o.sources for o in memory.store.get_objects(range(1, 500)).values() if o.kind == "session"
    )
    survivors = sorted(s for w in windows for s in w)
    assert survivors == sorted(f"t{i:03d}" for i in range(1, 64) if i not in (1, 30, 63))
    assert all(len(w) <= 12 for w in windows)


def test_delete_every_turn_of_a_session_removes_its_windows(db_path: str) -> None:
    with Memory(db_path) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest_many([Turn(f"a{i}", "ana", f"note {i}", session_id="s") for i in range(3)])
        memory.ingest(Turn("b0", "ana", "other session", session_id="s2"))
        report = memory.delete_turns(["a0", "a1", "a2"])
        assert report.objects_added == 0
        counts = memory.stats()["counts"]
        assert (counts["turns"], counts["objects"], counts["objects.session"]) == (1, 2, 1)


@pytest.mark.parametrize("turn_ids", [["t999"], ["t001", "t999"], ["t001", "t001 "]])
def test_deleting_an_unknown_turn_changes_nothing(memory: Memory, snapshot, turn_ids) -> None:
    memory.retriever.index  # noqa: B018
    before = snapshot(memory)
    index_keys = memory.retriever.index.keys.copy()
    with pytest.raises(InputError, match="no turn"):
        memory.delete_turns(turn_ids, EPISODE)
    assert snapshot(memory) == before
    np.testing.assert_array_equal(memory.retriever.index.keys, index_keys)


def test_delete_in_the_wrong_episode(memory: Memory, snapshot) -> None:
    before = snapshot(memory)
    with pytest.raises(InputError, match="episode 'default'"):
        memory.delete_turns(["t001"])
    assert snapshot(memory) == before


# 6. one transaction per ingest_many


def test_failure_midway_stores_nothing_and_keeps_the_index(memory: Memory, snapshot, monkeypatch) -> None:
    index = memory.retriever.index
    keys, vectors = index.keys.copy(), index.vectors.copy()
    before = snapshot(memory)
    real = memory.embedder.embed_documents
    calls = []

    def flaky(texts):
        calls.append(len(texts))
        if len(calls) == 2:
            raise RuntimeError("embedder fell over")
        return real(texts)

    monkeypatch.setattr(memory_module, "BATCH", 2)  # several batches, each committed to a savepoint
    monkeypatch.setattr(memory.embedder, "embed_documents", flaky)
    with pytest.raises(RuntimeError, match="fell over"):
        memory.ingest_many(new_turns(5))
    monkeypatch.undo()

    assert len(calls) >= 2  # embedding may run ahead of the failing batch
    assert snapshot(memory) == before
    full_text_index_is_consistent(memory)
    assert not memory.store.db.in_transaction
    assert memory.retriever.index is index
    np.testing.assert_array_equal(index.keys, keys)
    np.testing.assert_array_equal(index.vectors, vectors)
    # and the store is usable afterwards
    assert memory.ingest_many(new_turns(5)).turns == 5


def full_text_index_is_consistent(memory: Memory) -> None:
    memory.store.db.execute("INSERT INTO objects_fts(objects_fts, rank) VALUES ('integrity-check', 1)")


def test_batch_size_changes_no_object_and_rewrites_none(tmp_path, monkeypatch) -> None:
    turns = [
        Turn(
            f"b{i}",
            "p0",
            f"Line {i} about cabinet {i % 7}.",
            "ep",
            "2026-03-13T09:00",
            session_id=f"s{i // 17}",
        )
        for i in range(60)
    ]

    def ingest(path, batch: int) -> tuple[dict, np.ndarray, int]:
        monkeypatch.setattr(memory_module, "BATCH", batch)
        with Memory(str(path)) as memory:
            memory.add_principal("p0", "member")
            report = memory.ingest_many(turns)
            used = memory.store.db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'objects'")
            # every object's text reached the full-text index, whichever thread indexed it
            indexed = memory.store.db.scalar(
                "SELECT count(*) FROM objects_fts WHERE objects_fts MATCH 'cabinet'"
            )
            assert indexed == memory.store.counts_of("objects")
            memory.store.db.execute(
                "INSERT INTO objects_fts(objects_fts, rank) VALUES ('integrity-check', 1)"
            )
            content = objects_by_key(memory)
            index = memory.retriever.index
            by_content = {content[int(key)]: index.vectors[row] for row, key in enumerate(index.keys)}
            ordered = sorted(by_content)
            return ordered, np.stack([by_content[c] for c in ordered]), used - report.objects_added

    whole, whole_vectors, _ = ingest(tmp_path / "whole.db", 4096)
    split, split_vectors, rewritten = ingest(tmp_path / "split.db", 5)  # groups straddle every batch
    assert split == whole
    np.testing.assert_allclose(split_vectors, whole_vectors, atol=1e-6)
    assert rewritten == 0  # a group straddling two batches is derived once, not derived and replaced


def test_a_group_derived_in_two_batches_of_one_call_keeps_one_version(tmp_path, monkeypatch) -> None:
    """Interleaved sessions: each batch touches both, so each is derived twice in one call."""
    turns = [
        Turn(f"i{i}", "p0", f"Note {i} for room {i % 2}.", "ep", "2026-03-13T09:00", session_id=f"s{i % 2}")
        for i in range(8)
    ]
    monkeypatch.setattr(memory_module, "BATCH", 2)
    with Memory(str(tmp_path / "m.db"), designs=["session"]) as memory:
        memory.add_principal("p0", "member")
        memory.ingest_many(turns)
        windows = [text for _, text, _ in objects_by_key(memory).values()]
    assert len(windows) == 2  # one window per session, no stale first version left behind
    assert all(text.count("Note") == 4 for text in windows)


# 7. store basics and recall inputs


def test_file_store_basics(memory: Memory) -> None:
    stats = memory.stats()
    assert memory.store.db.scalar("PRAGMA journal_mode") == "wal"
    assert stats["schema_version"] == LATEST_VERSION
    assert memory.store.db.scalar("PRAGMA user_version") == LATEST_VERSION
    assert stats["embedder"] == "wordllama"
    assert stats["designs"] == ["turn", "session"]
    assert stats["driver"] == "apsw"
    assert memory.store.get_meta("embedder") == "wordllama"
    assert memory.store.get_meta("embedder_dim") == str(memory.embedder.dim)
    assert json.loads(memory.store.get_meta("designs")) == ["turn", "session"]
    assert stats["counts"] == {
        "principals": 9,
        "relationships": 3,
        "turns": 63,
        "objects": 70,
        "vectors": 70,
        "objects.session": 7,
        "objects.turn": 63,
        "episodes": 1,
    }


def test_principals_upsert(memory: Memory) -> None:
    assert memory.add_principal("nurse_quinn", "charge_nurse", "Quinn") == Principal(
        "nurse_quinn", "charge_nurse", "Quinn"
    )
    assert memory.store.get_principal("nurse_quinn") == Principal("nurse_quinn", "charge_nurse", "Quinn")
    assert memory.stats()["counts"]["principals"] == 9
    with pytest.raises(InputError, match="needs an id and a role"):
        memory.add_principals([Principal("ok", "nurse"), Principal("norole", "")])
    assert memory.store.get_principal("ok") is None


def test_relationships(memory: Memory) -> None:
    relationship = memory.add_relationship(
        "covers", "clinician_dr_varga", "patient_lena_okafor", until="2026-04"
    )
    assert relationship == Relationship(
        "covers", "clinician_dr_varga", "patient_lena_okafor", {"until": "2026-04"}
    )
    assert relationship in memory.store.relationships("patient_lena_okafor")
    with pytest.raises(UnknownPrincipal, match="'dr_nobody'"):
        memory.add_relationship("covers", "dr_nobody", "patient_lena_okafor")
    with pytest.raises(UnknownPrincipal):
        memory.add_relationships(
            [Relationship("x", "nurse_quinn", "patient_lena_okafor"), Relationship("x", "ghost", "y")]
        )
    assert memory.stats()["counts"]["relationships"] == 4


def test_recall_result(memory: Memory) -> None:
    result = memory.recall("nurse_quinn", "Which parking level is set aside for clinic visitors?", k=3)
    assert result.action == "answer"
    assert result.requester == "nurse_quinn"
    assert 1 <= len(result.items) <= 3
    assert result.decision.reasons == ("pack:medical",)
    assert any("P2" in item.text for item in result.items)
    fused = [item.scores["fused"] for item in result.items]
    assert fused == sorted(fused, reverse=True)
    assert json.loads(json.dumps(result.to_dict()))["items"][0]["object_id"] == result.items[0].object_id
    assert result.context().startswith(f"[{result.items[0].object_id}] ")


def test_recall_on_an_empty_store(db_path: str) -> None:
    with Memory(db_path) as memory:
        memory.add_principal("ana", "nurse")
        result = memory.recall("ana", "anything at all")
        assert (result.action, result.items) == ("no_memory", [])


def test_recall_by_unknown_requester(memory: Memory) -> None:
    with pytest.raises(UnknownPrincipal, match="'mallory' \\(requester\\)"):
        memory.recall("mallory", "parking")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"query": ""}, "query is empty"),
        ({"query": "   \n"}, "query is empty"),
        ({"query": "x" * (MAX_QUERY_CHARS + 1)}, "the limit is"),
        ({"k": 0}, "k must be between"),
        ({"k": MAX_K + 1}, "k must be between"),
        ({"k": -3}, "k must be between"),
        ({"as_of": "last Tuesday"}, "as_of 'last Tuesday' is not an ISO 8601"),
        ({"design": "profile"}, "design 'profile' is not kept"),
        ({"design": ["turn", "profile"]}, "design 'profile' is not kept"),
    ],
)
def test_recall_input_errors(memory: Memory, kwargs: dict, message: str) -> None:
    arguments = {"requester": "nurse_quinn", "query": "parking"} | kwargs
    with pytest.raises(InputError, match=message):
        memory.recall(**arguments)


def test_recall_limits_are_inclusive(memory: Memory) -> None:
    assert memory.recall("nurse_quinn", "x" * MAX_QUERY_CHARS, k=1).action in ("answer", "no_memory")
    everything = memory.recall("agent_maplecare", "parking", k=MAX_K).items  # windows stand for their turns
    assert {s for item in everything for s in item.sources} == {
        s for item in memory.export("agent_maplecare") for s in item.sources
    }
    assert len(memory.recall("agent_maplecare", "parking", k=MAX_K, design="turn").items) == len(
        {s for item in everything for s in item.sources}
    )


def test_as_of_excludes_later_objects(memory: Memory) -> None:
    query = "Lakeside Ride wheelchair van pickup confirmation LR-5531"
    assert "t050" in [item.sources[0] for item in memory.recall("nurse_quinn", query, design="turn").items]
    for as_of in ("2026-03-10T23:59:59", "2026-03-10", "2026-03-11T01:00:00+02:00"):
        result = memory.recall("nurse_quinn", query, k=100, as_of=as_of)
        assert result.items
        assert all(
            item.observed_at is not None and item.observed_at <= "2026-03-10T23:59:59"
            for item in result.items
        )
        assert all("t050" not in item.sources for item in result.items)
    edge = memory.recall("nurse_quinn", query, k=100, as_of="2026-03-12T09:42:00", design="turn")
    assert "t050" in [item.sources[0] for item in edge.items]  # observed exactly then
    assert memory.recall("nurse_quinn", query, as_of="2020-01-01").action == "no_memory"


def test_design_restricts_the_kinds(memory: Memory) -> None:
    for design, kinds in (
        ("turn", {"turn"}),
        ("session", {"session"}),
        (["turn", "session"], {"turn", "session"}),
    ):
        result = memory.recall("nurse_quinn", "metformin dose", k=20, design=design)
        assert {item.kind for item in result.items} <= kinds
    assert {item.kind for item in memory.recall("nurse_quinn", "metformin dose", k=20).items} == {
        "turn",
        "session",
    }


class FakeEmbedder:
    def __init__(self, name: str = "fake", dim: int = 256):
        self.name = name
        self.dim = dim

    def embed_documents(self, texts):
        return np.ones((len(texts), self.dim), dtype=np.float32) / np.sqrt(self.dim)

    def embed_query(self, text):
        return np.ones(self.dim, dtype=np.float32) / np.sqrt(self.dim)


@pytest.mark.parametrize("embedder", [FakeEmbedder(), FakeEmbedder("wordllama", 8)], ids=["name", "dim"])
def test_reopening_with_another_embedder(memory: Memory, db_path: str, embedder) -> None:
    with pytest.raises(EmbedderError, match="holds vectors from embedder 'wordllama'"):
        Memory(db_path, embedder=embedder)


def test_a_custom_embedder_is_recorded(tmp_path) -> None:
    path = str(tmp_path / "fake.db")
    with Memory(path, embedder=FakeEmbedder(dim=4)) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest(Turn("a", "ana", "hello there"))
        assert memory.recall("ana", "hello").items[0].sources == ("a",)
    with pytest.raises(EmbedderError):
        Memory(path)  # the store names "fake", which load_embedder does not know
    with Memory(path, embedder=FakeEmbedder(dim=4)) as memory:
        assert memory.stats()["embedder"] == "fake"


def test_reopening_with_other_designs(memory: Memory, db_path: str) -> None:
    with pytest.raises(InputError, match="was created with designs"):
        Memory(db_path, designs=["turn"])
    with Memory(db_path, designs=["turn", "session"]) as same:
        assert same.designs == ("turn", "session")
    with Memory(db_path) as default:
        assert default.designs == ("turn", "session")


def test_a_store_remembers_its_designs(tmp_path) -> None:
    path = str(tmp_path / "turn-only.db")
    Memory(path, designs=["turn"]).close()
    with Memory(path) as memory:
        assert memory.designs == ("turn",)
        with pytest.raises(InputError, match="design 'session' is not kept"):
            memory.recall("x", "y", design="session")


def test_unknown_design_is_an_input_error(tmp_path) -> None:
    with pytest.raises(InputError):
        Memory(str(tmp_path / "x.db"), designs=["bogus"])


def test_failed_creation_records_nothing(tmp_path) -> None:
    path = str(tmp_path / "x.db")
    with pytest.raises(EmbedderError):
        Memory(path, designs=["turn"], embedder="no-such-embedder")
    with Memory(path, designs=["session"]) as memory:
        assert memory.designs == ("session",)


def test_in_memory_store() -> None:
    with Memory(":memory:") as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest(Turn("a", "ana", "The autoclave is broken."))
        assert memory.recall("ana", "autoclave").items[0].sources == ("a",)


# 8. both drivers


@pytest.mark.parametrize("driver", ["apsw", "sqlite3"])
def test_round_trip_on_both_drivers(tmp_path, driver: str, snapshot) -> None:
    path = str(tmp_path / f"{driver}.db")
    with Memory(path, driver=driver) as memory:
        assert memory.stats()["driver"] == driver
        assert memory.store.db.scalar("PRAGMA journal_mode") == "wal"
        memory.add_principal("ana", "nurse")
        memory.add_principal("bo", "patient")
        report = memory.ingest_many(
            [
                Turn(
                    "a", "ana", "Bo's insulin pen is stored in the blue fridge.", timestamp="2026-01-01T09:00"
                ),
                Turn("b", "bo", "My dog Pepper needs walking at noon.", timestamp="2026-01-01T09:05"),
                Turn("c", "ana", "The ward printer jams on duplex jobs.", timestamp="2026-01-02T10:00"),
            ]
        )
        assert (report.turns, report.objects_added) == (3, 5)
        memory.retriever.index  # noqa: B018
        result = memory.recall("bo", "where is the insulin pen kept?", k=1, design="turn")
        assert result.items[0].sources == ("a",)

        before = snapshot(memory)
        with pytest.raises(DuplicateTurn):
            memory.ingest_many([Turn("d", "bo", "new"), Turn("a", "bo", "clash")])
        assert snapshot(memory) == before

        memory.delete_turns(["b"])
        assert memory.store.lexical_search(match_expression("Pepper"), 10, None, None) == []
        result = memory.recall("ana", "dog Pepper walking", k=10)
        assert all("Pepper" not in item.text for item in result.items)
        full_text_index_is_consistent(memory)
        stored = dict(memory.store.db.execute("SELECT object_key, embedding FROM vectors"))
        assert sorted(memory.retriever.index.keys.tolist()) == sorted(stored)
    with Memory(path, driver=driver) as again:
        counts = again.stats()["counts"]
        assert (counts["turns"], counts["objects.turn"], counts["objects.session"]) == (2, 2, 2)
        assert again.recall("ana", "printer duplex", k=1, design="turn").items[0].sources == ("c",)


def test_new_principal_relabels_what_was_said_about_them(tmp_path) -> None:
    with Memory(str(tmp_path / "late.db"), policy="medical") as memory:
        memory.add_principal("nurse_ana", "nurse", "Ana Ruiz")
        memory.add_principal("clerk_bo", "reception", "Bo Lind")
        memory.ingest(
            Turn("t1", "nurse_ana", "Omar Haddad takes warfarin 5 mg nightly.", timestamp="2026-01-01T09:00")
        )
        question = "Which blood thinner dose does Omar Haddad take?"
        before = memory.recall("clerk_bo", question)
        assert before.action == "answer"  # nobody called Omar is known: shared clinic information
        memory.add_principal("patient_omar", "patient", "Omar Haddad")  # now the sentence is about a patient
        after = memory.recall("clerk_bo", question)
        assert after.action == "refuse"
        assert after.items == []
        assert memory.recall("patient_omar", question).items[0].sources == ("t1",)
    with Memory(str(tmp_path / "late.db")) as reopened:  # the labels were stored, not just cached
        assert reopened.recall("clerk_bo", "warfarin nightly").items == []


def test_a_rolled_back_write_leaves_no_stale_label(tmp_path) -> None:
    """Label keys of a failed ingest are reused by SQLite; no cache may keep their old facets."""
    with Memory(str(tmp_path / "r.db"), policy="medical") as memory:
        memory.add_principal("nurse_ana", "nurse", "Ana Ruiz")
        memory.add_principal("clerk_bo", "reception", "Bo Lind")
        memory.add_principal("patient_omar", "patient", "Omar Haddad")
        bad = [
            Turn("t1", "nurse_ana", "The lobby printer is fixed.", timestamp="2026-01-01T09:00"),
            Turn("t2", "nobody", "x", timestamp="2026-01-01T09:01"),
        ]
        with pytest.raises(UnknownPrincipal):
            memory.ingest_many(bad)
        memory.ingest(
            Turn("t3", "nurse_ana", "Omar Haddad takes warfarin 5 mg.", timestamp="2026-01-01T09:02")
        )
        assert memory.recall("clerk_bo", "warfarin dose").items == []
        stored = {key: facets for key, facets in memory.store.labels_since(0)}
        assert memory.engine.labels == stored


def test_governance_events_carry_provenance_in_time_order(memory: Memory) -> None:
    cited = memory.consent(
        "patient_lena_okafor",
        "clinician_dr_varga",
        ["clinical"],
        valid_from="2026-03-10T09:00",
        source_turn=(EPISODE, "t041"),
    )
    earlier = memory.consent("patient_walter_brandt", "nurse_quinn", valid_from="2026-03-09T08:00")
    memory.revoke(cited.grant_id, by="patient_lena_okafor", at="2026-03-11T00:00")
    events = memory.governance_events()
    timed = [e for e in events if e["kind"] in ("consent", "revoke")]
    assert [e["kind"] for e in timed] == ["consent", "consent", "revoke"]
    assert [e["effective_at"] for e in timed] == [
        "2026-03-09T08:00:00",
        "2026-03-10T09:00:00",
        "2026-03-11T00:00:00",
    ]
    by_turn = next(e for e in timed if e["source"] != "api")
    assert by_turn["source"] == f"turn:{EPISODE}/t041"
    assert by_turn["source_turn_key"] == memory.store.turn_keys(EPISODE, ["t041"])["t041"]
    assert timed[0]["payload"]["grantee"] == "nurse_quinn" and earlier.grant_id is not None
    assert {"principals", "relationships"} <= {e["kind"] for e in events}
    with pytest.raises(InputError, match="no turn 't999'"):
        memory.consent("patient_lena_okafor", "nurse_quinn", source_turn=(EPISODE, "t999"))
