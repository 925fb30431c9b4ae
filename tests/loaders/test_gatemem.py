"""The GateMem loader: episodes in, every problem reported as file:line: problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from govmem import Episode, LoadError, Memory, Principal, read_episodes
from govmem.errors import InputError
from govmem.loaders.gatemem import episode_from, iter_episodes, relationship_from

EPISODE = "demo_maple_clinic"


def test_demo_episode_loads(episode_record, jsonl_file) -> None:
    (episode,) = read_episodes(jsonl_file("demo.jsonl", [episode_record()]))
    assert isinstance(episode, Episode)
    assert episode.episode_id == EPISODE
    assert episode.domain == "medical"
    assert len(episode.principals) == 9
    assert episode.principals[0] == Principal("patient_walter_brandt", "patient", "Walter Brandt")
    assert [(r.type, r.principal_id, r.target_id) for r in episode.relationships] == [
        ("assigned_clinician", "clinician_dr_varga", "patient_walter_brandt"),
        ("assigned_clinician", "clinician_dr_haddad", "patient_lena_okafor"),
        ("family_member", "family_greta_brandt", "patient_walter_brandt"),
    ]
    assert episode.relationships[2].attributes["access_level"].startswith("scheduling_logistics_only")
    assert len(episode.turns) == 63
    first = episode.turns[0]
    assert (first.turn_id, first.speaker, first.episode_id) == ("t001", "reception_tomas", EPISODE)
    assert first.timestamp == "2026-03-09T08:00:00"
    assert first.kind == "dialogue"
    assert episode.turns[6].kind == "note_update"


def test_blank_lines_are_skipped_but_counted(episode_record, jsonl_file) -> None:
    path = jsonl_file("two.jsonl", ["", episode_record("a"), "   ", "", episode_record("b"), ""])
    assert [e.episode_id for e in read_episodes(path)] == ["a", "b"]


def test_iter_episodes_is_lazy(episode_record, jsonl_file) -> None:
    path = jsonl_file("lazy.jsonl", [episode_record("a"), "{broken"])
    episodes = iter_episodes(path)
    assert next(episodes).episode_id == "a"
    with pytest.raises(LoadError, match=":2: invalid JSON"):
        next(episodes)


def test_defects_name_file_line_and_problem(bad_gatemem_file) -> None:
    with pytest.raises(LoadError) as info:
        read_episodes(bad_gatemem_file.path)
    error = info.value
    assert error.path == str(bad_gatemem_file.path)
    assert error.line == bad_gatemem_file.line
    assert bad_gatemem_file.problem in error.problem
    assert str(error).startswith(f"{bad_gatemem_file.path}:{bad_gatemem_file.line}: ")
    assert bad_gatemem_file.problem in str(error)
    assert isinstance(error, InputError)


def test_defective_file_changes_nothing_in_a_store_with_data(
    memory: Memory, snapshot, bad_gatemem_file
) -> None:
    before = snapshot(memory)
    with pytest.raises(LoadError, match=f":{bad_gatemem_file.line}: "):
        memory.ingest_episodes(iter_episodes(bad_gatemem_file.path))
    assert snapshot(memory) == before


def test_defective_file_changes_nothing_in_an_empty_store(db_path: str, snapshot, bad_gatemem_file) -> None:
    with Memory(db_path) as memory:
        before = snapshot(memory)
        with pytest.raises(LoadError):
            memory.ingest_episodes(iter_episodes(bad_gatemem_file.path))
        assert snapshot(memory) == before
        assert before["counts"]["turns"] == 0


def test_missing_file(tmp_path) -> None:
    path = tmp_path / "nope.jsonl"
    with pytest.raises(LoadError, match=r"nope\.jsonl: cannot read") as info:
        read_episodes(path)
    assert info.value.line is None


@pytest.mark.parametrize(
    ("mutate", "problem"),
    [
        (lambda r: r.pop("episode_id"), "missing 'episode_id'"),
        (lambda r: r.pop("entities"), "missing 'entities.principals'"),
        (lambda r: r.pop("turns"), "missing 'turns'"),
        (lambda r: r["entities"]["principals"][0].pop("role"), "principal #1 needs"),
        (lambda r: r["entities"]["relationships"][0].pop("type"), "relationship without a 'type'"),
        (lambda r: r["entities"]["relationships"][0].pop("clinician_id"), "names no principal"),
        (
            lambda r: r["entities"]["relationships"][0].update(clinician_id="dr_ghost"),
            "names unknown principal 'dr_ghost'",
        ),
        (lambda r: r["turns"][3].update(speaker={"role": "nurse"}), "missing or empty 'speaker'"),
        (lambda r: r["turns"][3].update(text=42), "missing or empty 'text'"),
        (lambda r: r["turns"][3].update(timestamp="2026-02-30T10:00"), "not an ISO 8601"),
        (lambda r: r["turns"].append("not a turn"), "must be a Turn or a mapping"),
    ],
)
def test_structural_problems(episode_record, jsonl_file, mutate, problem: str) -> None:
    record = episode_record()
    mutate(record)
    path = jsonl_file("bad.jsonl", [record])
    with pytest.raises(LoadError, match=":1: ") as info:
        read_episodes(path)
    assert problem in info.value.problem


def test_a_line_that_is_not_an_object(jsonl_file) -> None:
    with pytest.raises(LoadError, match=r":1: expected a JSON object, got list"):
        read_episodes(jsonl_file("list.jsonl", [[1, 2]]))


def test_relationship_keys() -> None:
    relationship = relationship_from({"type": "guest", "principal_id": "a", "guest_id": "b", "until": "x"})
    assert (relationship.principal_id, relationship.target_id) == ("a", "b")
    assert relationship.attributes == {"principal_id": "a", "guest_id": "b", "until": "x"}


def test_turn_episode_id_is_the_episodes() -> None:
    record = {
        "episode_id": "ep",
        "entities": {"principals": [{"principal_id": "a", "role": "r"}]},
        "turns": [{"turn_id": "t1", "speaker": "a", "text": "hi", "episode_id": "elsewhere"}],
    }
    assert episode_from(record).turns[0].episode_id == "ep"


def test_relationship_without_target_keeps_an_empty_target() -> None:
    relationship = relationship_from({"type": "housing_staff", "principal_id": "p1", "access_scope": "all"})
    assert (relationship.principal_id, relationship.target_id) == ("p1", "")
    assert relationship.attributes == {"principal_id": "p1", "access_scope": "all"}


SHARED_GATEMEM = Path(__file__).resolve().parents[3] / "shared" / "data" / "gatemem"


@pytest.mark.skipif(not SHARED_GATEMEM.is_dir(), reason="the shared GateMem data is not beside the repo")
@pytest.mark.parametrize("domain", ["medical", "office", "education", "household"])
def test_every_development_episode_loads(domain: str) -> None:
    episodes = read_episodes(SHARED_GATEMEM / domain / "episodes.jsonl")
    assert episodes
    for episode in episodes:
        speakers = {t.speaker for t in episode.turns}
        assert speakers <= {p.principal_id for p in episode.principals}
