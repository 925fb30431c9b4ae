"""The GateMem runner: replay each episode into a fresh governed store, ask at every
checkpoint, write GateMem's prediction lines, then score them.

Protocol (see the data README beside the benchmark's files):

1. For each domain folder (``DATA/<domain>/episodes.jsonl`` and ``checkpoints.jsonl``)
   and each episode, a fresh store governed by the domain's policy pack (``medical``,
   ``office``, ``education``, ``household``): principal ids repeat across episodes
   for different people, so episodes never share a store. The episode's entities
   block gives the principals and relationships.
2. The episode's checkpoints are taken in the order of their as-of turn. Turns are
   ingested in order up to and including that turn; then the asker recalls the query
   as of that turn's timestamp (none when the turn has none) and a reader answers
   from the recall result.
3. One line per checkpoint goes to ``predictions.jsonl`` in GateMem's run_eval form,
   with the exact context the answer was drawn from, so GateMem's own scorer can
   re-score it.
4. Only after every prediction is written are the hidden labels read, and the file is
   scored (:mod:`govmem.bench.gatemem_scoring`) into ``report.json``.

The prediction stage reads checkpoints through
:func:`~govmem.bench.gatemem_data.read_checkpoints`, which keeps no hidden field:
its output depends on the visible fields alone (a test runs it on a checkpoint
file stripped of the labels and compares bytes). Timings and token counts go to the
report, not to the predictions, so predictions are reproducible byte for byte.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import govmem
from govmem.api.memory import DEFAULT_DESIGNS, Memory
from govmem.bench.gatemem_data import Checkpoint, read_checkpoints
from govmem.bench.gatemem_scoring import Prediction, prediction_from, score
from govmem.errors import InputError
from govmem.governance.policy_pack import BUILTIN_PACKS
from govmem.llm.client import LLMClient
from govmem.loaders.gatemem import Episode, read_episodes
from govmem.read_path.reader import Answer, ExtractiveReader, LLMReader, Reader, used_turn_ids

DOMAINS = ("medical", "office", "education", "household")
READERS = ("extractive", "llm")
DEFAULT_K = 20  # the budget of the naive-RAG reference in the GateMem issue (the CLI repeats it)
GATEMEM_SUPERSESSION = "statements"
"""GateMem replays conversations whose schedules and doses change: statements are detected
(off in a plain ``Memory``, for ingest speed; context-level scores are the same either way)."""
PREDICTIONS = "predictions.jsonl"
REPORT = "report.json"


class ProgressBar(Protocol):
    def update(self, n: int) -> None: ...


Progress = Callable[[str, int], AbstractContextManager[ProgressBar]]
"""``progress(label, total)``: a context manager whose ``update(n)`` advances a bar
(``click.progressbar`` fits)."""


@dataclass
class CheckpointRun:
    """What happened at one checkpoint: the prediction line and its costs."""

    checkpoint_id: str
    line: dict[str, Any]
    recall_seconds: float
    reader_seconds: float
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass
class DomainStats:
    episodes: int = 0
    checkpoints: int = 0
    turns_ingested: int = 0
    ingest_seconds: float = 0.0
    recall_seconds: float = 0.0
    reader_seconds: float = 0.0
    reader_input_tokens: int = 0
    reader_output_tokens: int = 0
    llm_calls: int = 0
    llm_input_tokens: int = 0
    llm_output_tokens: int = 0
    llm_cost_usd: float = 0.0
    empty_contexts: int = 0
    supersessions: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    llm_model: str | None = None

    def as_dict(self) -> dict[str, Any]:
        answered = self.recall_seconds + self.reader_seconds
        per = self.checkpoints or 1
        return {
            "episodes": self.episodes,
            "checkpoints": self.checkpoints,
            "turns_ingested": self.turns_ingested,
            "ingest_seconds": round(self.ingest_seconds, 3),
            "recall_seconds": round(self.recall_seconds, 3),
            "reader_seconds": round(self.reader_seconds, 3),
            "seconds_per_checkpoint": round(answered / per, 4),
            "seconds_per_checkpoint_with_ingest": round((answered + self.ingest_seconds) / per, 4),
            "reader_tokens_per_checkpoint": round(
                (self.reader_input_tokens + self.reader_output_tokens) / per, 1
            ),
            "reader_input_tokens": self.reader_input_tokens,
            "reader_output_tokens": self.reader_output_tokens,
            "llm_calls": self.llm_calls,
            "llm_input_tokens": self.llm_input_tokens,
            "llm_output_tokens": self.llm_output_tokens,
            "llm_cost_usd": round(self.llm_cost_usd, 6),
            "empty_contexts": self.empty_contexts,
            "supersessions": self.supersessions,
            "actions": dict(sorted(self.actions.items())),
            "llm_model": self.llm_model,
        }


def prediction_line(checkpoint: Checkpoint, action: str, answer: Answer, context: str, used: list[str]):
    """One line of ``predictions.jsonl`` in GateMem's run_eval form."""
    return {
        "checkpoint_id": checkpoint.checkpoint_id,
        "output": {
            "action": action,
            "answer": answer.text,
            "answer_structured": {},
            "used_record_ids": used,
            "memory_audit": {"prompt_context": {"text": context}},
        },
    }


def checkpoint_order(episode: Episode, checkpoints: Sequence[Checkpoint]) -> list[tuple[int, Checkpoint]]:
    """(position of the as-of turn, checkpoint), in turn order (file order among equals)."""
    position = {turn.turn_id: i for i, turn in enumerate(episode.turns)}
    ordered = []
    for checkpoint in checkpoints:
        if checkpoint.episode_id != episode.episode_id:
            raise InputError(
                f"checkpoint {checkpoint.checkpoint_id!r} is for episode {checkpoint.episode_id!r}, "
                f"not {episode.episode_id!r}"
            )
        if checkpoint.as_of_turn_id not in position:
            raise InputError(
                f"checkpoint {checkpoint.checkpoint_id!r}: episode {episode.episode_id!r} has no turn "
                f"{checkpoint.as_of_turn_id!r}"
            )
        ordered.append((position[checkpoint.as_of_turn_id], checkpoint))
    ordered.sort(key=lambda pair: pair[0])
    return ordered


def run_episode(
    memory: Memory,
    episode: Episode,
    checkpoints: Sequence[Checkpoint],
    reader: Reader,
    k: int = DEFAULT_K,
    stats: DomainStats | None = None,
) -> Iterator[CheckpointRun]:
    """Replay ``episode`` into ``memory`` (fresh, governed) and answer its checkpoints.

    Yields one run per checkpoint, in the order of their as-of turns. Only the
    visible fields of a checkpoint exist to be read.
    """
    stats = stats if stats is not None else DomainStats()
    ordered = checkpoint_order(episode, checkpoints)
    memory.add_principals(episode.principals)
    if episode.relationships:
        memory.add_relationships(episode.relationships)
    ingested = 0
    for position, checkpoint in ordered:
        end = position + 1
        if end > ingested:
            started = time.perf_counter()
            written = memory.ingest_many(episode.turns[ingested:end])
            stats.supersessions += len(written.superseded)
            stats.ingest_seconds += time.perf_counter() - started
            stats.turns_ingested += end - ingested
            ingested = end
        as_of = episode.turns[position].timestamp
        started = time.perf_counter()
        result = memory.recall(checkpoint.asker.principal_id, checkpoint.query_text, k=k, as_of=as_of)
        recalled = time.perf_counter()
        answer = reader.answer(checkpoint.query_text, result)
        answered = time.perf_counter()
        context = result.context()
        line = prediction_line(
            checkpoint, result.action, answer, context, used_turn_ids(result, answer.used_object_ids)
        )
        stats.checkpoints += 1
        stats.recall_seconds += recalled - started
        stats.reader_seconds += answered - recalled
        stats.reader_input_tokens += answer.input_tokens
        stats.reader_output_tokens += answer.output_tokens
        stats.empty_contexts += not context
        stats.actions[result.action] = stats.actions.get(result.action, 0) + 1
        yield CheckpointRun(
            checkpoint.checkpoint_id,
            line,
            recalled - started,
            answered - recalled,
            answer.input_tokens,
            answer.output_tokens,
        )


def make_reader(name: str, memory: Memory, llm: LLMClient | None) -> Reader:
    if name == "extractive":
        return ExtractiveReader()
    if name == "llm":
        if llm is None:
            raise InputError("the llm reader needs an LLM client (--llm CONFIG)")
        return LLMReader(llm, memory)
    raise InputError(f"unknown reader {name!r} (use {' or '.join(READERS)})")


def run_domain(
    domain: str,
    episodes: Sequence[Episode],
    checkpoints: Sequence[Checkpoint],
    *,
    designs: Sequence[str] | None = None,
    k: int = DEFAULT_K,
    reader: str = "extractive",
    llm: Callable[[], LLMClient] | None = None,
    progress: Progress | None = None,
    supersession: bool | str = GATEMEM_SUPERSESSION,
) -> tuple[list[dict[str, Any]], DomainStats]:
    """Prediction lines of one domain's checkpoints (in file order) and the domain's costs.

    Each episode gets a fresh in-memory store under the domain's policy pack; ``llm``
    builds one client per episode (it caches in that episode's store, and derived
    designs write through it).
    """
    if domain not in BUILTIN_PACKS:
        raise InputError(f"no policy pack for domain {domain!r} (known: {', '.join(DOMAINS)})")
    by_episode: dict[str, list[Checkpoint]] = {}
    for checkpoint in checkpoints:
        by_episode.setdefault(checkpoint.episode_id, []).append(checkpoint)
    known = {episode.episode_id for episode in episodes}
    unknown = sorted(set(by_episode) - known)
    if unknown:
        raise InputError(f"{domain}: checkpoints name unknown episode {unknown[0]!r}")
    for episode in episodes:  # every checkpoint is checked before any store is built
        checkpoint_order(episode, by_episode.get(episode.episode_id, []))
    stats = DomainStats()
    lines: dict[str, dict[str, Any]] = {}
    label = f"{domain}: {len(checkpoints)} checkpoints in {len(by_episode)} episodes"
    with progress(label, len(checkpoints)) if progress else nullcontext() as bar:
        for episode in episodes:
            asked = by_episode.get(episode.episode_id)
            if not asked:
                continue
            client = llm() if llm is not None else None
            try:
                with Memory(
                    ":memory:", policy=domain, designs=designs, llm=client, detect_supersession=supersession
                ) as memory:
                    stats.episodes += 1
                    answerer = make_reader(reader, memory, client)
                    for run in run_episode(memory, episode, asked, answerer, k, stats):
                        lines[run.checkpoint_id] = run.line
                        if bar is not None:
                            bar.update(1)
            finally:
                if client is not None:
                    stats.llm_model = client.model
                    usage = client.usage
                    stats.llm_calls += usage.calls
                    stats.llm_input_tokens += usage.input_tokens
                    stats.llm_output_tokens += usage.output_tokens
                    stats.llm_cost_usd += usage.cost_usd
                    client.close()
    return [lines[c.checkpoint_id] for c in checkpoints], stats


def domain_files(data: str | Path, domain: str) -> tuple[Path, Path]:
    folder = Path(data) / domain
    return folder / "episodes.jsonl", folder / "checkpoints.jsonl"


def find_domains(data: str | Path) -> list[str]:
    """The known domains with both files in ``data``, in GateMem's order."""
    return [d for d in DOMAINS if all(p.is_file() for p in domain_files(data, d))]


@dataclass
class Settings:
    data: str
    domains: list[str]
    designs: list[str]
    k: int
    reader: str
    llm_model: str | None
    supersession: str = "off"
    govmem_version: str = govmem.__version__


def predict(
    data: str | Path,
    out: str | Path,
    *,
    domains: Sequence[str] | None = None,
    designs: Sequence[str] | None = None,
    k: int = DEFAULT_K,
    reader: str = "extractive",
    llm: Callable[[], LLMClient] | None = None,
    progress: Progress | None = None,
    supersession: bool | str = GATEMEM_SUPERSESSION,
) -> dict[str, Any]:
    """Write ``out/predictions.jsonl`` for every checkpoint of ``domains`` in ``data``.

    Reads episodes and the visible half of the checkpoints only. Returns the run's
    settings and costs (seconds, tokens, actions) per domain.
    """
    started = time.perf_counter()
    chosen = list(domains) if domains else find_domains(data)
    if not chosen:
        raise InputError(f"no GateMem domain folder in {data} (looked for {', '.join(DOMAINS)})")
    if reader not in READERS:
        raise InputError(f"unknown reader {reader!r} (use {' or '.join(READERS)})")
    if reader == "llm" and llm is None:
        raise InputError("the llm reader needs an LLM (--llm CONFIG)")
    inputs = {}
    for domain in chosen:
        episodes_path, checkpoints_path = domain_files(data, domain)
        inputs[domain] = (read_episodes(episodes_path), read_checkpoints(checkpoints_path))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    per_domain: dict[str, Any] = {}
    with open(out / PREDICTIONS, "w", encoding="utf-8", newline="\n") as handle:
        for domain, (episodes, checkpoints) in inputs.items():
            lines, stats = run_domain(
                domain,
                episodes,
                checkpoints,
                designs=designs,
                k=k,
                reader=reader,
                llm=llm,
                progress=progress,
                supersession=supersession,
            )
            for line in lines:
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
            per_domain[domain] = stats.as_dict()
    models = sorted({d["llm_model"] for d in per_domain.values() if d["llm_model"]})
    model = ", ".join(models) or None
    total = sum(d["checkpoints"] for d in per_domain.values())
    seconds = time.perf_counter() - started
    settings = Settings(
        str(data), chosen, list(designs or DEFAULT_DESIGNS), k, reader, model, str(supersession or "off")
    )
    return {
        "settings": vars(settings),
        "run": {
            "seconds": round(seconds, 3),
            "checkpoints": total,
            "seconds_per_checkpoint_with_ingest": round(seconds / total, 4) if total else None,
            "domains": per_domain,
        },
    }


def read_predictions(path: str | Path) -> list[Prediction]:
    from govmem.loaders.jsonl import iter_records

    return [prediction_from(record) for _, record in iter_records(path)]


def score_run(data: str | Path, out: str | Path, domains: Sequence[str]) -> dict[str, Any]:
    """Score ``out/predictions.jsonl`` against the hidden labels of ``domains`` in ``data``."""
    from govmem.bench.gatemem_data import read_labels  # labels enter only here

    labels = {}
    domain_of = {}
    for domain in domains:
        found = read_labels(domain_files(data, domain)[1])
        labels.update(found)
        domain_of.update(dict.fromkeys(found, domain))
    return score(read_predictions(Path(out) / PREDICTIONS), labels, domain_of)


def run_gatemem(
    data: str | Path,
    out: str | Path,
    *,
    domains: Sequence[str] | None = None,
    designs: Sequence[str] | None = None,
    k: int = DEFAULT_K,
    reader: str = "extractive",
    llm: Callable[[], LLMClient] | None = None,
    progress: Progress | None = None,
    supersession: bool | str = GATEMEM_SUPERSESSION,
) -> dict[str, Any]:
    """Predict every checkpoint, then score; writes ``predictions.jsonl`` and ``report.json``."""
    run = predict(
        data,
        out,
        domains=domains,
        designs=designs,
        k=k,
        reader=reader,
        llm=llm,
        progress=progress,
        supersession=supersession,
    )
    report = {"benchmark": "GateMem", **run, **score_run(data, out, run["settings"]["domains"])}
    with open(Path(out) / REPORT, "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    return report


# The printed summary


def _cell(value: float | None) -> str:
    return "   -  " if value is None else f"{value:6.3f}"


def format_table(report: dict[str, Any]) -> str:
    """Per domain: U/A/F/MGS at context and answer level, end to end, the paper's action
    variants, over-refusal and action accuracy; then per attack type."""
    settings = report["settings"]
    lines = [
        f"GateMem: k={settings['k']}, designs={','.join(settings['designs'])}, "
        f"reader={settings['reader']}, govmem {settings['govmem_version']}, "
        f"{report['run']['checkpoints']} checkpoints in {report['run']['seconds']:.0f} s",
        "",
        "patterns only (the README's scorer)    context                      answer"
        "                       end to end",
        f"{'domain':<10} {'n':>5}  {'U':>6} {'A':>6} {'F':>6} {'MGS':>6}   "
        f"{'U':>6} {'A':>6} {'F':>6} {'MGS':>6}   {'A':>6} {'F':>6} {'MGS':>6}   "
        f"{'overref':>7} {'actacc':>6} {'s/ckpt':>6}",
    ]
    rows = [*report["domains"].items(), ("all", report["overall"])]
    for name, m in rows:
        c, a, e = m["context"], m["answer"], m["end_to_end"]
        seconds = report["run"]["domains"].get(name, {}).get("seconds_per_checkpoint")
        if name == "all" and report["run"]["checkpoints"]:
            seconds = (
                sum(d["seconds_per_checkpoint"] * d["checkpoints"] for d in report["run"]["domains"].values())
                / report["run"]["checkpoints"]
            )
        lines.append(
            f"{name:<10} {m['n']:>5}  {_cell(c['U'])} {_cell(c['A'])} {_cell(c['F'])} {_cell(c['MGS'])}   "
            f"{_cell(a['U'])} {_cell(a['A'])} {_cell(a['F'])} {_cell(a['MGS'])}   "
            f"{_cell(e['A'])} {_cell(e['F'])} {_cell(e['MGS'])}   "
            f"{_cell(m['over_refusal']):>7} {_cell(m['action_accuracy'])} {_cell(seconds)}"
        )
    lines += [
        "",
        "the paper's variants (A also fails actions other than refuse/answer_redacted, "
        "F actions other than no_memory)",
        f"{'domain':<10} {'n':>5}  {'A*ctx':>6} {'F*ctx':>6} {'MGS*ctx':>7}   "
        f"{'A*ans':>6} {'F*ans':>6} {'MGS*ans':>7}   {'A*e2e':>6} {'F*e2e':>6} {'MGS*e2e':>7}",
    ]
    for name, m in rows:
        cells = []
        for level in ("context", "answer", "end_to_end"):
            x = m[level]
            cells.append(f"{_cell(x['A_strict'])} {_cell(x['F_strict'])} {_cell(x['MGS_strict']):>7}")
        lines.append(f"{name:<10} {m['n']:>5}  " + "   ".join(cells))
    lines += [
        "",
        "per attack type (leak = A for privacy, F for safety; * = with the action condition)",
        f"{'attack type':<24} {'type':<8} {'n':>4}  {'leak_ctx':>8} {'leak_ans':>8} {'leak_e2e':>8} "
        f"{'leak*_e2e':>9} {'actacc':>6}",
    ]
    for name, m in report["attack_types"].items():
        for query_type, n in m["n_by_query_type"].items():
            if not n or query_type == "utility":
                continue
            metric = "A" if query_type == "privacy" else "F"
            lines.append(
                f"{name:<24} {query_type:<8} {n:>4}  {_cell(m['context'][metric]):>8} "
                f"{_cell(m['answer'][metric]):>8} {_cell(m['end_to_end'][metric]):>8} "
                f"{_cell(m['end_to_end'][metric + '_strict']):>9} "
                f"{_cell(m['action_accuracy_by_query_type'][query_type])}"
            )
    return "\n".join(lines)
