"""The unsafe-action rate: what an agent chooses from each reading of the store."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from govmem.bench.revocation import read_scenarios, run_revocation
from govmem.bench.revocation_actions import choose, offered
from govmem.errors import LLMError
from govmem.llm import OpenAICompatible
from govmem.llm.response import LLMResponse
from govmem.llm.usage import Usage

OURS = Path(__file__).parents[1] / "fixtures" / "revocation_ours"
RECORDINGS = Path(__file__).parents[1] / "llm" / "recordings"


class Follower:
    """A model that acts on the first record stating either policy: an agent that trusts
    what it is shown, in the order shown (no network)."""

    model = "follower"

    def __init__(self, scenarios: Sequence[Any]):
        self.usage = Usage()
        self.scenarios = {s.task: s for s in scenarios}
        self.prompts: list[str] = []

    def complete(self, messages: str, *, schema: dict, **_: Any) -> LLMResponse:
        self.prompts.append(messages)
        task = messages.split("\n\nTask: ", 1)[1].split("\n\n", 1)[0]
        scenario = self.scenarios[task]
        records = messages.split("\n\nTask: ", 1)[0]
        revoked = records.find(_core(scenario.revoked_text))
        current = records.find(_core(scenario.current_text))
        unsafe = revoked >= 0 and (current < 0 or revoked < current)
        action = scenario.unsafe_action if unsafe else scenario.safe_action
        assert action in schema["properties"]["action"]["enum"]
        return LLMResponse(text=json.dumps({"action": action}), data={"action": action, "reason": "as read"})

    def close(self) -> None: ...


def _core(text: str) -> str:
    return text.split(". ")[0][:60]


def test_the_guard_keeps_an_agent_from_acting_on_revoked_policies(tmp_path: Path) -> None:
    scenarios = read_scenarios(str(OURS))
    model = Follower(scenarios)
    lines: list[str] = []
    report = run_revocation(str(OURS), str(tmp_path), benign=0, echo=lines.append, llm=model)
    measured = report["unsafe_action_rate"]
    families = {s.family for s in scenarios}
    for mode in ("direct", "indirect", "indirect-bare"):
        cells = measured["modes"][mode]
        assert cells.keys() == families == {"rule", "no_rule"}
        assert sum(c["govmem"]["n"] for c in cells.values()) == len(scenarios)
        assert all(c["govmem"]["unsafe"] == 0 and c["govmem"]["rate"] == 0.0 for c in cells.values()), mode
        assert sum(c["guard_off"]["unsafe"] for c in cells.values()) > 0, mode  # the revoked record was there
        assert len(measured["choices"][mode]) == len(scenarios)
    assert len(model.prompts) == 2 * 3 * len(scenarios)
    ruled = [s for s in scenarios if s.rule]
    assert ruled and all(
        sum(f"Standing rule: {s.rule}" in p for p in model.prompts) == 6 for s in ruled
    )  # the rule is in every prompt of its scenario: 3 modes x 2 readings
    assert measured["model"] == "follower"
    written = json.loads((tmp_path / "report.json").read_text())["unsafe_action_rate"]
    assert written["pooled"]["rule"]["govmem"]["unsafe"] == 0
    assert any(line.startswith("| pooled | no_rule | 0.000") for line in "\n".join(lines).splitlines())


def test_both_actions_are_offered_in_an_order_fixed_per_scenario() -> None:
    scenarios = [s.data for s in read_scenarios(str(OURS))]
    orders = [offered(s, seed=7) for s in scenarios]
    pairs = list(zip(orders, scenarios, strict=True))
    assert all(sorted(o) == sorted([s["safe_action"], s["unsafe_action"]]) for o, s in pairs)
    assert orders == [offered(s, seed=7) for s in scenarios]
    assert {o[0] == s["safe_action"] for o, s in pairs} == {True, False}


def _replay(name: str) -> tuple[OpenAICompatible, list[httpx.Request]]:
    sent: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        recorded = json.loads((RECORDINGS / f"{name}.json").read_text(encoding="utf-8"))
        return httpx.Response(recorded["status"], headers=recorded["headers"], json=recorded["body"])

    client = OpenAICompatible(
        "gpt-4o-mini", transport=httpx.MockTransport(handle), api_key="sk-test-1234", sleep=lambda _: None
    )
    return client, sent


def test_a_recorded_reply_gives_the_chosen_action() -> None:
    badges = next(s.data for s in read_scenarios(str(OURS)) if s.scenario_id == "ours_visitor_badges")
    client, sent = _replay("openai_chat_action_choice")
    records = [badges["current_text"]]
    assert choose(client, records, badges, seed=7) == "ASSIGN_ESCORT"
    body = json.loads(sent[0].content)
    schema = body["response_format"]["json_schema"]["schema"]
    assert sorted(schema["properties"]["action"]["enum"]) == ["ASSIGN_ESCORT", "LET_THROUGH"]
    assert badges["current_text"] in body["messages"][-1]["content"]
    assert badges["task"] in body["messages"][-1]["content"]


def test_a_failed_call_is_no_choice() -> None:
    badges = next(s.data for s in read_scenarios(str(OURS)) if s.scenario_id == "ours_visitor_badges")
    client, _ = _replay("openai_error_400")
    assert choose(client, [badges["revoked_text"]], badges, seed=7) is None

    class Broken:
        model, usage = "broken", Usage()

        def complete(self, *_: Any, **__: Any) -> LLMResponse:
            raise LLMError("the endpoint is down")

    assert choose(Broken(), [], badges, seed=7) is None
