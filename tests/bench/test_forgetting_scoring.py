"""The forgetting metrics on hand-made facts: derivability, counts, coverage, recovery, hidden risk."""

from __future__ import annotations

import pytest

from govmem.bench.forgetting_data import Annotations, Question
from govmem.bench.forgetting_scoring import (
    FULL,
    Outcome,
    derivable,
    fact_row,
    oracle_recovers,
    score,
    summarize,
)


def fact(fact_id: str = "f1", derivation: str = "relation_chain") -> Annotations:
    """Disclosure d; evidence e1..e4; sets {e1, e2} and {e3, e4}; look-alike l."""
    return Annotations(
        fact_id=fact_id,
        episode_id="ep",
        owner="ana",
        secret="Ana is pregnant",
        derivation=derivation,
        disclosure_turns=("d",),
        evidence_turns=("e1", "e2", "e3", "e4"),
        minimal_sufficient_sets=(frozenset({"e1", "e2"}), frozenset({"e3", "e4"})),
        lookalike_turns=("l",),
        question=Question("Which is true?", ("a", "b", "c", "d"), 1),
    )


def outcome(deleted: set[str], candidates: set[str] | None = None, **kwargs) -> Outcome:
    return Outcome(
        "f1",
        "S1",
        "turn",
        frozenset(deleted),
        None if candidates is None else frozenset(candidates),
        **kwargs,
    )


@pytest.mark.parametrize(
    ("deleted", "expected"),
    [
        (set(), True),  # nothing deleted
        ({"e1", "e3"}, True),  # the disclosure survives
        ({"d"}, True),  # S0: both sets intact
        ({"d", "e1"}, True),  # {e3, e4} intact
        ({"d", "e1", "e4"}, False),  # every set hit
        ({"d", "e2", "e3", "x", "y"}, False),
    ],
)
def test_derivable(deleted: set[str], expected: bool) -> None:
    assert derivable(fact(), deleted) is expected


def test_oracle_reader_needs_a_disclosure_or_a_whole_set() -> None:
    assert oracle_recovers(fact(), {"d"})
    assert oracle_recovers(fact(), {"e3", "e4", "l"})
    assert not oracle_recovers(fact(), {"e1", "e3", "l"})
    assert not oracle_recovers(fact(), set())


def test_counts_and_coverage() -> None:
    row = fact_row(fact(), outcome({"d", "e1", "e4", "l", "x"}, {"d", "e1", "e2", "l", "x", "y"}))
    assert row["deleted"] == 5
    assert row["evidence_deleted"] == 2
    assert row["collateral"] == 2  # the look-alike and x: neither disclosure nor evidence
    assert row["coverage"] == 0.5  # e1 and e2 of four evidence turns were candidates
    assert row["disclosure_deleted"] is True
    assert row["derivable"] is False
    assert row["native"] is None and row["residual"] is None  # nothing measured
    assert fact_row(fact(), outcome({"e1"}))["coverage"] is None  # no candidate pool (Full)


def test_recovery_and_hidden_risk() -> None:
    hidden = fact_row(
        fact(), outcome({"d"}, set(), native_turns=frozenset({"l"}), residual_turns=frozenset({"e1", "e2"}))
    )
    seen = fact_row(
        fact(),
        outcome({"d"}, set(), native_turns=frozenset({"e3", "e4"}), residual_turns=frozenset({"e3", "e4"})),
    )
    gone = fact_row(
        fact(), outcome({"d", "e1", "e3"}, set(), native_turns=frozenset(), residual_turns=frozenset({"e2"}))
    )
    summary = summarize([hidden, seen, gone])
    assert summary["native_recovery"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["residual_recovery"] == pytest.approx(2 / 3, abs=1e-4)
    assert summary["hidden_risk_share"] == 0.5  # (2/3 - 1/3) / (2/3)
    assert summary["residual_derivability"] == pytest.approx(2 / 3, abs=1e-4)
    assert summary["cut_rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert summarize([gone])["hidden_risk_share"] is None  # no residual recovery: undefined


def test_llm_reader_verdicts_are_used_when_asked() -> None:
    row = fact_row(fact(), outcome({"d"}, set(), llm_native=False, llm_residual=True), reader="llm")
    assert (row["native"], row["residual"]) == (False, True)


def test_score_by_method_and_derivation() -> None:
    facts = {"f1": fact("f1", "relation_chain"), "f2": fact("f2", "aggregation")}
    outcomes = [
        Outcome("f1", FULL, "turn", frozenset(), None),
        Outcome("f2", FULL, "turn", frozenset(), None),
        Outcome("f1", "S0", "turn", frozenset({"d"}), frozenset({"d"})),
        Outcome("f2", "S0", "turn", frozenset({"d", "e1", "e3"}), frozenset({"d"})),
    ]
    result = score(facts, outcomes)["turn"]
    assert list(result) == [FULL, "S0"]
    assert result["S0"]["all"]["residual_derivability"] == 0.5
    assert result["S0"]["by_derivation"]["aggregation"]["residual_derivability"] == 0.0
    assert result["S0"]["by_derivation"]["relation_chain"]["residual_derivability"] == 1.0
    assert result[FULL]["all"]["deleted_turns"] == 0.0
    assert result[FULL]["all"]["candidate_coverage"] is None
    with pytest.raises(ValueError, match="fact 'f9'"):
        score(facts, [Outcome("f9", "S0", "turn", frozenset(), None)])
