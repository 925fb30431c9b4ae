"""The forgetting-data generator: same seed same bytes, and every guarantee the spec asks of a data set."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from forgetting_helpers import TINY, fact_lines, write_tiny

from govmem.bench.forgetting_data import (
    DERIVATIONS,
    MAX_SET,
    MIN_SET,
    minimal_set_problems,
    read_annotations,
    read_episodes,
)
from govmem.bench.forgetting_generator import GeneratorSettings, generate
from govmem.bench.forgetting_scenarios import FAMILIES, Cast, route_sets
from govmem.errors import InputError

STOP = frozenset(
    re.findall(
        r"\S+",
        "a an the i i'm me my we our you your it is are was to of in on at for and or that this with be "
        "about what where anything everything all please can could don't do from it's its",
    )
)


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z']+", text.lower()) if w not in STOP and len(w) > 2}


def test_same_seed_same_bytes(tmp_path: Path, tiny_forgetting_data: Path) -> None:
    again = write_tiny(tmp_path / "again")
    for name in ("episodes.jsonl", "facts.jsonl"):
        assert (again / name).read_bytes() == (tiny_forgetting_data / name).read_bytes()
    other = tmp_path / "other"
    generate(other, GeneratorSettings(2, 300, 4, seed=8))
    assert (other / "facts.jsonl").read_bytes() != (tiny_forgetting_data / "facts.jsonl").read_bytes()


def test_data_set_is_valid(tiny_forgetting_data: Path) -> None:
    episodes = read_episodes(tiny_forgetting_data / "episodes.jsonl")  # ids unique, order, speakers
    annotations = read_annotations(
        tiny_forgetting_data / "facts.jsonl", episodes
    )  # sets minimal, turns exist
    assert len(episodes) == TINY.episodes
    assert all(len(e.turns) == TINY.turns_per_episode for e in episodes)
    assert len({p.principal_id for p in episodes[0].principals}) >= 3
    turn_of = {t.turn_id: t for e in episodes for t in e.turns}
    position = {t.turn_id: i for e in episodes for i, t in enumerate(e.turns)}
    assert {a.derivation for a in annotations.values()} == set(DERIVATIONS)
    for fact in annotations.values():
        assert minimal_set_problems(fact.minimal_sufficient_sets, fact.evidence_turns) == []
        assert all(MIN_SET <= len(s) <= MAX_SET for s in fact.minimal_sufficient_sets)
        assert set().union(*fact.minimal_sufficient_sets) == set(fact.evidence_turns)
        answer = fact.question.options[fact.question.answer_index]
        disclosure = turn_of[fact.disclosure_turns[0]]
        for turn_id in fact.evidence_turns:
            text = turn_of[turn_id].text.lower()
            assert fact.secret.lower() not in text
            assert answer.lower() not in text or len(answer) < 3
            assert turn_of[turn_id].session_id != disclosure.session_id  # spread from the disclosure
            assert abs(position[turn_id] - position[disclosure.turn_id]) >= 10
        assert fact.lookalike_turns


def test_evidence_rarely_shares_words_with_the_request(tmp_path: Path) -> None:
    """The point of MemCut: evidence implies the secret without the request's words."""
    folder = tmp_path / "wide"
    generate(folder, GeneratorSettings(4, 600, 8, seed=3))
    turn_text = {t.turn_id: t.text for e in read_episodes(folder / "episodes.jsonl") for t in e.turns}
    shared = total = 0
    for fact in fact_lines(folder):
        request = words(fact["deletion_request"]["text"])
        for turn_id in fact["evidence_turns"]:
            total += 1
            shared += bool(words(turn_text[turn_id]) & request)
        for turn_id in fact["disclosure_turns"]:  # the disclosure is what a request can find
            assert turn_id in turn_text
    assert shared / total < 0.3, f"{shared} of {total} evidence turns share a word with the request"


def test_ordered_links_are_placed_in_order() -> None:
    """A state is described before its change: each link of an ordered family comes after the last."""
    import random

    from govmem.bench.forgetting_generator import Placement, place_fact, skeleton
    from govmem.bench.forgetting_scenarios import state_change

    for seed in range(10):
        rng = random.Random(seed)
        draft = state_change(rng, Cast(rng, "Ana", ["Jonas"]))
        assert draft.ordered
        placement = Placement(rng, skeleton(rng, 400, ["ana", "jonas"]))
        place_fact(rng, placement, draft, "ana", ["ana", "jonas"], gap=20)
        position = {slot.text: i for i, slot in enumerate(placement.sk.slots) if slot.text}
        links = [[position[line.text] for line in link] for link in draft.routes[0]]
        for earlier, later in itertools.pairwise(links):
            assert max(earlier) < min(later)


def test_route_sets_are_one_turn_per_link() -> None:
    assert route_sets([[["a", "b"], ["c"]], [["a", "b"], ["d"], ["e"]]]) == [
        ("a", "c"),
        ("b", "c"),
        ("a", "d", "e"),
        ("b", "d", "e"),
    ]


@pytest.mark.parametrize("derivation", DERIVATIONS)
def test_every_family_draws(derivation: str) -> None:
    import random

    for family in FAMILIES[derivation]:
        for seed in range(20):
            rng = random.Random(seed)
            draft = family(rng, Cast(rng, "Ana", ["Jonas", "Priya"]))
            assert draft.derivation == derivation
            assert draft.answer not in draft.wrong and len(set(draft.wrong)) >= 3
            sets = route_sets([[[id(line) for line in link] for link in route] for route in draft.routes])
            assert all(MIN_SET <= len(s) <= MAX_SET for s in sets)


def test_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="need at least 400 turns"):
        generate(tmp_path, GeneratorSettings(1, 100, 10))
    with pytest.raises(InputError, match="at least 1"):
        generate(tmp_path, GeneratorSettings(0, 1500, 10))
