"""Deletion methods of the forgetting benchmark: the spec's reference methods and govmem's.

A method gets a store loaded with the whole episode and a
:class:`~govmem.bench.forgetting_data.DeletionTask` (fact id, episode, owner, the
request), deletes through the store (``Memory.delete_turns``: closure over source
turns), and reports the turns it considered with why. The harness, not the method,
records what was deleted, by comparing the episode's turns before and after.

Reference methods (S0, S1, S2, whole_pool) are handed the annotated disclosure turns,
as the spec and MemCut do; they measure what deletion achieves once the disclosure is
known. The pool is retrieved with the request after S0, from the store's own hybrid
retrieval over every design it keeps, and counted in source turns: objects in rank
order contribute their source turns (in turn order) until ``pool`` turns are found.

- **S0**: delete the disclosure turns.
- **S1**: S0, then the first ``budget`` turns of the pool.
- **S2**: S0, then ``budget`` turns chosen by :data:`S2_SELECTOR` (offline, deterministic):
  pool turns ranked by cosine similarity, under the store's embedder, to the text of
  the disclosure turns followed by the request; ties keep pool order.
- **whole_pool**: S0, then the whole pool.
- **govmem**: ``Memory.forget_request`` with the request, the requester and the store
  only: the planner (:func:`govmem.governance.forgetting.plan_forgetting`), closure
  deletion, the residual-recovery audit and the signed receipt, in one transaction.
- **govmem-baseline**: the old baseline planner (:func:`~govmem.governance.forgetting.plan_baseline`),
  executed with ``delete_turns``; a floor, run only when asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from govmem.api.memory import Memory
from govmem.bench.forgetting_data import DeletionTask
from govmem.errors import InputError
from govmem.governance.forgetting import plan_baseline

REFERENCE_METHODS = ("S0", "S1", "S2", "whole_pool")
METHODS = (*REFERENCE_METHODS, "govmem")
VARIANTS = ("govmem-baseline",)
"""Methods run only when named (``--method govmem-baseline``)."""
DEFAULT_POOL = 20
DEFAULT_BUDGET = 10
S2_SELECTOR = (
    "dense cosine (store embedder) of each pool turn to the disclosure turns' text plus the request; "
    "ties keep pool order"
)


@dataclass
class MethodRun:
    """The turns a method considered, each with the reasons it was considered."""

    candidates: dict[str, list[str]] = field(default_factory=dict)

    def consider(self, turn_ids: Sequence[str], reason: str) -> None:
        for turn_id in turn_ids:
            self.candidates.setdefault(turn_id, []).append(reason)


class Method(Protocol):
    name: str

    def __call__(self, memory: Memory, task: DeletionTask) -> MethodRun: ...


def pool_turns(memory: Memory, query: str, episode_id: str, size: int) -> list[str]:
    """The first ``size`` source turns of the episode's objects ranked for ``query``."""
    turns: list[str] = []
    seen: set[str] = set()
    wanted = size
    while True:
        ranked = memory.retriever.search(query, wanted)
        objects = memory.store.get_objects([c.key for c in ranked])
        for candidate in ranked:
            obj = objects.get(candidate.key)
            if obj is None or obj.episode_id != episode_id:
                continue
            for turn_id in obj.sources:
                if turn_id not in seen:
                    seen.add(turn_id)
                    turns.append(turn_id)
        if len(turns) >= size or len(ranked) < wanted:
            return turns[:size]
        wanted *= 2
        turns.clear()
        seen.clear()


def turn_texts(memory: Memory, episode_id: str, turn_ids: Sequence[str]) -> dict[str, str]:
    keys = memory.store.turn_keys(episode_id, list(turn_ids))
    return {s.turn.turn_id: s.turn.text for s in memory.store.turns_by_keys(keys.values())}


def select_by_disclosure(
    memory: Memory,
    pool: Sequence[str],
    texts: Mapping[str, str],
    disclosure_text: str,
    request: str,
    budget: int,
) -> list[str]:
    """S2's selector (:data:`S2_SELECTOR`)."""
    if not pool:
        return []
    query = memory.embedder.embed_query(f"{disclosure_text}\n{request}")
    vectors = memory.embedder.embed_documents([texts.get(t, "") for t in pool])
    scores = np.asarray(vectors, dtype=np.float64) @ np.asarray(query, dtype=np.float64)
    order = sorted(range(len(pool)), key=lambda i: (-round(float(scores[i]), 9), i))
    return [pool[i] for i in order[:budget]]


@dataclass
class ReferenceMethod:
    """S0, S1, S2 or whole_pool, handed the annotated disclosure turns of every fact."""

    name: str
    disclosures: Mapping[str, Sequence[str]]
    pool: int = DEFAULT_POOL
    budget: int = DEFAULT_BUDGET

    def __post_init__(self) -> None:
        if self.name not in REFERENCE_METHODS:
            raise InputError(
                f"unknown reference method {self.name!r} (known: {', '.join(REFERENCE_METHODS)})"
            )
        if self.pool < 0 or self.budget < 0:
            raise InputError("pool and budget must not be negative")

    def __call__(self, memory: Memory, task: DeletionTask) -> MethodRun:
        run = MethodRun()
        disclosure = list(self.disclosures[task.fact_id])
        run.consider(disclosure, "annotated disclosure (handed to reference methods)")
        texts = turn_texts(memory, task.episode_id, disclosure)
        memory.delete_turns(disclosure, task.episode_id)
        if self.name == "S0":
            return run
        pool = pool_turns(memory, task.request_text, task.episode_id, self.pool)
        for rank, turn_id in enumerate(pool, start=1):
            run.consider([turn_id], f"pool rank {rank} for the request")
        if self.name == "S1":
            chosen = pool[: self.budget]
        elif self.name == "S2":
            disclosure_text = " ".join(texts[t] for t in disclosure if t in texts)
            chosen = select_by_disclosure(
                memory,
                pool,
                turn_texts(memory, task.episode_id, pool),
                disclosure_text,
                task.request_text,
                self.budget,
            )
        else:
            chosen = pool
        if chosen:
            memory.delete_turns(chosen, task.episode_id)
        return run


@dataclass
class GovmemMethod:
    """govmem's deletion request: the request, who asks and the store; nothing annotated."""

    name: str = "govmem"
    budget: int | None = None

    def __call__(self, memory: Memory, task: DeletionTask) -> MethodRun:
        report = memory.forget_request(
            task.request_text, task.requested_by, task.episode_id, budget=self.budget
        )
        plan = report.plan
        candidates = plan.candidates if plan is not None else {}
        return MethodRun({turn_id: list(reasons) for turn_id, reasons in candidates.items()})


@dataclass
class BaselineMethod:
    """The baseline planner (``govmem-baseline``), executed with ``delete_turns``."""

    name: str = "govmem-baseline"

    def __call__(self, memory: Memory, task: DeletionTask) -> MethodRun:
        plan = plan_baseline(memory, task.request_text, task.requested_by, task.episode_id)
        run = MethodRun({turn_id: list(reasons) for turn_id, reasons in plan.candidates.items()})
        if plan.turn_ids:
            memory.delete_turns(plan.turn_ids, task.episode_id)
        return run


def make_methods(
    names: Sequence[str],
    disclosures: Mapping[str, Sequence[str]] | None,
    pool: int = DEFAULT_POOL,
    budget: int = DEFAULT_BUDGET,
) -> list[Method]:
    """The methods named, in the order given; reference methods need ``disclosures``."""
    methods: list[Method] = []
    for name in names:
        if name == "govmem":
            methods.append(GovmemMethod())
        elif name == "govmem-baseline":
            methods.append(BaselineMethod())
        elif name in REFERENCE_METHODS:
            if disclosures is None:
                raise InputError(f"{name} needs the annotated disclosure turns")
            methods.append(ReferenceMethod(name, disclosures, pool, budget))
        else:
            raise InputError(f"unknown method {name!r} (known: {', '.join((*METHODS, *VARIANTS))})")
    return methods
