"""Read JSON Lines files, naming the file and line of any problem.

Two shapes are accepted by :func:`read_file`: GateMem episodes (a line with
``turns``) and plain turns (one turn per line, speakers already registered).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from govmem.errors import InputError, LoadError
from govmem.models import Turn
from govmem.validation import as_turn


def iter_records(path: str | Path) -> Iterator[tuple[int, Any]]:
    """(line number, parsed JSON) for each non-blank line."""
    path = str(path)
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        raise LoadError(path, None, f"cannot read: {exc.strerror}") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LoadError(path, number, f"not UTF-8 text: {exc.reason}") from None
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as exc:
                raise LoadError(path, number, f"invalid JSON: {exc.msg} at column {exc.colno}") from None


T = TypeVar("T")


def iter_keyed(
    path: str | Path, parse: Callable[[Any], T], key: Callable[[T], str], what: str
) -> Iterator[T]:
    """``parse(record)`` for each line, refusing a repeated ``key`` (``what`` names it in
    the error); an :class:`InputError` from ``parse`` becomes a :class:`LoadError` at that line."""
    seen: set[str] = set()
    for number, record in iter_records(path):
        try:
            value = parse(record)
        except InputError as exc:
            raise LoadError(str(path), number, str(exc)) from None
        if key(value) in seen:
            raise LoadError(str(path), number, f"duplicate {what} {key(value)!r}")
        seen.add(key(value))
        yield value


def iter_turns(path: str | Path) -> Iterator[Turn]:
    """Turns of a plain turns file; duplicate ids within the file are refused here."""
    seen: set[tuple[str, str]] = set()
    for number, record in iter_records(path):
        try:
            turn = as_turn(record)
        except InputError as exc:
            raise LoadError(str(path), number, str(exc)) from None
        key = (turn.episode_id, turn.turn_id)
        if key in seen:
            raise LoadError(
                str(path), number, f"duplicate turn id {turn.turn_id!r} in episode {turn.episode_id!r}"
            )
        seen.add(key)
        yield turn


def looks_like_episodes(path: str | Path) -> bool:
    """True when the first record of the file is a GateMem episode."""
    for _, record in iter_records(path):
        return isinstance(record, dict) and "turns" in record
    return False
