"""The forgetting planner: disclosure, evidence trail, reasons, budget, determinism."""

from __future__ import annotations

import pytest
from forgetting_store import CHAIN, DISCLOSURE, EPISODE, store

from govmem.errors import InputError, UnknownPrincipal
from govmem.governance.forgetting import DEFAULT_BUDGET, ForgettingPlan, plan_forgetting
from govmem.governance.forgetting.mentions import CaseProfile, mentions

REQUEST = "Please forget that I told you I'm pregnant."


@pytest.fixture(scope="module")
def memory():
    with store() as memory:
        yield memory


@pytest.fixture(scope="module")
def plan(memory) -> ForgettingPlan:
    return plan_forgetting(memory, REQUEST, "ana", EPISODE)


def test_the_disclosure_is_found_and_chosen_first(plan) -> None:
    assert plan.disclosure[0] == DISCLOSURE
    assert plan.turn_ids[0] == DISCLOSURE
    assert any(r.startswith("disclosure:") for r in plan.candidates[DISCLOSURE])


def test_the_disclosure_is_found_from_a_paraphrase(memory) -> None:
    paraphrase = "Don't keep what I said about expecting a baby, please."
    assert plan_forgetting(memory, paraphrase, "ana", EPISODE).disclosure[0] == DISCLOSURE


def test_a_relation_chain_is_followed_through_names_the_request_never_uses(plan) -> None:
    for turn_id in CHAIN:
        assert turn_id in plan.turn_ids, (turn_id, plan.candidates.get(turn_id))
    # "Dropped by Quarry Road again" shares no word with the request: reached through the clinic
    reasons = " ".join(plan.candidates["t063"])
    assert "quarry road" in reasons and "hops from the disclosure" in reasons


def test_the_owners_own_link_into_the_chain_scores_through_the_links_channel(plan) -> None:
    # Okafor (disclosure) -> Lindell (t031) -> Quarry Road (t047): Ana's own turn naming the
    # street is her link into the chain; Jonas's turn on the chain is not a requester's link
    linked = "the requester names a name linked to the disclosure"
    assert any(r.startswith(linked) for r in plan.candidates["t063"])
    assert not any(r.startswith(linked) for r in plan.candidates["t047"])


def test_every_candidate_carries_reasons_and_every_choice_says_why(plan) -> None:
    assert plan.candidates and all(plan.candidates[t] for t in plan.candidates)
    for turn_id in plan.turn_ids:
        assert any(r.startswith("selected") for r in plan.candidates[turn_id]), turn_id


def test_the_look_alike_of_another_speaker_is_not_the_disclosure(plan) -> None:
    assert "t012" not in plan.disclosure


def test_the_plan_is_deterministic() -> None:
    with store() as first, store() as second:
        a = plan_forgetting(first, REQUEST, "ana", EPISODE)
        b = plan_forgetting(second, REQUEST, "ana", EPISODE)
    assert a.turn_ids == b.turn_ids and a.candidates == b.candidates and a.scores == b.scores


def test_the_budget_is_respected(memory) -> None:
    assert len(plan_forgetting(memory, REQUEST, "ana", EPISODE).turn_ids) <= DEFAULT_BUDGET
    small = plan_forgetting(memory, REQUEST, "ana", EPISODE, budget=2)
    assert len(small.turn_ids) == 2 and small.turn_ids[0] == DISCLOSURE
    assert plan_forgetting(memory, REQUEST, "ana", EPISODE, budget=0).turn_ids == []
    with pytest.raises(InputError, match="negative"):
        plan_forgetting(memory, REQUEST, "ana", EPISODE, budget=-1)


def test_bad_requests_are_clear_errors(memory) -> None:
    with pytest.raises(InputError, match="needs its text"):
        plan_forgetting(memory, "  ", "ana", EPISODE)
    with pytest.raises(UnknownPrincipal):
        plan_forgetting(memory, REQUEST, "nobody", EPISODE)
    with pytest.raises(InputError, match="no turns in episode 'elsewhere'"):
        plan_forgetting(memory, REQUEST, "ana", "elsewhere")


def test_mentions_are_names_numbers_amounts_dates_and_code_pieces() -> None:
    texts = [
        "Moved the boxes out. Dr. Okafor works at the Lindell Women's Clinic.",
        "I moved the boxes and the Lindell staff waved. My PIN is 4817; I owe £2,280 since 8 May.",
    ]
    profile = CaseProfile(texts)
    first = mentions(texts[0], profile)
    assert "name:okafor" in first and "name:lindell women" not in first
    assert any(k.startswith("name:lindell") for k in first) and not any("moved" in k for k in first)
    second = mentions(texts[1], profile)
    assert {"num:4817", "num:48", "num:17", "amt:£2280", "date:05-08", "month:05"} <= set(second)
