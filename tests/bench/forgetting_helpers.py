"""Shared by the forgetting-benchmark tests: a tiny generated data set, written once per session."""

from __future__ import annotations

import json
from pathlib import Path

from govmem.bench.forgetting_generator import GeneratorSettings, generate

TINY = GeneratorSettings(episodes=2, turns_per_episode=300, facts_per_episode=4, seed=7)
"""The settings of the ``tiny_forgetting_data`` fixture (tests/conftest.py)."""
ANNOTATIONS = (
    "secret",
    "derivation",
    "disclosure_turns",
    "evidence_turns",
    "minimal_sufficient_sets",
    "lookalike_turns",
    "question",
)


def write_tiny(folder: Path) -> Path:
    generate(folder, TINY)
    return folder


def fact_lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "facts.jsonl").read_text().splitlines()]


def episode_lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "episodes.jsonl").read_text().splitlines()]


def write_lines(path: Path, records: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path
