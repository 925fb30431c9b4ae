"""Plain JSON Lines: one turn per line, and telling turns from episodes."""

from __future__ import annotations

import pytest

from govmem import LoadError, Turn
from govmem.loaders.jsonl import iter_records, iter_turns, looks_like_episodes


def test_iter_records_numbers_lines(jsonl_file) -> None:
    path = jsonl_file("r.jsonl", [{"a": 1}, "", [2], "  "])
    assert list(iter_records(path)) == [(1, {"a": 1}), (3, [2])]


def test_iter_turns(jsonl_file) -> None:
    path = jsonl_file(
        "turns.jsonl",
        [
            {"turn_id": "a", "speaker": "ana", "text": "one", "timestamp": "2026-01-01T10:00:00Z"},
            {"turn_id": "a", "speaker": "ana", "text": "same id, other episode", "episode_id": "e2"},
        ],
    )
    assert list(iter_turns(path)) == [
        Turn("a", "ana", "one", timestamp="2026-01-01T10:00:00"),
        Turn("a", "ana", "same id, other episode", episode_id="e2"),
    ]


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        (
            [{"turn_id": "a", "speaker": "s", "text": "x"}, {"turn_id": "a", "speaker": "s", "text": "y"}],
            2,
            "duplicate turn id 'a'",
        ),
        ([{"turn_id": "a", "speaker": "s"}], 1, "missing or empty 'text'"),
        (["", b"\xfe\xff"], 2, "not UTF-8"),
        (["{"], 1, "invalid JSON"),
    ],
)
def test_iter_turns_problems(jsonl_file, lines, line: int, problem: str) -> None:
    path = jsonl_file("bad.jsonl", lines)
    with pytest.raises(LoadError) as info:
        list(iter_turns(path))
    assert (info.value.line, info.value.path) == (line, str(path))
    assert problem in str(info.value)


def test_looks_like_episodes(jsonl_file, episode_record) -> None:
    assert looks_like_episodes(jsonl_file("e.jsonl", ["", episode_record()]))
    assert not looks_like_episodes(jsonl_file("t.jsonl", [{"turn_id": "a", "speaker": "s", "text": "x"}]))
    assert not looks_like_episodes(jsonl_file("empty.jsonl", []))
    assert not looks_like_episodes(jsonl_file("list.jsonl", [["turns"]]))
