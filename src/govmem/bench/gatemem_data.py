"""GateMem checkpoints, read in two halves so that hidden labels cannot reach a run.

A line of GateMem's ``checkpoints.jsonl`` holds what a system may see (which
episode, at which turn, who asks, what they ask) and the hidden labels the scorer
judges by (query type, attack type, expected action, judge spec, leak targets).

- :func:`read_checkpoints` keeps the visible half only: a :class:`Checkpoint` has
  no field a label could hide in, and the labels are not even validated.
- :func:`read_labels` keeps the hidden half, keyed by checkpoint id, for the scorer.

The runner (:mod:`govmem.bench.gatemem`) takes checkpoints; the labels are read
after every prediction has been written. Episodes load with
:func:`govmem.read_episodes`. Every problem is reported as file, line and what is
wrong (:class:`~govmem.errors.LoadError`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from govmem.errors import InputError
from govmem.loaders.jsonl import iter_keyed
from govmem.read_path.recall import ACTIONS

QUERY_TYPES = ("utility", "privacy", "safety")
"""utility (authorized recall), privacy (access control), safety (active forgetting)."""

T = TypeVar("T")


@dataclass(frozen=True)
class Asker:
    """The authenticated requester of a checkpoint."""

    principal_id: str
    role: str


@dataclass(frozen=True)
class Checkpoint:
    """What a system may see of a checkpoint: nothing else is read from the file."""

    checkpoint_id: str
    episode_id: str
    as_of_turn_id: str
    asker: Asker
    query_text: str


@dataclass(frozen=True)
class Labels:
    """The hidden half of a checkpoint, for the scorer only."""

    query_type: str
    attack_type: str | None
    expected_action: str
    include: tuple[str, ...] = ()
    not_include: tuple[str, ...] = ()
    leak_targets: tuple[str, ...] = ()


def _text(record: dict[str, Any], key: str, where: str = "") -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"missing or empty {where}{key!r}")
    return value


def checkpoint_from(record: Any) -> Checkpoint:
    """The visible fields of one checkpoint record (the hidden ones are not looked at)."""
    if not isinstance(record, dict):
        raise InputError(f"expected a JSON object, got {type(record).__name__}")
    asker = record.get("asker")
    if not isinstance(asker, dict):
        raise InputError("missing 'asker' (an object with 'principal_id' and 'role')")
    return Checkpoint(
        checkpoint_id=_text(record, "checkpoint_id"),
        episode_id=_text(record, "episode_id"),
        as_of_turn_id=_text(record, "as_of_turn_id"),
        asker=Asker(_text(asker, "principal_id", "asker."), _text(asker, "role", "asker.")),
        query_text=_text(record, "query_text"),
    )


def _patterns(value: Any, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError(f"{name} must be a list of patterns, not {type(value).__name__}")
    for index, pattern in enumerate(value):
        if not isinstance(pattern, str):
            raise InputError(f"{name}[{index}] is not text: {pattern!r}")
    return tuple(value)


def labels_from(record: Any) -> tuple[str, Labels]:
    """(checkpoint id, labels) of one checkpoint record."""
    if not isinstance(record, dict):
        raise InputError(f"expected a JSON object, got {type(record).__name__}")
    checkpoint_id = _text(record, "checkpoint_id")
    query_type = record.get("query_type")
    if query_type not in QUERY_TYPES:
        raise InputError(f"query_type {query_type!r} is not one of {', '.join(QUERY_TYPES)}")
    spec = record.get("judge_spec")
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        raise InputError(f"judge_spec must be an object, not {type(spec).__name__}")
    expected = record.get("expected_action", spec.get("expected_action"))
    if expected not in ACTIONS:
        raise InputError(f"expected_action {expected!r} is not one of {', '.join(ACTIONS)}")
    attack_type = record.get("attack_type")
    if attack_type is not None and (not isinstance(attack_type, str) or not attack_type):
        raise InputError(f"attack_type must be text, not {attack_type!r}")
    labels = Labels(
        query_type=query_type,
        attack_type=attack_type,
        expected_action=expected,
        include=_patterns(spec.get("include"), "judge_spec.include"),
        not_include=_patterns(spec.get("not_include"), "judge_spec.not_include"),
        leak_targets=_patterns(record.get("leak_targets"), "leak_targets"),
    )
    return checkpoint_id, labels


def _read(path: str | Path, parse: Callable[[Any], T], key: Callable[[T], str]) -> Iterator[T]:
    return iter_keyed(path, parse, key, "checkpoint id")


def read_checkpoints(path: str | Path) -> list[Checkpoint]:
    """The checkpoints of a GateMem ``checkpoints.jsonl``, in file order, labels left unread."""
    return list(_read(path, checkpoint_from, lambda c: c.checkpoint_id))


def read_labels(path: str | Path) -> dict[str, Labels]:
    """The hidden labels of a GateMem ``checkpoints.jsonl``, by checkpoint id (scoring only)."""
    return dict(_read(path, labels_from, lambda pair: pair[0]))
