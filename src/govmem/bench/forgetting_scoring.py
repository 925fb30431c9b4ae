"""The forgetting benchmark's metrics, exactly as ``../shared/specs/forgetting-bench.md`` defines them.

With D the deleted source turns of a fact (its closure, in turns):

- **derivable**: a disclosure turn survives, or some minimal sufficient set has no
  turn in D (MemCut's definition; no language model involved). **Residual
  derivability** is the share of facts still derivable; **cut rate** is 1 minus it.
- **deleted**, **evidence deleted** and **collateral** (deleted turns that are neither
  disclosure nor evidence) turns per fact, as means.
- **candidate coverage**: the share of a fact's evidence turns that entered the
  method's candidate pool (mean over facts; undefined for Full).
- **native recovery**: the reader answers from the system's own retrieval for the
  question, as the owner; **residual recovery**: from every surviving object traced
  to the fact's disclosure or evidence turns. The ``oracle`` reader succeeds iff what
  it is given (the source turns of the objects) holds a disclosure turn or a complete
  minimal sufficient set; the ``llm`` reader's verdicts are recorded at run time.
  **hidden-risk share** = (residual - native) / residual, when residual > 0.

Everything is reported per method, pooled and per derivation type; ``Full`` is the
store before any deletion. :func:`score` needs only the annotations and the run's
lines, so any run can be re-scored (:func:`rescore`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from govmem.bench.forgetting_data import DERIVATIONS, Annotations, data_files, read_annotations, read_episodes
from govmem.errors import InputError, LoadError
from govmem.loaders.jsonl import iter_records

FULL = "Full"
DELETIONS = "deletions.jsonl"
RECOVERY = "recovery.jsonl"


@dataclass(frozen=True)
class Outcome:
    """What one method did to one fact, and what the readers could recover afterwards."""

    fact_id: str
    method: str
    design: str
    deleted: frozenset[str]
    candidates: frozenset[str] | None
    native_turns: frozenset[str] | None = None
    residual_turns: frozenset[str] | None = None
    llm_native: bool | None = None
    llm_residual: bool | None = None


def derivable(annotations: Annotations, deleted: Iterable[str]) -> bool:
    """A disclosure turn survives, or some minimal sufficient set is untouched."""
    gone = set(deleted)
    if any(turn not in gone for turn in annotations.disclosure_turns):
        return True
    return any(not (chosen & gone) for chosen in annotations.minimal_sufficient_sets)


def oracle_recovers(annotations: Annotations, given: Iterable[str]) -> bool:
    """The oracle reader: ``given`` holds a disclosure turn or a whole minimal sufficient set."""
    present = set(given)
    if any(turn in present for turn in annotations.disclosure_turns):
        return True
    return any(chosen <= present for chosen in annotations.minimal_sufficient_sets)


def fact_row(annotations: Annotations, outcome: Outcome, reader: str = "oracle") -> dict[str, Any]:
    """The per-fact figures the summaries average."""
    deleted = outcome.deleted
    evidence = set(annotations.evidence_turns)
    disclosure = set(annotations.disclosure_turns)
    row: dict[str, Any] = {
        "derivable": derivable(annotations, deleted),
        "deleted": len(deleted),
        "evidence_deleted": len(deleted & evidence),
        "collateral": len(deleted - evidence - disclosure),
        "disclosure_deleted": disclosure <= deleted,
        "coverage": None,
        "native": None,
        "residual": None,
    }
    if outcome.candidates is not None and evidence:
        row["coverage"] = len(outcome.candidates & evidence) / len(evidence)
    if reader == "llm":
        row["native"], row["residual"] = outcome.llm_native, outcome.llm_residual
    else:
        if outcome.native_turns is not None:
            row["native"] = oracle_recovers(annotations, outcome.native_turns)
        if outcome.residual_turns is not None:
            row["residual"] = oracle_recovers(annotations, outcome.residual_turns)
    return row


def _mean(values: Sequence[float | bool | None]) -> float | None:
    known = [float(v) for v in values if v is not None]
    return sum(known) / len(known) if known else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Means over facts; rates are shares of facts."""
    derivability = _mean([r["derivable"] for r in rows])
    native = _mean([r["native"] for r in rows])
    residual = _mean([r["residual"] for r in rows])
    hidden = (residual - native) / residual if native is not None and residual else None
    return {
        "facts": len(rows),
        "residual_derivability": _round(derivability),
        "cut_rate": None if derivability is None else _round(1 - derivability),
        "deleted_turns": _round(_mean([r["deleted"] for r in rows])),
        "evidence_turns_deleted": _round(_mean([r["evidence_deleted"] for r in rows])),
        "collateral_turns": _round(_mean([r["collateral"] for r in rows])),
        "candidate_coverage": _round(_mean([r["coverage"] for r in rows])),
        "disclosure_deleted": _round(_mean([r["disclosure_deleted"] for r in rows])),
        "native_recovery": _round(native),
        "residual_recovery": _round(residual),
        "hidden_risk_share": _round(hidden),
    }


def score(
    annotations: Mapping[str, Annotations], outcomes: Iterable[Outcome], reader: str = "oracle"
) -> dict[str, dict[str, dict[str, Any]]]:
    """``{design: {method: {"all": summary, "by_derivation": {type: summary}}}}``.

    Every outcome must name a known fact; methods keep the order they first appear in.
    """
    rows: dict[str, dict[str, list[tuple[str, dict[str, Any]]]]] = {}
    for outcome in outcomes:
        fact = annotations.get(outcome.fact_id)
        if fact is None:
            raise InputError(f"the run names fact {outcome.fact_id!r}, which the data set does not have")
        rows.setdefault(outcome.design, {}).setdefault(outcome.method, []).append(
            (fact.derivation, fact_row(fact, outcome, reader))
        )
    result: dict[str, dict[str, dict[str, Any]]] = {}
    for design, methods in rows.items():
        result[design] = {}
        for method, found in methods.items():
            by_type = {
                derivation: summarize([row for d, row in found if d == derivation])
                for derivation in DERIVATIONS
                if any(d == derivation for d, _ in found)
            }
            result[design][method] = {"all": summarize([row for _, row in found]), "by_derivation": by_type}
    return result


# Run files


def _ids(record: Mapping[str, Any], key: str, required: bool = True) -> frozenset[str] | None:
    value = record.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{key!r} must be a list of turn ids")
    return frozenset(value)


def _text(record: Mapping[str, Any], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value:
        raise InputError(f"missing or empty {key!r}")
    return value


def read_outcomes(folder: str | Path) -> list[Outcome]:
    """Outcomes from a run folder's ``deletions.jsonl`` and, when present, ``recovery.jsonl``."""
    folder = Path(folder)
    deletions = folder / DELETIONS
    outcomes: dict[tuple[str, str, str], Outcome] = {}
    for number, record in iter_records(deletions):
        try:
            if not isinstance(record, dict):
                raise InputError("expected a JSON object")
            key = (_text(record, "fact_id"), _text(record, "method"), str(record.get("design") or "turn"))
            if key in outcomes:
                raise InputError(f"fact {key[0]!r} and method {key[1]!r} appear twice")
            outcomes[key] = Outcome(
                *key,
                deleted=_ids(record, "deleted_turn_ids"),
                candidates=_ids(record, "candidate_turn_ids", required=False),
            )
        except InputError as exc:
            raise LoadError(str(deletions), number, str(exc)) from None
    recovery = folder / RECOVERY
    if recovery.is_file():
        for number, record in iter_records(recovery):
            try:
                if not isinstance(record, dict):
                    raise InputError("expected a JSON object")
                key = (_text(record, "fact_id"), _text(record, "method"), str(record.get("design") or "turn"))
                if key not in outcomes:
                    if key[1] != FULL:
                        raise InputError(f"no deletion line for fact {key[0]!r} and method {key[1]!r}")
                    outcomes[key] = Outcome(*key, deleted=frozenset(), candidates=None)
                llm = record.get("llm") or {}
                outcomes[key] = Outcome(
                    *key,
                    deleted=outcomes[key].deleted,
                    candidates=outcomes[key].candidates,
                    native_turns=_ids(record, "native_turn_ids", required=False),
                    residual_turns=_ids(record, "residual_turn_ids", required=False),
                    llm_native=llm.get("native"),
                    llm_residual=llm.get("residual"),
                )
            except InputError as exc:
                raise LoadError(str(recovery), number, str(exc)) from None
    return list(outcomes.values())


def rescore(data: str | Path, run: str | Path, reader: str = "oracle") -> dict[str, Any]:
    """Recompute every metric of a run from the data set and the run's files."""
    episodes_path, facts_path = data_files(data)
    annotations = read_annotations(facts_path, read_episodes(episodes_path))
    return score(annotations, read_outcomes(run), reader)
