"""Shared fixtures: a demo store, table dumps, and GateMem files with one defect each.

The wordllama embedder is cached per process (``load_embedder`` is an lru_cache),
so a fresh ``Memory`` per test costs only the SQLite work.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from govmem import Memory, read_episodes
from govmem.api.demo import demo_episode_path

DEMO_PATH = Path(demo_episode_path())
DEMO_EPISODE_ID = "demo_maple_clinic"


def demo_record() -> dict[str, Any]:
    """The demo episode as parsed JSON (a fresh copy every call, safe to mutate)."""
    return json.loads(DEMO_PATH.read_text(encoding="utf-8"))


def renamed_episode(episode_id: str) -> dict[str, Any]:
    record = demo_record()
    record["episode_id"] = episode_id
    return record


def write_jsonl(path: Path, lines: list[Any]) -> Path:
    """One JSON value per line; ``bytes`` and ``str`` items are written as they are."""
    with open(path, "wb") as handle:
        for line in lines:
            if isinstance(line, bytes):
                handle.write(line)
            elif isinstance(line, str):
                handle.write(line.encode("utf-8"))
            else:
                handle.write(json.dumps(line).encode("utf-8"))
            handle.write(b"\n")
    return path


def dump_tables(memory: Memory) -> dict[str, list[tuple]]:
    """Every row of every table (FTS shadow tables included) plus the user_version."""
    db = memory.store.db
    names = [
        row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    ]
    dump = {name: sorted(db.execute(f'SELECT * FROM "{name}"'), key=repr) for name in names}
    dump["user_version"] = db.execute("PRAGMA user_version")
    return dump


@pytest.fixture(scope="session")
def tiny_forgetting_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny generated forgetting data set (2 episodes x 300 turns, 4 facts each); read only."""
    from govmem.bench.forgetting_generator import GeneratorSettings, generate

    folder = tmp_path_factory.mktemp("forgetting-data")
    generate(folder, GeneratorSettings(episodes=2, turns_per_episode=300, facts_per_episode=4, seed=7))
    return folder


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "govmem.db")


@pytest.fixture
def memory(db_path: str):
    """A Memory on a file (medical pack) with the demo episode ingested as the demo does it
    (turn and session designs, statement supersession on)."""
    with Memory(db_path, policy="medical", detect_supersession="statements") as memory:
        memory.ingest_episodes(read_episodes(DEMO_PATH))
        yield memory


@pytest.fixture
def two_episodes(tmp_path: Path):
    """A Memory holding the demo episode twice: as itself and as ``demo_copy`` (same turn ids)."""
    path = write_jsonl(tmp_path / "two.jsonl", [demo_record(), renamed_episode("demo_copy")])
    with Memory(str(tmp_path / "two.db"), policy="medical") as memory:
        memory.ingest_episodes(read_episodes(path))
        yield memory


@pytest.fixture
def episode_record() -> Callable[..., dict[str, Any]]:
    """A factory of fresh, mutable copies of the demo episode record, optionally renamed."""

    def make(episode_id: str = DEMO_EPISODE_ID) -> dict[str, Any]:
        return renamed_episode(episode_id)

    return make


@pytest.fixture
def jsonl_file(tmp_path: Path) -> Callable[[str, list[Any]], Path]:
    """A factory writing ``lines`` (JSON values, or raw str/bytes) to ``tmp_path / name``."""

    def make(name: str, lines: list[Any]) -> Path:
        return write_jsonl(tmp_path / name, lines)

    return make


@pytest.fixture
def snapshot() -> Callable[[Memory], dict[str, Any]]:
    """Counts plus a full dump of the tables, to compare a store before and after a call."""

    def take(memory: Memory) -> dict[str, Any]:
        return {"counts": memory.stats()["counts"], "tables": dump_tables(memory)}

    return take


@dataclass(frozen=True)
class BadFile:
    defect: str
    path: Path
    line: int
    problem: str


def _defective_lines(defect: str) -> tuple[list[Any], str]:
    """Line 1: a valid episode; line 2: blank; line 3: the defect. Returns lines and problem."""
    good = renamed_episode("ep_extra")
    bad = renamed_episode("ep_bad")
    turns = bad["turns"]
    if defect == "bad_json":
        return [good, "", json.dumps(bad)[:200]], "invalid JSON"
    if defect == "missing_text":
        del turns[4]["text"]
        return [good, "", bad], "missing or empty 'text'"
    if defect == "unknown_speaker":
        turns[6]["speaker"] = {"principal_id": "nobody", "role": "patient"}
        return [good, "", bad], "unknown speaker 'nobody'"
    if defect == "duplicate_turn":
        turns[9]["turn_id"] = "t005"
        return [good, "", bad], "duplicate turn id 't005'"
    if defect == "duplicate_episode":
        return [good, "", renamed_episode("ep_extra")], "duplicate episode id 'ep_extra'"
    if defect == "non_utf8":
        text = json.dumps(bad).encode("utf-8").replace(b"Exam Room 4", b"Exam Room \xff4", 1)
        return [good, "", text], "not UTF-8"
    if defect == "bad_timestamp":
        turns[2]["timestamp"] = "Tuesday morning"
        return [good, "", bad], "'Tuesday morning' is not an ISO 8601 date-time"
    raise KeyError(defect)


DEFECTS = [
    "bad_json",
    "missing_text",
    "unknown_speaker",
    "duplicate_turn",
    "duplicate_episode",
    "non_utf8",
    "bad_timestamp",
]


@pytest.fixture(params=DEFECTS)
def bad_gatemem_file(request: pytest.FixtureRequest, tmp_path: Path) -> BadFile:
    """A GateMem file whose third line has one defect (each test runs once per defect)."""
    lines, problem = _defective_lines(request.param)
    path = write_jsonl(tmp_path / f"{request.param}.jsonl", lines)
    return BadFile(request.param, path, 3, problem)
