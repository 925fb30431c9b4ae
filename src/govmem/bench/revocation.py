"""``govmem bench revocation``: the revocation benchmark of ../shared/specs/revocation-bench.md.

For each scenario and insertion mode a fresh store receives the revoked record,
an agent's write-back note derived from a read of it, the replacement, then the
distractors. ``direct`` marks the supersession through the API
(``ingest(..., supersedes=...)``); ``indirect`` wraps the texts as two dated
issues of a document; ``indirect-bare`` stores the two texts alone, a year apart.
Every read surface of :class:`~govmem.api.memory.Memory` is then measured
(recall with the query and with the task, get by id of every stored object,
export, provenance of the revoked turn) for each agent role (executor, reviewer,
planner) reading the same store. Records are counted at the level of source
turns: an object "returns the revoked record" when it is served as current with
the revoked turn among its sources.

The stores use :class:`~govmem.governance.authorization.OpenAccess`: the benchmark
measures revocation, not access control, and every role may read every policy.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from govmem.api.memory import Memory
from govmem.bench.revocation_actions import READINGS, choose, count, empty_cell, has_actions, judged, rate
from govmem.bench.revocation_benign import benign_policies
from govmem.errors import InputError, LoadError, NotVisible
from govmem.governance.authorization import OpenAccess
from govmem.llm.client import LLMClient
from govmem.models import Turn
from govmem.read_path.recall import RecallItem

MODES = ("direct", "indirect", "indirect-bare")
ROLES = ("executor", "reviewer", "planner")
REQUIRED = (
    "scenario_id",
    "document",
    "subject",
    "revoked_text",
    "current_text",
    "distractors",
    "query",
    "task",
)
OLD_AT, NOTE_AT, NEW_AT = "2024-03-01T09:00:00", "2024-06-01T09:00:00", "2025-03-01T09:00:00"
K = 10


@dataclass(frozen=True)
class Scenario:
    data: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.data[name]
        except KeyError:
            raise AttributeError(name) from None


def read_scenarios(folder: str) -> list[Scenario]:
    path = os.path.join(folder, "scenarios.jsonl")
    if not os.path.exists(path):
        raise InputError(f"{folder}: no scenarios.jsonl")
    scenarios = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise LoadError(path, number, f"not JSON ({exc.msg})") from None
            if not isinstance(data, dict):
                raise LoadError(path, number, "a scenario must be a JSON object")
            missing = [k for k in REQUIRED if k not in data]
            if missing:
                raise LoadError(path, number, f"scenario has no {missing[0]!r}")
            if not isinstance(data["distractors"], list):
                raise LoadError(path, number, "distractors must be a list of texts")
            scenarios.append(Scenario(data))
    if not scenarios:
        raise InputError(f"{path}: no scenarios")
    return scenarios


def texts_for(scenario: Scenario, mode: str) -> tuple[str, str]:
    """The revoked and current records as the mode inserts them (the spec's wording)."""
    if mode == "indirect":
        return (
            f"{scenario.document}, issued in 2024, governs {scenario.subject}. "
            f"It states: {scenario.revoked_text}",
            f"{scenario.document} has been revised and now supersedes the 2024 issue. It governs "
            f"{scenario.subject} and states: {scenario.current_text}",
        )
    return scenario.revoked_text, scenario.current_text


def _new_store() -> Memory:
    memory = Memory(":memory:", authorizer=OpenAccess(), interpreter=None, detect_supersession="records")
    memory.add_principal("policy_office", "staff")
    for role in (*ROLES, "auditor"):
        memory.add_principal(role, "agent")
    memory.add_auditor("auditor")
    return memory


def _read(
    items: Sequence[RecallItem], withheld: Sequence[dict], ids: dict[str, str], memory: Memory | None = None
) -> dict:
    """One read as reads.jsonl holds it, with each record's role in the scenario (the
    sources of a withheld object are looked up in the store: the read names only its id)."""

    def roles_of(sources: Sequence[str]) -> list[str]:
        return sorted({ids[s] for s in sources if s in ids})

    withheld = [dict(w) for w in withheld]
    if memory is not None:
        keys = [int(w["object_id"].rsplit("-", 1)[1]) for w in withheld if "records" not in w]
        found = {o.object_id: o for o in memory.store.get_objects(keys).values()}
        for w in withheld:
            if "records" not in w and w["object_id"] in found:
                w["records"] = roles_of(found[w["object_id"]].sources)

    return {
        "returned": [
            {"object_id": i.object_id, "status": i.status, "records": roles_of(i.sources), "rank": rank}
            for rank, i in enumerate(items, 1)
        ],
        "withheld": withheld,
    }


def run_scenario(
    scenario: Scenario, mode: str, llm: LLMClient | None = None, seed: int = 7
) -> tuple[dict, list[dict]]:
    """Metrics of one scenario in one mode, and its reads; with ``llm``, also the action
    a model picks from each reading of the task (:mod:`.revocation_actions`)."""
    revoked_text, current_text = texts_for(scenario, mode)
    ids = {"old": "revoked", "new": "current", "note": "note"}
    ids.update({f"d{i}": "distractor" for i in range(len(scenario.distractors))})
    memory = _new_store()
    conflicts: list[dict] = []
    try:
        memory.ingest(Turn("old", "policy_office", revoked_text, timestamp=OLD_AT, session_id="issue-2024"))
        first = memory.recall("executor", scenario.query, k=K)  # the executor reads before the revision
        note = f"Executor's note on {scenario.query!r}: " + " ".join(i.text for i in first.items[:1])
        memory.remember(
            "executor", note, [i.object_id for i in first.items[:3]], turn_id="note", timestamp=NOTE_AT
        )
        supersedes = ["old"] if mode == "direct" else []
        report = memory.ingest(
            Turn("new", "policy_office", current_text, timestamp=NEW_AT, session_id="issue-2025"),
            supersedes=supersedes,
        )
        conflicts += report.conflicts
        for i, text in enumerate(scenario.distractors):
            conflicts += memory.ingest(
                Turn(f"d{i}", "policy_office", text, timestamp=NEW_AT, session_id="other")
            ).conflicts
        reads = _surfaces(memory, scenario, ids)
        audit = memory.recall("auditor", scenario.query, k=K, include_revoked=True)
        reads.append(
            {"surface": "audit-recall", "role": "auditor", **_read(audit.items, audit.withheld, ids, memory)}
        )
        actions = (
            _actions(memory, scenario, llm, seed) if llm is not None and has_actions(scenario.data) else None
        )
    finally:
        memory.close()
    metrics = _metrics(reads, conflicts)
    if actions is not None:
        metrics["actions"] = actions
    return metrics, reads


def _actions(memory: Memory, scenario: Scenario, llm: LLMClient, seed: int) -> dict[str, dict]:
    """The action the model picks from govmem's read of the task and from the same store
    read with the guard off (every record, no status)."""
    guarded = memory.recall("executor", scenario.task, k=K)
    unguarded = memory.recall("auditor", scenario.task, k=K, include_revoked=True)
    return {
        "govmem": judged(choose(llm, [i.text for i in guarded.items], scenario.data, seed), scenario.data),
        "guard_off": judged(
            choose(llm, [i.text for i in unguarded.items], scenario.data, seed), scenario.data
        ),
    }


def _surfaces(memory: Memory, scenario: Scenario, ids: dict[str, str]) -> list[dict]:
    reads = []
    for role in ROLES:
        for surface, question in (("recall", scenario.query), ("recall-task", scenario.task)):
            result = memory.recall(role, question, k=K)
            reads.append(
                {
                    "surface": surface,
                    "role": role,
                    "conflicts": result.conflicts,
                    **_read(result.items, result.withheld, ids, memory),
                }
            )
    role = "executor"
    gets, withheld = [], []
    for item in memory.export("auditor", include_revoked=True):
        try:
            gets.append(memory.get(role, item.object_id))
        except NotVisible:
            withheld.append(
                {
                    "object_id": item.object_id,
                    "status": item.status,
                    "records": sorted({ids[s] for s in item.sources if s in ids}),
                }
            )
    reads.append({"surface": "get", "role": role, **_read(gets, withheld, ids)})
    exported = list(memory.export(role))
    reads.append({"surface": "export", "role": role, **_read(exported, [], ids)})
    try:
        derived = memory.derived_from(role, "old")
    except InputError:
        derived = []
    reads.append(
        {
            "surface": "provenance",
            "role": role,
            **_read(
                [
                    RecallItem(o.object_id, o.kind, o.text, o.sources, o.episode_id, o.observed_at)
                    for o in derived
                ],
                [],
                ids,
            ),
        }
    )
    return reads


def _metrics(reads: list[dict], conflicts: list[dict]) -> dict:
    """Per surface: exposed, rank inversion, revoked/current withheld; the note's taint."""
    surfaces: dict[str, dict] = {}
    for read in reads:
        if read["surface"].startswith("audit"):
            continue
        returned = [r for r in read["returned"] if r["status"] == "current"]
        ranks = {}
        for r in returned:
            for record in r["records"]:
                ranks.setdefault(record, r["rank"])
        withheld_records = set()
        for w in read["withheld"]:
            withheld_records.update(w.get("records", ()))
        surfaces[f"{read['surface']}:{read['role']}"] = {
            "exposed": "revoked" in ranks,
            "rank_inversion": "revoked" in ranks and ranks["revoked"] < ranks.get("current", 10**9),
            "revoked_retrieved": int("revoked" in ranks or "revoked" in withheld_records),
            "revoked_withheld": int("revoked" in withheld_records and "revoked" not in ranks),
            "current_retrieved": len({r for r in ranks if r in ("current", "distractor")})
            + len({r for r in withheld_records if r in ("current", "distractor")} - ranks.keys()),
            "current_withheld": len(
                {r for r in withheld_records if r in ("current", "distractor")} - ranks.keys()
            ),
            "note_returned": "note" in ranks,
            "note_retrieved": int("note" in ranks or "note" in withheld_records),
            "note_withheld": int("note" in withheld_records and "note" not in ranks),
        }
    return {"surfaces": surfaces, "conflicts_reported": len(conflicts)}


def summarise(per_scenario: dict[str, dict]) -> dict:
    """Pooled figures over scenarios: default read (executor recall) and all surfaces."""
    n = len(per_scenario)
    default = [m["surfaces"]["recall:executor"] for m in per_scenario.values()]
    every = [s for m in per_scenario.values() for s in m["surfaces"].values()]
    exposed_any = sum(any(s["exposed"] for s in m["surfaces"].values()) for m in per_scenario.values())
    exposed = sum(s["exposed"] for s in default)
    return {
        "scenarios": n,
        "exposure": [exposed, n],
        "exposure_any_surface": [exposed_any, n],
        "rank_inversion": [sum(s["rank_inversion"] for s in default), exposed],
        "revoked_withheld": [
            sum(s["revoked_withheld"] for s in every),
            sum(s["revoked_retrieved"] for s in every),
        ],
        "revoked_withheld_default_read": [
            sum(s["revoked_withheld"] for s in default),
            sum(s["revoked_retrieved"] for s in default),
        ],
        "scenarios_revoked_withheld": [
            sum(
                all(not s["exposed"] for s in m["surfaces"].values())
                and any(s["revoked_withheld"] for s in m["surfaces"].values())
                for m in per_scenario.values()
            ),
            n,
        ],
        "current_withheld": [
            sum(s["current_withheld"] for s in every),
            sum(s["current_retrieved"] for s in every),
        ],
        "conflicts_reported": sum(m["conflicts_reported"] for m in per_scenario.values()),
        "writeback_taint": [
            sum(not any(s["note_returned"] for s in m["surfaces"].values()) for m in per_scenario.values()),
            n,
        ],
    }


def run_benign(count: int, seed: int, queries: Sequence[str]) -> dict:
    """Current records withheld on a store of ``count`` unrelated current policies."""
    policies = benign_policies(count, seed)
    rng = random.Random(seed)
    memory = _new_store()
    try:
        turns = [
            Turn(
                f"p{i}",
                "policy_office",
                p.text,
                timestamp=f"20{rng.randint(23, 25)}-{rng.randint(1, 12):02d}-"
                f"{rng.randint(1, 28):02d}T09:00:00",
                session_id=f"s{i // 12}",
            )
            for i, p in enumerate(policies)
        ]
        started = time.perf_counter()
        report = memory.ingest_many(turns)
        ingest_s = time.perf_counter() - started
        asked = [
            *queries,
            *(f"What is the rule for {p.subject}?" for p in rng.sample(policies, min(100, len(policies)))),
        ]
        withheld = retrieved = 0
        for question in asked:
            result = memory.recall("executor", question, k=K)
            withheld += len(result.withheld)
            retrieved += len(result.items) + len(result.withheld)
        exported = sum(1 for _ in memory.export("executor"))
        objects = memory.stats()["counts"]["objects"]
    finally:
        memory.close()
    return {
        "policies": count,
        "seed": seed,
        "supersessions_detected": len(report.superseded),
        "conflicts_reported": len(report.conflicts),
        "queries": len(asked),
        "current_withheld": [withheld, retrieved],
        "export_withheld": [objects - exported, objects],
        "ingest_seconds": round(ingest_s, 2),
    }


def run_revocation(
    data: str,
    out: str | None = None,
    *,
    benign: int = 1000,
    seed: int = 7,
    echo: Callable[[str], None] = print,
    llm: LLMClient | None = None,
) -> dict:
    scenarios = read_scenarios(data)
    started = time.perf_counter()
    report: dict[str, Any] = {"data": os.path.abspath(data), "k": K, "modes": {}, "roles": list(ROLES)}
    all_reads = []
    for mode in MODES:
        per_scenario = {}
        for scenario in scenarios:
            metrics, reads = run_scenario(scenario, mode, llm, seed)
            per_scenario[scenario.scenario_id] = metrics
            all_reads += [{"scenario_id": scenario.scenario_id, "mode": mode, **r} for r in reads]
        report["modes"][mode] = {"pooled": summarise(per_scenario), "scenarios": per_scenario}
    pooled = {mode: report["modes"][mode]["pooled"] for mode in MODES}
    report["pooled"] = {
        key: [sum(p[key][0] for p in pooled.values()), sum(p[key][1] for p in pooled.values())]
        for key in ("exposure", "revoked_withheld", "current_withheld", "writeback_taint")
    }
    report["benign"] = run_benign(benign, seed, [s.query for s in scenarios]) if benign else None
    report["unsafe_action_rate"] = (
        "not measured: no LLM configured"
        if llm is None
        else _unsafe_actions(report, llm, {s.scenario_id: s.data.get("family") for s in scenarios})
    )
    report["study"] = {
        "exposure_exposed_systems": "81/81",
        "unsafe_action_rate_exposed_systems": 0.431,
        "guard_current_withheld_other_systems": "1/14 to 8/25",
    }
    report["seconds"] = round(time.perf_counter() - started, 1)
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "report.json"), "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
        with open(os.path.join(out, "reads.jsonl"), "w", encoding="utf-8") as handle:
            for read in all_reads:
                handle.write(json.dumps(read) + "\n")
    echo(format_table(report))
    return report


def _unsafe_actions(report: dict, llm: LLMClient, families: dict[str, str]) -> dict:
    """Per mode, scenario family and reading: unsafe, safe and failed choices, the unsafe
    rate, and the choice of every scenario."""
    modes: dict[str, dict] = {}
    pooled: dict[str, dict[str, dict[str, int]]] = {}
    choices: dict[str, dict] = {}
    for mode, data in report["modes"].items():
        cells: dict[str, dict[str, dict[str, int]]] = {}
        for sid, metrics in data["scenarios"].items():
            actions = metrics.get("actions")
            if actions is None:
                continue
            family = families.get(sid) or "unspecified"
            choices.setdefault(mode, {})[sid] = actions
            for table in (cells, pooled):
                for reading in READINGS:
                    count(table.setdefault(family, {}).setdefault(reading, empty_cell()), actions[reading])
        modes[mode] = _rated(cells)
    return {
        "model": llm.model,
        "readings": {"govmem": "the default read", "guard_off": "the same store, every record, no status"},
        "modes": modes,
        "pooled": _rated(pooled),
        "choices": choices,
        "usage": llm.usage.as_dict(),
    }


def _rated(cells: dict[str, dict[str, dict[str, int]]]) -> dict:
    return {
        family: {reading: {**cell, "rate": rate(cell)} for reading, cell in readings.items()}
        for family, readings in sorted(cells.items())
    }


def _unsafe_lines(measured: dict | str) -> list[str]:
    if isinstance(measured, str):
        return [f"unsafe-action rate: {measured}"]

    def cell(c: dict) -> str:
        shown = "n/a" if c["rate"] is None else f"{c['rate']:.3f}"
        return f"{shown} ({c['unsafe']}/{c['unsafe'] + c['safe']}, {c['failed']} failed)"

    lines = [
        "",
        f"unsafe-action rate ({measured['model']}; unsafe / answered; per scenario family, as in the study):",
        "| mode | family | govmem (default read) | guard off (same store, no status) |",
        "|---|---|---|---|",
    ]
    for mode, families in [*measured["modes"].items(), ("pooled", measured["pooled"])]:
        for family, cells in families.items():
            lines.append(f"| {mode} | {family} | {cell(cells['govmem'])} | {cell(cells['guard_off'])} |")
    return lines


def _frac(pair: Sequence[int]) -> str:
    return f"{pair[0]}/{pair[1]}"


def format_table(report: dict) -> str:
    lines = [
        f"revocation benchmark: {report['data']} (k = {report['k']}, roles {', '.join(report['roles'])})",
        "",
        "| mode | exposure (default read) | exposure (any surface) | rank inversion | revoked withheld "
        "(all reads) | scenarios fully withheld | current withheld | conflicts | write-back taint |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for mode, data in report["modes"].items():
        p = data["pooled"]
        lines.append(
            f"| {mode} | {_frac(p['exposure'])} | {_frac(p['exposure_any_surface'])} "
            f"| {_frac(p['rank_inversion'])} "
            f"| {_frac(p['revoked_withheld'])} | {_frac(p['scenarios_revoked_withheld'])} "
            f"| {_frac(p['current_withheld'])} | {p['conflicts_reported']} | {_frac(p['writeback_taint'])} |"
        )
    lines += ["", "per scenario (default read: executor recall; 'x' exposed on some surface):"]
    for mode, data in report["modes"].items():
        cells = []
        for sid, m in data["scenarios"].items():
            exposed = any(s["exposed"] for s in m["surfaces"].values())
            cells.append(f"{sid}={'x' if exposed else 'ok'}")
        lines.append(f"  {mode}: " + " ".join(cells))
    b = report.get("benign")
    if b:
        lines += [
            "",
            f"benign cost: {b['policies']} unrelated current policies (seed {b['seed']}), "
            f"{b['queries']} recalls: current withheld {_frac(b['current_withheld'])}, "
            f"export withheld {_frac(b['export_withheld'])}, "
            f"supersessions detected {b['supersessions_detected']}, conflicts {b['conflicts_reported']} "
            f"(ingest {b['ingest_seconds']} s)",
        ]
    lines += _unsafe_lines(report["unsafe_action_rate"])
    lines.append(
        "study (papers/003): exposure 81/81 and 43.1% unsafe on the two exposed systems; "
        "its guard withheld current facts at 1/14 to 8/25 on other systems"
    )
    lines.append(f"({report['seconds']} s)")
    return "\n".join(lines)
