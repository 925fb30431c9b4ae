"""The forgetting benchmark runner (``govmem bench forgetting``), per ``../shared/specs/forgetting-bench.md``.

Protocol, for each memory design asked for and each episode:

1. The whole episode is ingested once into a store file (principals, then every
   turn) through ``Memory``; the store reads with open access by default (the
   benchmark measures forgetting, not access control; ``policy=`` governs it
   instead) and without the governance interpreter, so nothing is erased at ingest.
2. For every fact of the episode and every method, the file is copied and opened
   as a fresh store; the method runs on it (it sees the store and a
   :class:`~govmem.bench.forgetting_data.DeletionTask`; reference methods are also
   handed the disclosure turns) and deletes through ``Memory.delete_turns``.
3. The deleted source turns are whatever turns of the episode the copy no longer
   holds, so closure is counted in source turns whatever a method did. Then the
   recovery inputs are measured on the same copy: the objects recalled for the
   question as the owner (native) and every surviving object derived from a
   disclosure or evidence turn (residual).
4. ``deletions.jsonl`` (fact, method, design, deleted and candidate turn ids) and
   ``recovery.jsonl`` (the turn ids each reader was given, and the LLM reader's
   verdicts when one runs) are written; the scorer
   (:mod:`govmem.bench.forgetting_scoring`) turns them into ``report.json``.

Annotations are read only for step 3 and the score; a run with ``score=False``
needs none beyond the disclosure turns of the reference methods, and a test runs
``govmem`` on a facts file stripped of every annotation.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import govmem
from govmem.api.memory import Memory
from govmem.bench.forgetting_data import (
    Annotations,
    DeletionTask,
    ForgettingEpisode,
    data_files,
    read_annotations,
    read_disclosures,
    read_episodes,
    read_tasks,
)
from govmem.bench.forgetting_methods import (
    DEFAULT_BUDGET,
    DEFAULT_POOL,
    METHODS,
    REFERENCE_METHODS,
    S2_SELECTOR,
    Method,
    make_methods,
)
from govmem.bench.forgetting_reader import LLMChoiceReader
from govmem.bench.forgetting_scoring import DELETIONS, FULL, RECOVERY, Outcome, score
from govmem.errors import InputError
from govmem.governance.authorization import OpenAccess
from govmem.llm.client import LLMClient

REPORT = "report.json"
PLOT = "residual_vs_deleted.png"
READERS = ("oracle", "llm")
DEFAULT_DESIGN = "turn"
DEFAULT_K = 10
GOVMEM_PLANNER = (
    "Memory.forget_request: disclosure among the requester's turns, evidence trail over the whole episode "
    "(entity graph with multi-hop spreading and names related in meaning, meaning, words, values), "
    "selection by score within the planner's budget, closure deletion, residual-recovery audit "
    "(govmem.governance.forgetting)"
)


class ProgressBar(Protocol):
    def update(self, n: int) -> None: ...


Progress = Callable[[str, int], AbstractContextManager[ProgressBar]]


@dataclass(frozen=True)
class StoreSettings:
    designs: tuple[str, ...]
    policy: str | None = None
    """A policy pack to govern reads; None reads with open access."""

    @property
    def name(self) -> str:
        return ",".join(self.designs)

    def open(self, path: Path) -> Memory:
        authorizer = OpenAccess() if self.policy is None else None
        return Memory(
            str(path), designs=list(self.designs), policy=self.policy, authorizer=authorizer, interpreter=None
        )


def build_store(path: Path, episode: ForgettingEpisode, settings: StoreSettings) -> None:
    with settings.open(path) as memory:
        memory.add_principals(episode.principals)
        memory.ingest_many(episode.turns)


@contextmanager
def store_copy(base: Path, work: Path, settings: StoreSettings) -> Iterator[Memory]:
    """A fresh store opened on a copy of ``base`` (deleted afterwards)."""
    for suffix in ("", "-wal"):
        source = Path(f"{base}{suffix}")
        if source.exists():
            shutil.copyfile(source, f"{work}{suffix}")
    try:
        with settings.open(work) as memory:
            yield memory
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{work}{suffix}").unlink(missing_ok=True)


def surviving(memory: Memory, episode_id: str, turn_ids: Sequence[str]) -> set[str]:
    return set(memory.store.turn_keys(episode_id, list(turn_ids)))


@dataclass
class Measurement:
    """What the readers are given after a deletion: turn ids (oracle) and texts (LLM)."""

    native_turn_ids: list[str]
    residual_turn_ids: list[str]
    native_context: str
    residual_context: str


def question_query(annotations: Annotations) -> str:
    """The native retrieval query: the question and its four options (what a reader sees)."""
    return annotations.question.text + " " + " / ".join(annotations.question.options)


def measure(memory: Memory, annotations: Annotations, k: int) -> Measurement:
    result = memory.recall(annotations.owner, question_query(annotations), k=k)
    native = sorted({turn for item in result.items for turn in item.sources})
    traced = memory.store.turn_keys(
        annotations.episode_id, [*annotations.disclosure_turns, *annotations.evidence_turns]
    )
    derived = memory.store.objects_derived_from(traced.values()) if traced else []
    objects = memory.store.get_objects([key for key, _, _ in derived])
    residual = sorted({turn for obj in objects.values() for turn in obj.sources})
    context = "\n\n".join(f"[{obj.object_id}] {obj.text}" for _, obj in sorted(objects.items()))
    return Measurement(native, residual, result.context(), context)


@dataclass
class RunStats:
    ingest_seconds: float = 0.0
    measure_seconds: float = 0.0
    episodes: int = 0
    turns: int = 0

    def __post_init__(self) -> None:
        self.method_seconds: dict[str, float] = {}


def recovery_line(
    fact_id: str, method: str, design: str, found: Measurement, reader: LLMChoiceReader | None, question: Any
) -> dict[str, Any]:
    line: dict[str, Any] = {
        "fact_id": fact_id,
        "method": method,
        "design": design,
        "native_turn_ids": found.native_turn_ids,
        "residual_turn_ids": found.residual_turn_ids,
    }
    if reader is not None:
        line["llm"] = {
            "native": reader.correct(found.native_context, question),
            "residual": reader.correct(found.residual_context, question),
        }
    return line


def run_episode(
    episode: ForgettingEpisode,
    tasks: Sequence[DeletionTask],
    methods: Sequence[Method],
    settings: StoreSettings,
    workdir: Path,
    *,
    annotations: dict[str, Annotations] | None = None,
    k: int = DEFAULT_K,
    reader: LLMChoiceReader | None = None,
    stats: RunStats | None = None,
    advance: Callable[[int], None] = lambda n: None,
) -> Iterator[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """(deletion line, recovery line) for Full and then each task and method.

    Methods see a fresh copy of the episode's store and the task; ``annotations``
    (None: do not measure recovery) are used only after a method has returned.
    """
    stats = stats if stats is not None else RunStats()
    base = workdir / f"{episode.episode_id}.db"
    started = time.perf_counter()
    build_store(base, episode, settings)
    stats.ingest_seconds += time.perf_counter() - started
    stats.episodes += 1
    stats.turns += len(episode.turns)
    all_ids = [t.turn_id for t in episode.turns]
    if annotations is not None:
        with store_copy(base, workdir / "full.db", settings) as memory:
            for task in tasks:
                started = time.perf_counter()
                found = measure(memory, annotations[task.fact_id], k)
                yield (
                    None,
                    recovery_line(
                        task.fact_id, FULL, settings.name, found, reader, annotations[task.fact_id].question
                    ),
                )
                stats.measure_seconds += time.perf_counter() - started
    for task in tasks:
        for method in methods:
            with store_copy(base, workdir / "work.db", settings) as memory:
                started = time.perf_counter()
                run = method(memory, task)
                stats.method_seconds[method.name] = stats.method_seconds.get(method.name, 0.0) + (
                    time.perf_counter() - started
                )
                deleted = sorted(set(all_ids) - surviving(memory, episode.episode_id, all_ids))
                deletion = {
                    "fact_id": task.fact_id,
                    "method": method.name,
                    "design": settings.name,
                    "deleted_turn_ids": deleted,
                    "candidate_turn_ids": sorted(run.candidates),
                }
                if method.name.startswith("govmem"):
                    deletion["candidate_reasons"] = {t: run.candidates[t] for t in sorted(run.candidates)}
                recovery = None
                if annotations is not None:
                    started = time.perf_counter()
                    fact = annotations[task.fact_id]
                    recovery = recovery_line(
                        task.fact_id,
                        method.name,
                        settings.name,
                        measure(memory, fact, k),
                        reader,
                        fact.question,
                    )
                    stats.measure_seconds += time.perf_counter() - started
            advance(1)
            yield deletion, recovery


def check_tasks(tasks: Sequence[DeletionTask], episodes: Sequence[ForgettingEpisode]) -> None:
    principals = {e.episode_id: {p.principal_id for p in e.principals} for e in episodes}
    for task in tasks:
        if task.episode_id not in principals:
            raise InputError(f"fact {task.fact_id!r} names unknown episode {task.episode_id!r}")
        for who in (task.owner, task.requested_by):
            if who not in principals[task.episode_id]:
                raise InputError(f"fact {task.fact_id!r}: {who!r} is not a principal of {task.episode_id!r}")


def run_forgetting(
    data: str | Path,
    out: str | Path,
    *,
    designs: Sequence[Sequence[str]] = ((DEFAULT_DESIGN,),),
    methods: Sequence[str] = METHODS,
    pool: int = DEFAULT_POOL,
    budget: int = DEFAULT_BUDGET,
    k: int = DEFAULT_K,
    reader: str = "oracle",
    llm: LLMClient | None = None,
    policy: str | None = None,
    score_run: bool = True,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run ``methods`` on every fact of ``data`` for each design; write the run files
    and, when ``score_run``, ``report.json`` (returned)."""
    started = time.perf_counter()
    if reader not in READERS:
        raise InputError(f"unknown reader {reader!r} (use {' or '.join(READERS)})")
    if reader == "llm" and llm is None:
        raise InputError("the llm reader needs an LLM (--llm CONFIG)")
    if not methods:
        raise InputError("no method to run")
    episodes_path, facts_path = data_files(data)
    episodes = read_episodes(episodes_path)
    tasks = read_tasks(facts_path)
    check_tasks(tasks, episodes)
    needs_disclosures = any(m in REFERENCE_METHODS for m in methods)
    chosen = make_methods(methods, read_disclosures(facts_path) if needs_disclosures else None, pool, budget)
    annotations = read_annotations(facts_path, episodes) if score_run else None
    choice_reader = LLMChoiceReader(llm) if reader == "llm" and llm is not None else None
    by_episode: dict[str, list[DeletionTask]] = {}
    for task in tasks:
        by_episode.setdefault(task.episode_id, []).append(task)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    deletions: list[dict[str, Any]] = []
    recoveries: list[dict[str, Any]] = []
    per_design: dict[str, Any] = {}
    configurations = [StoreSettings(tuple(d), policy) for d in designs]
    for settings in configurations:
        stats = RunStats()
        label = f"{settings.name}: {len(tasks)} facts x {len(chosen)} methods"
        with (
            progress(label, len(tasks) * len(chosen)) if progress else nullcontext() as bar,
            tempfile.TemporaryDirectory(prefix="govmem-forgetting-") as workdir,
        ):
            for episode in episodes:
                asked = by_episode.get(episode.episode_id)
                if not asked:
                    continue
                for deletion, recovery in run_episode(
                    episode,
                    asked,
                    chosen,
                    settings,
                    Path(workdir),
                    annotations=annotations,
                    k=k,
                    reader=choice_reader,
                    stats=stats,
                    advance=bar.update if bar is not None else lambda n: None,
                ):
                    if deletion is not None:
                        deletions.append(deletion)
                    if recovery is not None:
                        recoveries.append(recovery)
        per_design[settings.name] = {
            "episodes": stats.episodes,
            "turns": stats.turns,
            "ingest_seconds": round(stats.ingest_seconds, 3),
            "method_seconds": {name: round(s, 3) for name, s in stats.method_seconds.items()},
            "measure_seconds": round(stats.measure_seconds, 3),
        }
    write_lines(out / DELETIONS, deletions)
    if annotations is not None:
        write_lines(out / RECOVERY, recoveries)
    report: dict[str, Any] = {
        "benchmark": "forgetting (MemCut metrics, spec version 1)",
        "settings": {
            "data": str(data),
            "designs": [s.name for s in configurations],
            "methods": list(methods),
            "pool": pool,
            "budget": budget,
            "k": k,
            "reader": reader,
            "llm_model": getattr(llm, "model", None),
            "access": "open (OpenAccess)" if policy is None else f"policy {policy}",
            "s2_selector": S2_SELECTOR,
            "govmem_planner": GOVMEM_PLANNER,
            "govmem_version": govmem.__version__,
        },
        "run": {
            "seconds": round(time.perf_counter() - started, 3),
            "facts": len(tasks),
            "designs": per_design,
            "llm_reader_failures": choice_reader.failures if choice_reader else None,
        },
    }
    if annotations is None:
        return report
    outcomes = outcomes_of(deletions, recoveries)
    report["results"] = score(annotations, outcomes, reader)
    with open(out / REPORT, "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    return report


def write_lines(path: Path, lines: Sequence[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for line in lines:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")


def outcomes_of(deletions: Sequence[dict[str, Any]], recoveries: Sequence[dict[str, Any]]) -> list[Outcome]:
    """Outcomes (Full first, then methods in run order) from in-memory run lines."""
    measured = {(r["fact_id"], r["method"], r["design"]): r for r in recoveries}
    outcomes = []
    for (fact_id, method, design), r in measured.items():
        if method == FULL:
            outcomes.append(_outcome(fact_id, method, design, [], None, r))
    for d in deletions:
        r = measured.get((d["fact_id"], d["method"], d["design"]))
        outcomes.append(
            _outcome(
                d["fact_id"], d["method"], d["design"], d["deleted_turn_ids"], d["candidate_turn_ids"], r
            )
        )
    return outcomes


def _outcome(
    fact_id: str,
    method: str,
    design: str,
    deleted: Sequence[str],
    candidates: Sequence[str] | None,
    r: dict[str, Any] | None,
) -> Outcome:
    llm = (r or {}).get("llm") or {}
    return Outcome(
        fact_id,
        method,
        design,
        frozenset(deleted),
        None if candidates is None else frozenset(candidates),
        None if r is None else frozenset(r["native_turn_ids"]),
        None if r is None else frozenset(r["residual_turn_ids"]),
        llm.get("native"),
        llm.get("residual"),
    )


# The printed summary and the plot


def _cell(value: float | None, width: int = 6) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:{width}.3f}"


def _num(value: float | None, width: int = 6) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:{width}.2f}"


def format_table(report: dict[str, Any]) -> str:
    settings = report["settings"]
    lines = [
        f"Forgetting benchmark: pool={settings['pool']}, budget={settings['budget']}, k={settings['k']}, "
        f"reader={settings['reader']}, access={settings['access']}, govmem {settings['govmem_version']}; "
        f"{report['run']['facts']} facts in {report['run']['seconds']:.0f} s",
        f"S2 selector: {settings['s2_selector']}",
        f"govmem planner: {settings['govmem_planner']}",
    ]
    header = (
        f"{'method':<12} {'resid.der':>9} {'cut':>6} {'deleted':>7} {'evid.':>6} {'collat.':>7} "
        f"{'cover':>6} {'discl.':>6} {'native':>6} {'resid.':>6} {'hidden':>6}"
    )
    for design, methods in report["results"].items():
        lines += ["", f"design {design} (means per fact; rates are shares of facts)", header]
        for method, result in methods.items():
            m = result["all"]
            lines.append(
                f"{method:<12} {_cell(m['residual_derivability'], 9)} {_cell(m['cut_rate'])} "
                f"{_num(m['deleted_turns'], 7)} {_num(m['evidence_turns_deleted'])} "
                f"{_num(m['collateral_turns'], 7)} {_cell(m['candidate_coverage'])} "
                f"{_cell(m['disclosure_deleted'])} {_cell(m['native_recovery'])} "
                f"{_cell(m['residual_recovery'])} {_cell(m['hidden_risk_share'])}"
            )
        derivations = [d for d in next(iter(methods.values()))["by_derivation"]]
        lines += [
            "",
            "by derivation type: residual derivability / evidence deleted / coverage / native / residual",
        ]
        lines.append(f"{'method':<12} " + " ".join(f"{d:>34}" for d in derivations))
        for method, result in methods.items():
            cells = []
            for d in derivations:
                m = result["by_derivation"].get(d)
                if m is None:
                    cells.append(f"{'-':>34}")
                    continue
                cells.append(
                    f"{_cell(m['residual_derivability'])} {_num(m['evidence_turns_deleted'])} "
                    f"{_cell(m['candidate_coverage'])} {_cell(m['native_recovery'])} "
                    f"{_cell(m['residual_recovery'])}"
                )
            lines.append(f"{method:<12} " + " ".join(cells))
    return "\n".join(lines)


def plot(report: dict[str, Any], path: str | Path) -> str:
    """A PNG of residual derivability against mean deleted turns, one point per method
    and design; returns a line to print (or why there is no plot)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no plot: matplotlib is not installed (pip install 'govmem[bench]')"
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for design, methods in report["results"].items():
        xs, ys, names = [], [], []
        for method, result in methods.items():
            m = result["all"]
            if m["residual_derivability"] is None or m["deleted_turns"] is None:
                continue
            xs.append(m["deleted_turns"])
            ys.append(m["residual_derivability"])
            names.append(method)
        axes.plot(xs, ys, "o", label=f"design {design}")
        for x, y, name in zip(xs, ys, names, strict=True):
            axes.annotate(name, (x, y), textcoords="offset points", xytext=(5, 4), fontsize=8)
    axes.set_xlabel("deleted source turns per fact (mean)")
    axes.set_ylabel("residual derivability")
    axes.set_ylim(-0.03, 1.05)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8)
    axes.set_title(f"Forgetting: pool {report['settings']['pool']}, budget {report['settings']['budget']}")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return f"plot written to {path}"
