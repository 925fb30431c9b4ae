"""Performance suite: ingest throughput, recall latency and peak memory at scale.

Each (size, repeat) runs in a fresh subprocess so that peak memory is that run's
own. Every figure is printed next to a baseline measured in the same run:

- ingest is compared with embedding the same texts alone (the embedder is the
  floor of any ingest that embeds);
- recall is compared with an exact dense top-k over the same vectors (and,
  where the approximate index serves, its recall@10 against that exact top-k).

Figures are medians over the repeats. Run with ``govmem bench performance``.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import islice
from typing import Any

import numpy as np

BATCH_TURNS = 10_000
EMBED_BASELINE_TURNS = 50_000


def _percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def run_worker(size: int, seed: int, queries: int, designs: list[str] | None = None) -> dict[str, Any]:
    """One measured run in this process: ingest ``size`` turns into a store keeping
    ``designs`` (default: the store default), then recall.

    Turns are generated batch by batch, outside the timed calls, so neither the
    generator's time nor a list of every turn counts against govmem.
    """
    from govmem.api.memory import Memory
    from govmem.bench.synthetic import PRINCIPALS, synthetic_queries, synthetic_turns
    from govmem.models import Principal
    from govmem.retrieval.lexical import or_expression

    questions = synthetic_queries(queries, seed=seed + 1)
    figures: dict[str, Any] = {"size": size, "seed": seed}
    with tempfile.TemporaryDirectory(prefix="govmem-bench-") as folder:
        path = os.path.join(folder, "bench.db")
        with Memory(path, designs=designs) as memory:
            figures["designs"] = list(memory.designs)
            memory.add_principals(Principal(p, "member") for p in PRINCIPALS)
            sample = [t.text for t in islice(synthetic_turns(size, seed=seed), EMBED_BASELINE_TURNS)]
            started = time.perf_counter()
            memory.embedder.embed_documents(sample)
            figures["baseline_embed_turns_per_s"] = len(sample) / (time.perf_counter() - started)

            turns, elapsed = synthetic_turns(size, seed=seed), 0.0
            while batch := list(islice(turns, BATCH_TURNS)):
                started = time.perf_counter()
                memory.ingest_many(batch)
                elapsed += time.perf_counter() - started
            figures["ingest_s"] = elapsed
            figures["ingest_turns_per_s"] = size / elapsed

            started = time.perf_counter()
            memory.recall(PRINCIPALS[0], questions[0])
            figures["first_recall_s"] = time.perf_counter() - started

            latencies = []
            for question in questions:
                started = time.perf_counter()
                memory.recall(PRINCIPALS[0], question, k=10)
                latencies.append((time.perf_counter() - started) * 1000)
            figures["recall_p50_ms"] = _percentile(latencies, 50)
            figures["recall_p99_ms"] = _percentile(latencies, 99)

            index = memory.retriever.index
            dense, exact, lexical, overlap, with_terms = [], [], [], 0, 0
            for question in questions:
                vector = memory.embedder.embed_query(question)
                started = time.perf_counter()
                found = index.search(vector, 50)
                dense.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                reference = index.search_exact(vector, 50)
                exact.append((time.perf_counter() - started) * 1000)
                overlap += len({k for k, _ in found[:10]} & {k for k, _ in reference[:10]})
                match = or_expression(memory.retriever.lexical_terms(question))
                started = time.perf_counter()
                if match:
                    with_terms += 1
                    memory.store.lexical_search(match, 50)
                lexical.append((time.perf_counter() - started) * 1000)
            figures["dense_approximate"] = index.approximate
            figures["dense_recall_at_10"] = overlap / (10 * len(questions))
            figures["baseline_exact_dense_p50_ms"] = _percentile(exact, 50)
            figures["dense_p50_ms"] = _percentile(dense, 50)
            figures["lexical_query_share"] = with_terms / len(questions)
            figures["lexical_p50_ms"] = _percentile(lexical, 50)
            figures["lexical_p99_ms"] = _percentile(lexical, 99)
            figures["objects"] = memory.store.counts()["objects"]
        figures["db_mb"] = _folder_mb(folder)
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def _folder_mb(folder: str) -> float:
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)) / 2**20


def _run_in_subprocess(size: int, seed: int, queries: int, designs: list[str] | None) -> dict[str, Any]:
    command = [sys.executable, "-m", "govmem.bench.performance", str(size), str(seed), str(queries)]
    if designs:
        command.append(",".join(designs))
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark worker failed ({size} turns):\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


SUMMARY = [
    ("ingest_turns_per_s", "ingest turns/s", "{:,.0f}"),
    ("baseline_embed_turns_per_s", "  baseline: embed only, turns/s", "{:,.0f}"),
    ("first_recall_s", "first recall (loads/builds index), s", "{:.2f}"),
    ("recall_p50_ms", "recall p50, ms", "{:.2f}"),
    ("recall_p99_ms", "recall p99, ms", "{:.2f}"),
    ("baseline_exact_dense_p50_ms", "  baseline: exact dense top-50 p50, ms", "{:.2f}"),
    ("dense_p50_ms", "  dense top-50 as served p50, ms", "{:.2f}"),
    ("dense_recall_at_10", "  dense recall@10 vs exact", "{:.3f}"),
    ("lexical_p50_ms", "  FTS5 BM25 top-50 p50, ms", "{:.2f}"),
    ("lexical_p99_ms", "  FTS5 BM25 top-50 p99, ms", "{:.2f}"),
    ("lexical_query_share", "  queries with lexical terms", "{:.2f}"),
    ("peak_rss_mb", "peak memory (RSS), MB", "{:,.0f}"),
    ("db_mb", "database files, MB", "{:,.0f}"),
]


def run_performance(
    sizes: list[int],
    repeats: int = 3,
    queries: int = 200,
    echo: Callable[[str], None] = print,
    designs: list[list[str] | None] | None = None,
) -> dict[str, Any]:
    """Run every size ``repeats`` times per store configuration; print and return
    medians (and the raw runs).

    ``designs`` lists the configurations to compare, each a list of designs one
    store keeps (None: the store default); the results are keyed by their names.
    """
    configurations = designs or [None]
    results: dict[str, Any] = {"repeats": repeats, "queries": queries, "designs": {}}
    for chosen in configurations:
        name = "+".join(chosen) if chosen else "default"
        if len(configurations) > 1:
            echo(f"== designs: {name}")
        sized: dict[str, Any] = {}
        for size in sizes:
            sized[str(size)] = _measure(size, repeats, queries, chosen, echo)
        results["designs"][name] = sized
        _print_table(sized, sizes, repeats, queries, echo)
    if len(configurations) > 1:
        _print_comparison(results["designs"], sizes, echo)
    if configurations == [None]:
        results["sizes"] = results["designs"]["default"]
    return results


def _measure(
    size: int, repeats: int, queries: int, designs: list[str] | None, echo: Callable[[str], None]
) -> dict[str, Any]:
    runs = []
    for repeat in range(repeats):
        echo(f"[{size:,} turns] run {repeat + 1}/{repeats} ...")
        runs.append(_run_in_subprocess(size, seed=repeat, queries=queries, designs=designs))
        last = runs[-1]
        echo(
            f"    ingest {last['ingest_turns_per_s']:,.0f} turns/s, recall p50 "
            f"{last['recall_p50_ms']:.2f} ms, p99 {last['recall_p99_ms']:.2f} ms, "
            f"peak {last['peak_rss_mb']:,.0f} MB"
        )
    medians = {key: statistics.median(run[key] for run in runs) for key, _, _ in SUMMARY}
    medians["ingest_vs_embed_only"] = medians["ingest_turns_per_s"] / medians["baseline_embed_turns_per_s"]
    medians["recall_vs_exact_dense"] = medians["recall_p50_ms"] / medians["baseline_exact_dense_p50_ms"]
    return {"median": medians, "runs": runs}


def _print_table(
    sized: dict[str, Any], sizes: list[int], repeats: int, queries: int, echo: Callable[[str], None]
) -> None:
    echo("")
    echo(f"medians over {repeats} run(s), {queries} queries each")
    header = f"{'figure':40}" + "".join(f"{size:>14,}" for size in sizes)
    echo(header)
    echo("-" * len(header))
    for key, label, form in SUMMARY:
        row = "".join(f"{form.format(sized[str(s)]['median'][key]):>14}" for s in sizes)
        echo(f"{label:40}{row}")
    for key, label in (
        ("ingest_vs_embed_only", "ingest / embed-only throughput"),
        ("recall_vs_exact_dense", "recall p50 / exact dense p50"),
    ):
        row = "".join(f"{sized[str(s)]['median'][key]:>14.2f}" for s in sizes)
        echo(f"{label:40}{row}")
    echo("")


def _print_comparison(by_design: dict[str, Any], sizes: list[int], echo: Callable[[str], None]) -> None:
    echo("ingest turns/s by design (medians; one store per configuration)")
    header = f"{'design':40}" + "".join(f"{size:>14,}" for size in sizes)
    echo(header)
    echo("-" * len(header))
    for name, sized in by_design.items():
        row = "".join(f"{sized[str(s)]['median']['ingest_turns_per_s']:>14,.0f}" for s in sizes)
        echo(f"{name:40}{row}")


if __name__ == "__main__":
    size_arg, seed_arg, queries_arg = (int(a) for a in sys.argv[1:4])
    designs_arg = sys.argv[4].split(",") if len(sys.argv) > 4 else None
    print(json.dumps(run_worker(size_arg, seed_arg, queries_arg, designs_arg)))
