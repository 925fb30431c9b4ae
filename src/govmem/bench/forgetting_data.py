"""Forgetting-benchmark data sets (``../shared/specs/forgetting-bench.md``), read in halves.

A data set is a folder with ``episodes.jsonl`` (principals, sessions, turns) and
``facts.jsonl`` (one protected fact a line). A fact line holds what a deletion
method may see and the annotations only the scorer may read:

- :func:`read_tasks` keeps the visible half: a :class:`DeletionTask` is the fact id,
  the episode, the owner and the deletion request. Nothing else is looked at, so a
  method handed tasks cannot key on annotations.
- :func:`read_disclosures` gives the annotated disclosure turns, which the spec hands
  to the reference methods (S0, S1, S2, whole_pool) and to no other.
- :func:`read_annotations` gives everything else (derivation, secret, evidence,
  minimal sufficient sets, look-alikes, the question and its answer), validated
  against the episodes, for the scorer.

Every problem is reported as file, line and what is wrong
(:class:`~govmem.errors.LoadError`). :func:`minimal_set_problems` is the checker
of the minimal sufficient sets (sizes, membership, minimality among themselves).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from govmem.errors import InputError, LoadError
from govmem.loaders.jsonl import iter_keyed, iter_records
from govmem.models import Principal, Turn
from govmem.timestamps import normalize_timestamp

DERIVATIONS = ("fact_assembly", "relation_chain", "aggregation", "temporal_state")
EPISODES = "episodes.jsonl"
FACTS = "facts.jsonl"
MIN_SET, MAX_SET = 2, 5
OPTIONS = 4

T = TypeVar("T")


@dataclass(frozen=True)
class ForgettingEpisode:
    episode_id: str
    principals: tuple[Principal, ...]
    sessions: Mapping[str, str | None]
    """session id -> started_at."""
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class DeletionTask:
    """What a deletion method may see of a fact: who asks to forget what, in which episode."""

    fact_id: str
    episode_id: str
    owner: str
    requested_by: str
    request_text: str


@dataclass(frozen=True)
class Question:
    text: str
    options: tuple[str, ...]
    answer_index: int


@dataclass(frozen=True)
class Annotations:
    """The hidden half of a fact, for the scorer only."""

    fact_id: str
    episode_id: str
    owner: str
    secret: str
    derivation: str
    disclosure_turns: tuple[str, ...]
    evidence_turns: tuple[str, ...]
    minimal_sufficient_sets: tuple[frozenset[str], ...]
    lookalike_turns: tuple[str, ...]
    question: Question


# Episodes


def _text(record: Mapping[str, Any], key: str, prefix: str = "", context: str = "") -> str:
    """``record[key]`` as non-blank text; errors read "<context>missing or empty <prefix><key>"."""
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{context}missing or empty {prefix}{key!r}")
    return value


def _list(record: Mapping[str, Any], key: str, context: str = "") -> list[Any]:
    value = record.get(key)
    if not isinstance(value, list):
        raise InputError(f"{context}{key!r} must be a list, not {type(value).__name__}")
    return value


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{what} must be a JSON object, not {type(value).__name__}")
    return value


def episode_from(record: Any, seen_turns: set[str]) -> ForgettingEpisode:
    """One episode line; ``seen_turns`` holds the turn ids of earlier episodes (ids are
    unique across a data set) and receives this episode's."""
    record = _object(record, "an episode")
    episode_id = _text(record, "episode_id")
    where = f"episode {episode_id!r}: "
    principals = []
    for i, raw in enumerate(_list(record, "principals", where)):
        raw = _object(raw, f"{where}principal #{i + 1}")
        principals.append(
            Principal(
                _text(raw, "principal_id", context=f"{where}principal #{i + 1}: "),
                _text(raw, "role", context=f"{where}principal #{i + 1}: "),
                str(raw.get("display_name") or ""),
            )
        )
    known = {p.principal_id for p in principals}
    if len(known) != len(principals):
        raise InputError(f"{where}a principal id is listed twice")
    sessions: dict[str, str | None] = {}
    for i, raw in enumerate(_list(record, "sessions", where)):
        raw = _object(raw, f"{where}session #{i + 1}")
        session_id = _text(raw, "session_id", context=f"{where}session #{i + 1}: ")
        if session_id in sessions:
            raise InputError(f"{where}duplicate session id {session_id!r}")
        started = raw.get("started_at")
        sessions[session_id] = normalize_timestamp(started, "started_at") if started else None
    turns = []
    previous: str | None = None
    for i, raw in enumerate(_list(record, "turns", where)):
        raw = _object(raw, f"{where}turn #{i + 1}")
        turn_id = _text(raw, "turn_id", context=f"{where}turn #{i + 1}: ")
        here = f"{where}turn {turn_id!r}: "
        if turn_id in seen_turns:
            raise InputError(f"{here}duplicate turn id (turn ids are unique across the data set)")
        seen_turns.add(turn_id)
        speaker = _text(raw, "speaker", context=here)
        if speaker not in known:
            raise InputError(f"{here}unknown speaker {speaker!r}")
        session_id = raw.get("session_id")
        if session_id is not None and session_id not in sessions:
            raise InputError(f"{here}unknown session {session_id!r}")
        try:
            timestamp = normalize_timestamp(raw.get("timestamp"), "timestamp")
        except InputError as exc:
            raise InputError(f"{here}{exc}") from None
        if timestamp is not None and previous is not None and timestamp < previous:
            raise InputError(f"{here}turns are not in chronological order ({timestamp} < {previous})")
        previous = timestamp or previous
        turns.append(
            Turn(
                turn_id,
                speaker,
                _text(raw, "text", context=here),
                episode_id,
                timestamp,
                "dialogue",
                session_id,
            )
        )
    if not turns:
        raise InputError(f"{where}no turns")
    return ForgettingEpisode(episode_id, tuple(principals), sessions, tuple(turns))


def read_episodes(path: str | Path) -> list[ForgettingEpisode]:
    """The episodes of a data set's ``episodes.jsonl``, validated (see the module docstring)."""
    episodes: list[ForgettingEpisode] = []
    seen_turns: set[str] = set()
    seen: set[str] = set()
    for number, record in iter_records(path):
        try:
            episode = episode_from(record, seen_turns)
        except InputError as exc:
            raise LoadError(str(path), number, str(exc)) from None
        if episode.episode_id in seen:
            raise LoadError(str(path), number, f"duplicate episode id {episode.episode_id!r}")
        seen.add(episode.episode_id)
        episodes.append(episode)
    if not episodes:
        raise LoadError(str(path), None, "no episodes")
    return episodes


# Facts


def task_from(record: Any) -> DeletionTask:
    """The visible fields of a fact line (the annotations are not looked at)."""
    record = _object(record, "a fact")
    request = _object(record.get("deletion_request"), "'deletion_request'")
    return DeletionTask(
        fact_id=_text(record, "fact_id"),
        episode_id=_text(record, "episode_id"),
        owner=_text(record, "owner"),
        requested_by=_text(request, "speaker", "deletion_request."),
        request_text=_text(request, "text", "deletion_request."),
    )


def _turn_ids(record: Mapping[str, Any], key: str) -> tuple[str, ...]:
    values = _list(record, key)
    for value in values:
        if not isinstance(value, str) or not value:
            raise InputError(f"{key!r} holds {value!r}, not a turn id")
    if len(set(values)) != len(values):
        raise InputError(f"{key!r} lists a turn twice")
    return tuple(values)


def minimal_set_problems(sets: Sequence[frozenset[str]], evidence: Sequence[str]) -> list[str]:
    """What is wrong with a fact's minimal sufficient sets, or nothing.

    Each set has 2 to 5 evidence turns, no set is listed twice, and no set contains
    another (a set with a proper subset that also suffices would not be minimal).
    """
    problems = []
    allowed = set(evidence)
    if not sets:
        problems.append("no minimal sufficient set")
    for i, chosen in enumerate(sets):
        if not MIN_SET <= len(chosen) <= MAX_SET:
            problems.append(f"minimal_sufficient_sets[{i}] has {len(chosen)} turns (2 to 5 allowed)")
        outside = sorted(chosen - allowed)
        if outside:
            problems.append(
                f"minimal_sufficient_sets[{i}] holds {outside[0]!r}, which is not an evidence turn"
            )
    for i, a in enumerate(sets):
        for j, b in enumerate(sets):
            if i < j and a == b:
                problems.append(f"minimal_sufficient_sets[{i}] and [{j}] are the same set")
            elif i != j and a < b:
                problems.append(f"minimal_sufficient_sets[{j}] is not minimal: set [{i}] is a proper subset")
    return problems


def annotations_from(record: Any, turns_of: Mapping[str, Mapping[str, Turn]] | None = None) -> Annotations:
    """The hidden half of a fact line, checked against the episodes' turns when given."""
    task = task_from(record)
    derivation = record.get("derivation")
    if derivation not in DERIVATIONS:
        raise InputError(f"derivation {derivation!r} is not one of {', '.join(DERIVATIONS)}")
    disclosure = _turn_ids(record, "disclosure_turns")
    evidence = _turn_ids(record, "evidence_turns")
    lookalikes = _turn_ids(record, "lookalike_turns") if "lookalike_turns" in record else ()
    if not disclosure:
        raise InputError("no disclosure turn")
    raw_sets = _list(record, "minimal_sufficient_sets")
    sets = []
    for i, raw in enumerate(raw_sets):
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            raise InputError(f"minimal_sufficient_sets[{i}] must be a list of turn ids")
        if len(set(raw)) != len(raw):
            raise InputError(f"minimal_sufficient_sets[{i}] lists a turn twice")
        sets.append(frozenset(raw))
    problems = minimal_set_problems(sets, evidence)
    if problems:
        raise InputError(problems[0])
    both = sorted(set(disclosure) & set(evidence))
    if both:
        raise InputError(f"turn {both[0]!r} is both a disclosure and an evidence turn")
    shared = sorted(set(lookalikes) & (set(disclosure) | set(evidence)))
    if shared:
        raise InputError(f"look-alike turn {shared[0]!r} is also a disclosure or evidence turn")
    question = _object(record.get("question"), "'question'")
    options = _list(question, "options", "question.")
    if len(options) != OPTIONS or not all(isinstance(o, str) and o.strip() for o in options):
        raise InputError(f"question.options must be {OPTIONS} non-empty strings")
    answer = question.get("answer_index")
    if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < OPTIONS:
        raise InputError(f"question.answer_index must be 0 to {OPTIONS - 1}, not {answer!r}")
    if turns_of is not None:
        turns = turns_of.get(task.episode_id)
        if turns is None:
            raise InputError(f"unknown episode {task.episode_id!r}")
        for turn_id in (*disclosure, *evidence, *lookalikes):
            if turn_id not in turns:
                raise InputError(f"episode {task.episode_id!r} has no turn {turn_id!r}")
    return Annotations(
        fact_id=task.fact_id,
        episode_id=task.episode_id,
        owner=task.owner,
        secret=_text(record, "secret"),
        derivation=derivation,
        disclosure_turns=disclosure,
        evidence_turns=evidence,
        minimal_sufficient_sets=tuple(sets),
        lookalike_turns=lookalikes,
        question=Question(_text(question, "text", "question."), tuple(options), answer),
    )


def _read(path: str | Path, parse: Callable[[Any], T], fact_id: Callable[[T], str]) -> Iterator[T]:
    return iter_keyed(path, parse, fact_id, "fact id")


def read_tasks(path: str | Path) -> list[DeletionTask]:
    """The deletion tasks of a ``facts.jsonl``, in file order; annotations left unread."""
    return list(_read(path, task_from, lambda t: t.fact_id))


def read_disclosures(path: str | Path) -> dict[str, tuple[str, ...]]:
    """fact id -> annotated disclosure turns: what the spec hands the reference methods."""

    def parse(record: Any) -> tuple[str, tuple[str, ...]]:
        task = task_from(record)
        disclosure = _turn_ids(record, "disclosure_turns")
        if not disclosure:
            raise InputError("no disclosure turn")
        return task.fact_id, disclosure

    return dict(_read(path, parse, lambda pair: pair[0]))


def read_annotations(
    path: str | Path, episodes: Sequence[ForgettingEpisode] | None = None
) -> dict[str, Annotations]:
    """fact id -> annotations (scoring only), checked against ``episodes`` when given."""
    turns_of = None
    if episodes is not None:
        turns_of = {e.episode_id: {t.turn_id: t for t in e.turns} for e in episodes}
    return {a.fact_id: a for a in _read(path, lambda r: annotations_from(r, turns_of), lambda a: a.fact_id)}


def data_files(data: str | Path) -> tuple[Path, Path]:
    """``(episodes.jsonl, facts.jsonl)`` of a data set folder; a clear error if one is missing."""
    folder = Path(data)
    paths = folder / EPISODES, folder / FACTS
    for path in paths:
        if not path.is_file():
            raise InputError(f"{folder} is not a forgetting data set: no {path.name}")
    return paths
