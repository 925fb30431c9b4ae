"""Reading forgetting data sets: the visible and hidden halves, and clear errors for bad files."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from forgetting_helpers import episode_lines, fact_lines, write_lines

from govmem.bench.forgetting_data import (
    DeletionTask,
    data_files,
    minimal_set_problems,
    read_annotations,
    read_disclosures,
    read_episodes,
    read_tasks,
)
from govmem.errors import InputError, LoadError


def test_tasks_hold_only_what_a_method_may_see(tiny_forgetting_data: Path) -> None:
    assert [f.name for f in dataclasses.fields(DeletionTask)] == [
        "fact_id",
        "episode_id",
        "owner",
        "requested_by",
        "request_text",
    ]
    tasks = read_tasks(tiny_forgetting_data / "facts.jsonl")
    facts = fact_lines(tiny_forgetting_data)
    assert [t.fact_id for t in tasks] == [f["fact_id"] for f in facts]
    assert tasks[0].request_text == facts[0]["deletion_request"]["text"]


def test_annotations_and_disclosures(tiny_forgetting_data: Path) -> None:
    episodes = read_episodes(tiny_forgetting_data / "episodes.jsonl")
    annotations = read_annotations(tiny_forgetting_data / "facts.jsonl", episodes)
    disclosures = read_disclosures(tiny_forgetting_data / "facts.jsonl")
    assert len(annotations) == len(disclosures) == 8
    for fact_id, fact in annotations.items():
        assert disclosures[fact_id] == fact.disclosure_turns
        assert len(fact.question.options) == 4
    assert episodes[0].turns[0].session_id in episodes[0].sessions


def test_spec_example_reads(tmp_path: Path) -> None:
    """The example lines of the spec, completed with the turns they name."""
    ids = ["ep01.t00412", "ep01.t00533", "ep01.t00777", "ep01.t00901", "ep01.t01377", "ep01.t02210"]
    episode = {
        "episode_id": "ep01",
        "principals": [{"principal_id": "ana", "role": "user", "display_name": "Ana Ruiz"}],
        "sessions": [{"session_id": "s001", "started_at": "2026-03-02T09:00:00Z"}],
        "turns": [
            {
                "turn_id": t,
                "session_id": "s001",
                "timestamp": f"2026-03-02T09:{i:02d}:05Z",
                "speaker": "ana",
                "text": t,
            }
            for i, t in enumerate(ids)
        ],
    }
    fact = {
        "fact_id": "ep01.f003",
        "episode_id": "ep01",
        "owner": "ana",
        "secret": "Ana is pregnant",
        "derivation": "fact_assembly",
        "disclosure_turns": ["ep01.t00412"],
        "evidence_turns": ["ep01.t00533", "ep01.t00901", "ep01.t01377", "ep01.t02210"],
        "minimal_sufficient_sets": [
            ["ep01.t00533", "ep01.t01377"],
            ["ep01.t00901", "ep01.t02210", "ep01.t01377"],
        ],
        "lookalike_turns": ["ep01.t00777"],
        "deletion_request": {"speaker": "ana", "text": "Please forget that I told you I'm pregnant."},
        "question": {
            "text": "Which of these is true about Ana?",
            "options": ["She is training for a marathon", "She is pregnant", "She is changing jobs", "x"],
            "answer_index": 1,
        },
    }
    episodes = read_episodes(write_lines(tmp_path / "episodes.jsonl", [episode]))
    annotations = read_annotations(write_lines(tmp_path / "facts.jsonl", [fact]), episodes)
    assert annotations["ep01.f003"].minimal_sufficient_sets[1] == frozenset(
        {"ep01.t00901", "ep01.t02210", "ep01.t01377"}
    )


def test_minimal_set_checker() -> None:
    evidence = ["a", "b", "c", "d"]
    assert minimal_set_problems([frozenset("ab"), frozenset("cd"), frozenset("acd")], evidence) == [
        "minimal_sufficient_sets[2] is not minimal: set [1] is a proper subset"
    ]
    assert minimal_set_problems([frozenset("a")], evidence) == [
        "minimal_sufficient_sets[0] has 1 turns (2 to 5 allowed)"
    ]
    assert "not an evidence turn" in minimal_set_problems([frozenset("ax")], evidence)[0]
    assert "the same set" in minimal_set_problems([frozenset("ab"), frozenset("ab")], evidence)[0]
    assert minimal_set_problems([], evidence) == ["no minimal sufficient set"]
    assert minimal_set_problems([frozenset("ab"), frozenset("bc"), frozenset("acd")], evidence) == []


def _bad_episode(records: list[dict], defect: str) -> str:
    turns = records[1]["turns"]
    if defect == "unknown speaker":
        turns[3]["speaker"] = "nobody"
        return "unknown speaker 'nobody'"
    if defect == "duplicate turn":
        turns[5]["turn_id"] = records[0]["turns"][0]["turn_id"]
        return "duplicate turn id"
    if defect == "order":
        turns[4]["timestamp"], turns[5]["timestamp"] = turns[5]["timestamp"], turns[4]["timestamp"]
        return "not in chronological order"
    if defect == "session":
        turns[2]["session_id"] = "s999"
        return "unknown session 's999'"
    if defect == "no text":
        del turns[7]["text"]
        return "missing or empty 'text'"
    raise KeyError(defect)


@pytest.mark.parametrize("defect", ["unknown speaker", "duplicate turn", "order", "session", "no text"])
def test_bad_episode_names_file_and_line(tiny_forgetting_data: Path, tmp_path: Path, defect: str) -> None:
    records = episode_lines(tiny_forgetting_data)
    problem = _bad_episode(records, defect)
    path = write_lines(tmp_path / "episodes.jsonl", records)
    with pytest.raises(LoadError, match=problem) as info:
        read_episodes(path)
    assert info.value.path == str(path) and info.value.line == 2


def _bad_fact(fact: dict, defect: str) -> str:
    if defect == "not minimal":  # a listed set plus one more evidence turn
        taken = {*fact["disclosure_turns"], *fact["evidence_turns"], *fact["lookalike_turns"]}
        extra = next(t for i in range(1, 50) if (t := f"{fact['episode_id']}.t{i:05d}") not in taken)
        fact["evidence_turns"].append(extra)
        fact["minimal_sufficient_sets"].append([*fact["minimal_sufficient_sets"][0], extra])
        return "is not minimal"
    if defect == "unknown turn":
        fact["evidence_turns"].append("ep99.t00001")
        return "has no turn 'ep99.t00001'"
    if defect == "answer":
        fact["question"]["answer_index"] = 4
        return "answer_index must be 0 to 3"
    if defect == "derivation":
        fact["derivation"] = "vibes"
        return "derivation 'vibes' is not one of"
    if defect == "overlap":
        fact["lookalike_turns"].append(fact["evidence_turns"][0])
        return "is also a disclosure or evidence turn"
    if defect == "request":
        fact["deletion_request"] = {"speaker": fact["owner"]}
        return "missing or empty deletion_request.'text'"
    raise KeyError(defect)


@pytest.mark.parametrize(
    "defect", ["not minimal", "unknown turn", "answer", "derivation", "overlap", "request"]
)
def test_bad_fact_names_file_and_line(tiny_forgetting_data: Path, tmp_path: Path, defect: str) -> None:
    facts = fact_lines(tiny_forgetting_data)
    problem = _bad_fact(facts[2], defect)
    path = write_lines(tmp_path / "facts.jsonl", facts)
    episodes = read_episodes(tiny_forgetting_data / "episodes.jsonl")
    with pytest.raises(LoadError, match=problem) as info:
        read_annotations(path, episodes)
    assert info.value.line == 3


def test_bad_json_and_duplicate_fact(tiny_forgetting_data: Path, tmp_path: Path) -> None:
    facts = fact_lines(tiny_forgetting_data)
    path = write_lines(tmp_path / "facts.jsonl", [facts[0], json.dumps(facts[1])[:50]])
    with pytest.raises(LoadError, match=r"facts.jsonl:2: invalid JSON"):
        read_tasks(path)
    path = write_lines(tmp_path / "facts.jsonl", [facts[0], facts[0]])
    with pytest.raises(LoadError, match="duplicate fact id"):
        read_tasks(path)


def test_missing_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"not a forgetting data set: no episodes\.jsonl"):
        data_files(tmp_path)
