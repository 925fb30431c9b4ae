"""A deletion request end to end: closure deletion, the audit loop, the signed receipt,
all or nothing, the CLI and the LLM selector (fake replies only)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from forgetting_store import CHAIN, DISCLOSURE, EPISODE, SPECIAL, store

from govmem.api.cli import main
from govmem.errors import InputError, LLMError
from govmem.governance.forgetting import Candidate, LLMSelector, ScoreSelector
from govmem.governance.forgetting.audit import AuditBudget
from govmem.governance.receipts import check, verify

REQUEST = "Please forget that I told you I'm pregnant."


@pytest.fixture(scope="module")
def forgotten():
    with store(designs=("turn", "session")) as memory:
        before = memory.store.counts()
        report = memory.forget_request(REQUEST, "ana", EPISODE)
        yield memory, report, before


def test_the_plan_is_deleted_by_closure(forgotten) -> None:
    memory, report, before = forgotten
    assert DISCLOSURE in report.turn_ids and set(CHAIN) <= set(report.turn_ids)
    assert not memory.store.turn_keys(EPISODE, report.turn_ids)
    kept = memory.store.counts()
    assert kept["turns"] == before["turns"] - report.turns
    for item in memory.export("ana"):  # no surviving object draws on a deleted turn
        assert not set(item.sources) & set(report.turn_ids)


def test_the_receipt_verifies_and_holds_no_text(forgotten) -> None:
    _, report, _ = forgotten
    receipt = report.receipt
    assert verify(receipt) and receipt["kind"] == "request"
    assert {t["turn_id"] for t in receipt["turns_deleted"]} == set(report.turn_ids)
    assert DISCLOSURE in receipt["plan"]["disclosure_turns"] and report.plan.disclosure[0] == DISCLOSURE
    assert receipt["collateral"] == report.turns - 1  # all but the best disclosure candidate
    assert receipt["audit"]["probe"] == "residual-recovery"
    text = json.dumps(receipt)
    assert "pregnant" not in text.lower() and "Okafor" not in text and "Quarry" not in text
    assert len(receipt["request"]["request_sha256"]) == 64


@pytest.mark.parametrize("field", ["collateral", "audit", "plan", "turns_deleted", "request"])
def test_an_altered_receipt_fails(forgotten, field: str) -> None:
    receipt = json.loads(json.dumps(forgotten[1].receipt))
    receipt[field] = {"collateral": 0, "audit": {"passed": True}}.get(field, [])
    assert check(receipt) == "the signature does not match the content"


def test_the_receipt_is_stored_with_the_others(forgotten) -> None:
    memory, report, _ = forgotten
    assert memory.receipts()[-1] == report.receipt


def test_the_audit_stops_within_its_budget() -> None:
    with store() as memory:
        report = memory.forget_request(
            REQUEST, "ana", EPISODE, budget=2, audit=AuditBudget(rounds=1, turns=3)
        )
        audit = report.receipt["audit"]
        assert audit["rounds"] <= 1 and sum(audit["turns_added"]) <= 3
        assert report.turns <= 2 + 3
        assert len(report.receipt["plan"]["audit_turns"]) == sum(audit["turns_added"])
    with store() as memory:
        report = memory.forget_request(REQUEST, "ana", EPISODE, budget=2, audit=AuditBudget(rounds=0))
        assert report.turns == 2 and report.receipt["audit"]["rounds"] == 0
    with pytest.raises(InputError):
        AuditBudget(rounds=-1)


def test_the_audit_adds_support_the_plan_left(forgotten) -> None:
    with store() as memory:
        report = memory.forget_request(
            REQUEST, "ana", EPISODE, budget=2, audit=AuditBudget(rounds=3, turns=6)
        )
        added = report.receipt["plan"]["audit_turns"]
        assert added, report.receipt["audit"]
        for turn_id in added:
            assert any("selected by the audit" in r for r in report.plan.candidates[turn_id])


def test_a_failure_mid_way_rolls_everything_back(monkeypatch) -> None:
    with store() as memory:
        before = memory.store.counts()
        receipts = len(memory.receipts())

        def fail(*args, **kwargs):
            raise RuntimeError("killed mid-way")

        monkeypatch.setattr(memory.store, "delete_turns", fail)
        with pytest.raises(RuntimeError):
            memory.forget_request(REQUEST, "ana", EPISODE)
        monkeypatch.undo()
        assert memory.store.counts() == before and len(memory.receipts()) == receipts
        assert memory.store.turn_keys(EPISODE, [DISCLOSURE])


def test_bad_requests_are_clear_errors() -> None:
    with store() as memory:
        with pytest.raises(InputError, match="needs its text"):
            memory.forget_request("", "ana", EPISODE)
        with pytest.raises(InputError, match="no turns in episode"):
            memory.forget_request(REQUEST, "ana", "elsewhere")


def test_the_cli_forgets_a_request_and_verifies_its_receipt(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    store(db).close()
    runner = CliRunner()
    receipt_file = tmp_path / "receipt.json"
    result = runner.invoke(
        main,
        ["--db", db, "forget", "--request", REQUEST, "--as", "ana", "--episode", EPISODE,
         "--receipt", str(receipt_file)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "as the disclosure" in result.output and "audit" in result.output
    verified = runner.invoke(main, ["--db", db, "receipt", "verify", str(receipt_file)])
    assert verified.exit_code == 0, verified.output
    receipt = json.loads(receipt_file.read_text())
    receipt["collateral"] += 1
    receipt_file.write_text(json.dumps(receipt))
    assert runner.invoke(main, ["--db", db, "receipt", "verify", str(receipt_file)]).exit_code != 0
    missing = runner.invoke(main, ["--db", db, "forget", "--request", REQUEST, "--episode", EPISODE])
    assert missing.exit_code != 0 and "--as PRINCIPAL" in missing.output


class FakeModel:
    model = "fake"

    def __init__(self, reply: dict | None = None, fail: bool = False):
        self.reply, self.fail, self.calls = reply, fail, []

    def complete(self, prompt, **kwargs):
        self.calls.append((prompt, kwargs))
        if self.fail:
            raise LLMError("down")
        return type("Reply", (), {"data": self.reply})()


CANDIDATES = [
    Candidate("t1", 1, "Dr. Okafor works at the clinic.", 0.9),
    Candidate("t2", 2, "The printer is jammed.", 0.5),
    Candidate("t3", 3, "Dropped by Quarry Road again.", 0.4),
]
SHOWN = [Candidate("t0", 0, "I'm pregnant.", 1.0)]


def test_the_llm_selector_keeps_only_candidates_within_budget() -> None:
    model = FakeModel({"delete": [{"id": "t3", "why": "the clinic's street"}, {"id": "t9", "why": "x"},
                                  {"id": "t1", "why": "the doctor"}, {"id": "t2", "why": "z"}]})  # fmt: skip
    chosen = LLMSelector(model).select(REQUEST, SHOWN, CANDIDATES, 2)
    assert [t for t, _ in chosen] == ["t3", "t1"]
    assert "selected by fake" in chosen[0][1]
    prompt, kwargs = model.calls[0]
    assert "I'm pregnant." in prompt and kwargs["sources"] == [0, 1, 2, 3] and kwargs["schema"]


@pytest.mark.parametrize("model", [FakeModel(fail=True), FakeModel({"delete": []}), FakeModel(None)])
def test_the_llm_selector_falls_back_to_scores(model) -> None:
    selector = LLMSelector(model)
    chosen = selector.select(REQUEST, SHOWN, CANDIDATES, 2)
    assert chosen == ScoreSelector().select(REQUEST, SHOWN, CANDIDATES, 2) and selector.fallbacks == 1


def test_forget_request_takes_a_selector() -> None:
    with store() as memory:
        model = FakeModel({"delete": [{"id": "t063", "why": "the clinic's street"}]})
        report = memory.forget_request(REQUEST, "ana", EPISODE, selector=LLMSelector(model))
        assert "t063" in report.turn_ids and DISCLOSURE in report.turn_ids
        assert SPECIAL[DISCLOSURE][1] in model.calls[0][0]
