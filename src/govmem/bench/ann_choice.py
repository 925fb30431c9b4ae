"""Benchmark exact numpy search against approximate nearest-neighbour indexes.

govmem searches stored embeddings exactly (``M @ q`` then ``np.argpartition``) on
small stores. An approximate index serves large stores, but only as a rebuildable cache
over SQLite. This script measures what each option costs and returns, so the
choice can be recorded with numbers:

* exact numpy, float32, full dimension (the baseline) and, for information,
  the first 128 dimensions renormalised (wordllama embeddings are matryoshka);
* faiss ``IndexFlatIP`` (exact, another engine);
* usearch HNSW with f32, f16 and i8 storage;
* hnswlib HNSW;
* faiss ``IndexHNSWFlat`` and ``IndexIVFFlat``.

For each it reports build time, recall@k against exact float32 search (an id
tying the k-th exact score counts as a hit), the mean cosine shortfall of the
returned top-k against the exact top-k ("cos gap": how much worse the misses
are), single-query latency p50/p99 (one query at a time, as in a recall call;
median over repeats), and the resident memory the index adds (RSS after build
minus before, and the peak during build). HNSW indexes are swept over
ef_search, IVF over nprobe; a build that runs past ``--build-timeout`` is
abandoned and reported as skipped. It also probes deletion on each index.

Turns come from :mod:`govmem.bench.synthetic` and are embedded with wordllama;
the matrix is cached in ``/tmp/ann_cache_{n}.npy`` (a benchmark convenience,
never part of the repository). Each method runs in a forked child so memory
deltas are not polluted by earlier methods and a crash or hang costs one row.

Run::

    PYTHONPATH=src python -m govmem.bench.ann_choice --n 100000 --n 1000000
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import logging
import multiprocessing as mp
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import psutil

from govmem.bench.synthetic import synthetic_queries, synthetic_turns

FULL_DIM = 256
EMBED_CHUNK = 100_000
TIE_EPS = 1e-5
DELETE_PROBE = 50
EF_SEARCH = (16, 32, 64, 128, 256, 512)
IVF_NPROBE = (8, 16, 32, 64, 128, 256)
MB = 1024 * 1024

Search = Callable[[np.ndarray], np.ndarray]
Timing = tuple[float, float, list[np.ndarray]]


@dataclass
class Row:
    """One line of the results table."""

    method: str
    params: str
    build_s: float | None = None
    rss_mb: float | None = None
    peak_mb: float | None = None
    recall: float | None = None
    cos_gap: float | None = None
    p50_ms: float | None = None
    p99_ms: float | None = None
    note: str = ""


@dataclass
class Outcome:
    """What one method reports back: its rows and a line about deletion."""

    rows: list[Row] = field(default_factory=list)
    deletion: str = ""


@dataclass
class Context:
    """Everything a method needs; inherited by forked children, never pickled."""

    n: int
    k: int
    repeats: int
    build_timeout: float
    hnsw_m: int
    ef_construction: int
    matrix: np.ndarray
    queries: np.ndarray
    truth: np.ndarray
    kth_score: np.ndarray


class BuildTimeout(Exception):
    """An index build ran past the time budget."""

    def __init__(self, done: int, elapsed: float) -> None:
        super().__init__(f"build exceeded budget after {done} vectors in {elapsed:.0f} s")
        self.done = done
        self.elapsed = elapsed


def rss() -> int:
    return psutil.Process().memory_info().rss


class PeakRSS:
    """Samples RSS on a background thread; ``peak`` is the maximum seen."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self.peak = rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.peak = max(self.peak, rss())

    def __enter__(self) -> PeakRSS:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss())


def load_wordllama() -> Any:
    import wordllama
    from wordllama import WordLlama

    return WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)


def truncate(vectors: np.ndarray, dim: int) -> np.ndarray:
    """First ``dim`` components, renormalised to unit length (matryoshka truncation)."""
    out = np.ascontiguousarray(vectors[..., :dim], dtype=np.float32)
    out /= np.linalg.norm(out, axis=-1, keepdims=True)
    return out


def embed_turns(model: Any, n: int) -> np.ndarray:
    out = np.empty((n, FULL_DIM), dtype=np.float32)
    texts: Iterator[str] = (t.text for t in synthetic_turns(n))
    start = 0
    while start < n:
        chunk = list(itertools.islice(texts, EMBED_CHUNK))
        out[start : start + len(chunk)] = model.embed(chunk, norm=True, batch_size=1024)
        start += len(chunk)
    return out


def load_matrix(model: Any, n: int, cache_dir: str) -> tuple[np.ndarray, str]:
    path = os.path.join(cache_dir, f"ann_cache_{n}.npy")
    if os.path.exists(path):
        cached = np.load(path, mmap_mode="r")
        if cached.shape == (n, FULL_DIM) and cached.dtype == np.float32:
            del cached
            return np.load(path), f"loaded {path}"
        del cached
    t0 = time.perf_counter()
    matrix = embed_turns(model, n)
    elapsed = time.perf_counter() - t0
    np.save(path, matrix)
    return matrix, f"embedded {n} turns in {elapsed:.1f} s, cached to {path}"


def exact_truth(matrix: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k ids per query (best first) and the k-th best score."""
    n = matrix.shape[0]
    ids = np.empty((len(queries), k), dtype=np.int64)
    kth = np.empty(len(queries), dtype=np.float32)
    for start in range(0, len(queries), 32):
        block = queries[start : start + 32]
        scores = matrix @ block.T
        top = np.argpartition(scores, n - k, axis=0)[n - k :].T
        for j, row in enumerate(top):
            s = scores[row, j]
            order = np.argsort(-s)
            ids[start + j] = row[order]
            kth[start + j] = s[order[-1]]
    return ids, kth


def recall_at_k(ctx: Context, results: list[np.ndarray]) -> tuple[float, float]:
    """Mean recall@k and mean cosine shortfall of the returned top-k against the exact top-k.

    A returned id whose score ties the k-th exact score counts as a hit; missing
    results count as score 0 in the shortfall.
    """
    hits = 0
    gap = 0.0
    for i, found in enumerate(results):
        found = np.unique(np.asarray(found, dtype=np.int64))
        found = found[(found >= 0) & (found < ctx.n)]
        scores = ctx.matrix[found] @ ctx.queries[i]
        best = float((ctx.matrix[ctx.truth[i]] @ ctx.queries[i]).sum())
        gap += max(best - float(np.sort(scores)[::-1][: ctx.k].sum()), 0.0) / ctx.k
        in_truth = np.isin(found, ctx.truth[i])
        hits += int(np.count_nonzero(in_truth | (scores >= ctx.kth_score[i] - TIE_EPS)))
    return hits / (ctx.k * len(results)), gap / len(results)


def time_search(ctx: Context, search: Search, queries: np.ndarray | None = None) -> Timing:
    """Per-query latency p50/p99 in ms (median over repeats) and the last results."""
    qs = ctx.queries if queries is None else queries
    for q in qs[:5]:
        search(q)
    p50s: list[float] = []
    p99s: list[float] = []
    results: list[np.ndarray] = []
    for _ in range(ctx.repeats):
        times = np.empty(len(qs))
        results = []
        for i, q in enumerate(qs):
            t0 = time.perf_counter_ns()
            found = search(q)
            times[i] = time.perf_counter_ns() - t0
            results.append(found)
        p50s.append(float(np.percentile(times, 50)) / 1e6)
        p99s.append(float(np.percentile(times, 99)) / 1e6)
    return statistics.median(p50s), statistics.median(p99s), results


def build_in_chunks(ctx: Context, add: Callable[[int, int], None]) -> None:
    """Add rows [start, end) chunk by chunk, giving up once the time budget is spent."""
    chunk = max(ctx.n // 20, 10_000)
    t0 = time.perf_counter()
    for start in range(0, ctx.n, chunk):
        end = min(start + chunk, ctx.n)
        add(start, end)
        elapsed = time.perf_counter() - t0
        if elapsed > ctx.build_timeout and end < ctx.n:
            raise BuildTimeout(end, elapsed)


def probe_deletion(
    ctx: Context, label: str, remove: Callable[[np.ndarray], object], search: Search | None
) -> str:
    """Delete the exact top-1 of the first queries, then check they are no longer returned.

    Pass ``search=None`` when removal renumbers the remaining ids, so the check means nothing.
    """
    victims = np.unique(ctx.truth[:DELETE_PROBE, 0])
    t0 = time.perf_counter()
    try:
        remove(victims)
    except Exception as exc:
        reason = str(exc).splitlines()[0].rsplit(": ", 1)[-1] if str(exc) else ""
        return f"{label}: delete of {len(victims)} ids failed: {type(exc).__name__}: {reason}"
    elapsed = (time.perf_counter() - t0) * 1000
    done = f"{label}: deleted {len(victims)} ids in {elapsed:.1f} ms"
    if search is None:
        return done
    leaked = sum(int(np.isin(search(q), victims).sum()) for q in ctx.queries[:DELETE_PROBE])
    return f"{done}; deleted ids returned afterwards: {leaked}"


@dataclass(frozen=True)
class Built:
    """Cost of building an index: seconds, RSS added and peak RSS added (MB)."""

    seconds: float
    rss_mb: float
    peak_mb: float


def measure_build(build: Callable[[], Any]) -> tuple[Any, Built]:
    gc.collect()
    before = rss()
    with PeakRSS() as peak:
        t0 = time.perf_counter()
        index = build()
        elapsed = time.perf_counter() - t0
    gc.collect()
    return index, Built(elapsed, (rss() - before) / MB, (peak.peak - before) / MB)


def result_row(ctx: Context, method: str, params: str, built: Built, timing: Timing, note: str = "") -> Row:
    p50, p99, results = timing
    recall, gap = recall_at_k(ctx, results)
    return Row(method, params, built.seconds, built.rss_mb, built.peak_mb, recall, gap, p50, p99, note)


def numpy_topk(matrix: np.ndarray, k: int) -> Search:
    n = matrix.shape[0]

    def search(q: np.ndarray) -> np.ndarray:
        scores = matrix @ q
        top = np.argpartition(scores, n - k)[n - k :]
        return top[np.argsort(-scores[top])]

    return search


def bench_numpy(ctx: Context) -> Outcome:
    size = ctx.matrix.nbytes / MB
    timing = time_search(ctx, numpy_topk(ctx.matrix, ctx.k))
    params = f"f32 d={ctx.matrix.shape[1]}"
    row = result_row(ctx, "numpy-exact", params, Built(0.0, size, size), timing, "RSS = the matrix itself")
    victims = np.unique(ctx.truth[:DELETE_PROBE, 0])
    t0 = time.perf_counter()
    kept = np.delete(ctx.matrix, victims, axis=0)
    elapsed = (time.perf_counter() - t0) * 1000
    del kept
    deletion = f"numpy: no index to maintain; dropping {len(victims)} rows (np.delete copy): {elapsed:.0f} ms"
    return Outcome([row], deletion)


def bench_numpy_128(ctx: Context) -> Outcome:
    dim = 128
    matrix, built = measure_build(lambda: truncate(ctx.matrix, dim))
    timing = time_search(ctx, numpy_topk(matrix, ctx.k), truncate(ctx.queries, dim))
    note = "truncated + renormalised; recall vs full-dim exact"
    return Outcome([result_row(ctx, "numpy-exact", f"f32 d={dim}", built, timing, note)])


def bench_faiss_flat(ctx: Context) -> Outcome:
    import faiss

    faiss.omp_set_num_threads(1)

    def build() -> Any:
        index = faiss.IndexFlatIP(ctx.matrix.shape[1])
        index.add(ctx.matrix)
        return index

    index, built = measure_build(build)

    def search(q: np.ndarray) -> np.ndarray:
        return index.search(q[None, :], ctx.k)[1][0]

    row = result_row(ctx, "faiss-flat", "IndexFlatIP", built, time_search(ctx, search), "exact")
    deletion = probe_deletion(
        ctx, "faiss-flat remove_ids", lambda ids: index.remove_ids(ids.astype(np.int64)), None
    )
    return Outcome([row], f"{deletion} (O(n) compaction; later ids shift down, so wrap in IndexIDMap2)")


def bench_usearch(ctx: Context, dtype: str) -> Outcome:
    from usearch.index import Index

    metric = "cos" if dtype == "i8" else "ip"
    scale = 1.0 / float(np.abs(ctx.matrix).max()) if dtype == "i8" else 1.0
    keys = np.arange(ctx.n, dtype=np.uint64)

    def build() -> Any:
        index = Index(
            ndim=ctx.matrix.shape[1],
            metric=metric,
            dtype=dtype,
            connectivity=ctx.hnsw_m,
            expansion_add=ctx.ef_construction,
        )

        def add(start: int, end: int) -> None:
            index.add(keys[start:end], ctx.matrix[start:end] * scale, threads=2)

        build_in_chunks(ctx, add)
        return index

    params = f"M={ctx.hnsw_m} ef_add={ctx.ef_construction} {metric}"
    label = f"usearch-{dtype}"
    try:
        index, built = measure_build(build)
    except BuildTimeout as exc:
        return Outcome([Row(label, params, note=f"skipped: {exc}")], f"{label}: not built")

    def search(q: np.ndarray) -> np.ndarray:
        return index.search(q * scale, ctx.k, threads=1).keys.astype(np.int64)

    rows = []
    for ef in EF_SEARCH:
        index.expansion_search = ef
        rows.append(result_row(ctx, label, f"{params} ef={ef}", built, time_search(ctx, search)))
    index.expansion_search = 64
    deletion = probe_deletion(ctx, f"{label} remove", lambda ids: index.remove(ids.astype(np.uint64)), search)
    return Outcome(rows, f"{deletion}; size now {len(index)}")


def bench_hnswlib(ctx: Context) -> Outcome:
    import hnswlib

    labels = np.arange(ctx.n, dtype=np.int64)

    def build() -> Any:
        index = hnswlib.Index(space="ip", dim=ctx.matrix.shape[1])
        index.init_index(
            max_elements=ctx.n, ef_construction=ctx.ef_construction, M=ctx.hnsw_m, allow_replace_deleted=True
        )

        def add(start: int, end: int) -> None:
            index.add_items(ctx.matrix[start:end], labels[start:end], num_threads=2)

        build_in_chunks(ctx, add)
        return index

    params = f"M={ctx.hnsw_m} ef_construction={ctx.ef_construction} ip"
    try:
        index, built = measure_build(build)
    except BuildTimeout as exc:
        return Outcome([Row("hnswlib", params, note=f"skipped: {exc}")], "hnswlib: not built")

    def search(q: np.ndarray) -> np.ndarray:
        return index.knn_query(q, k=ctx.k, num_threads=1)[0][0].astype(np.int64)

    rows = []
    for ef in EF_SEARCH:
        index.set_ef(ef)
        rows.append(result_row(ctx, "hnswlib", f"{params} ef={ef}", built, time_search(ctx, search)))
    index.set_ef(64)

    def remove(ids: np.ndarray) -> None:
        for i in ids:
            index.mark_deleted(int(i))

    deletion = probe_deletion(ctx, "hnswlib mark_deleted", remove, search)
    victims = np.unique(ctx.truth[:DELETE_PROBE, 0])
    before = index.get_current_count()
    index.add_items(ctx.matrix[victims], victims, replace_deleted=True)
    after = index.get_current_count()
    reuse = f"re-adding into deleted slots (replace_deleted) keeps count {before} -> {after}"
    return Outcome(rows, f"{deletion}; {reuse}")


def bench_faiss_hnsw(ctx: Context) -> Outcome:
    import faiss

    def build() -> Any:
        faiss.omp_set_num_threads(2)
        index = faiss.IndexHNSWFlat(ctx.matrix.shape[1], ctx.hnsw_m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = ctx.ef_construction
        build_in_chunks(ctx, lambda start, end: index.add(ctx.matrix[start:end]))
        return index

    params = f"M={ctx.hnsw_m} efConstruction={ctx.ef_construction} ip"
    try:
        index, built = measure_build(build)
    except BuildTimeout as exc:
        return Outcome([Row("faiss-hnsw", params, note=f"skipped: {exc}")], "faiss-hnsw: not built")
    faiss.omp_set_num_threads(1)

    def search(q: np.ndarray) -> np.ndarray:
        return index.search(q[None, :], ctx.k)[1][0]

    rows = []
    for ef in EF_SEARCH:
        index.hnsw.efSearch = ef
        rows.append(result_row(ctx, "faiss-hnsw", f"{params} ef={ef}", built, time_search(ctx, search)))
    index.hnsw.efSearch = 64
    deletion = probe_deletion(
        ctx, "faiss-hnsw remove_ids", lambda ids: index.remove_ids(ids.astype(np.int64)), search
    )
    victims = np.unique(ctx.truth[:DELETE_PROBE, 0]).astype(np.int64)
    selector = faiss.IDSelectorNot(faiss.IDSelectorBatch(victims))
    filtered = faiss.SearchParametersHNSW(sel=selector, efSearch=64)

    def search_filtered(q: np.ndarray) -> np.ndarray:
        return index.search(q[None, :], ctx.k, params=filtered)[1][0]

    leaked = sum(int(np.isin(search_filtered(q), victims).sum()) for q in ctx.queries[:DELETE_PROBE])
    p50, _, _ = time_search(ctx, search_filtered)
    workaround = (
        f"search-time exclusion (IDSelectorNot(IDSelectorBatch)) works: {leaked} deleted ids returned, "
        f"p50 {p50:.2f} ms at ef=64"
    )
    return Outcome(rows, f"{deletion}; {workaround}")


def bench_faiss_ivf(ctx: Context) -> Outcome:
    import faiss

    nlist = 1 << round(np.log2(4 * np.sqrt(ctx.n)))
    train_n = min(ctx.n, 50 * nlist)

    def build() -> Any:
        faiss.omp_set_num_threads(2)
        quantizer = faiss.IndexFlatIP(ctx.matrix.shape[1])
        index = faiss.IndexIVFFlat(quantizer, ctx.matrix.shape[1], nlist, faiss.METRIC_INNER_PRODUCT)
        sample = np.random.default_rng(0).choice(ctx.n, train_n, replace=False)
        index.train(ctx.matrix[np.sort(sample)])
        build_in_chunks(ctx, lambda start, end: index.add(ctx.matrix[start:end]))
        return index

    params = f"nlist={nlist} train={train_n}"
    try:
        index, built = measure_build(build)
    except BuildTimeout as exc:
        return Outcome([Row("faiss-ivf", params, note=f"skipped: {exc}")], "faiss-ivf: not built")
    faiss.omp_set_num_threads(1)

    def search(q: np.ndarray) -> np.ndarray:
        return index.search(q[None, :], ctx.k)[1][0]

    rows = []
    for nprobe in IVF_NPROBE:
        index.nprobe = nprobe
        rows.append(
            result_row(ctx, "faiss-ivf", f"{params} nprobe={nprobe}", built, time_search(ctx, search))
        )
    index.nprobe = 16
    deletion = probe_deletion(
        ctx, "faiss-ivf remove_ids", lambda ids: index.remove_ids(ids.astype(np.int64)), search
    )
    return Outcome(rows, deletion)


METHODS: dict[str, Callable[[Context], Outcome]] = {
    "numpy": bench_numpy,
    "numpy128": bench_numpy_128,
    "faiss-flat": bench_faiss_flat,
    "usearch-f32": lambda ctx: bench_usearch(ctx, "f32"),
    "usearch-f16": lambda ctx: bench_usearch(ctx, "f16"),
    "usearch-i8": lambda ctx: bench_usearch(ctx, "i8"),
    "hnswlib": bench_hnswlib,
    "faiss-hnsw": bench_faiss_hnsw,
    "faiss-ivf": bench_faiss_ivf,
}


def _child(name: str, ctx: Context, conn: Connection) -> None:
    try:
        outcome = METHODS[name](ctx)
    except Exception as exc:
        outcome = Outcome([Row(name, "", note=f"failed: {type(exc).__name__}: {exc}")])
    conn.send(outcome)
    conn.close()


def run_method(name: str, ctx: Context) -> Outcome:
    """Run one method in a forked child; a crash or a hang past the budget yields a note."""
    fork = mp.get_context("fork")
    receiver, sender = fork.Pipe(duplex=False)
    proc = fork.Process(target=_child, args=(name, ctx, sender), daemon=True)
    proc.start()
    sender.close()
    deadline = ctx.build_timeout * 2 + 600
    outcome: Outcome | None = None
    if receiver.poll(deadline):
        try:
            outcome = receiver.recv()
        except EOFError:
            outcome = None
    proc.join(timeout=30)
    if proc.is_alive():
        proc.kill()
        proc.join()
    if outcome is None:
        reason = f"exit code {proc.exitcode}" if proc.exitcode is not None else "killed after deadline"
        outcome = Outcome([Row(name, "", note=f"child died: {reason}")])
    return outcome


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def format_table(rows: list[Row]) -> str:
    header = (
        f"{'method':<13} {'params':<38} {'build s':>8} {'+RSS MB':>8} {'peak MB':>8} "
        f"{'recall':>7} {'cos gap':>8} {'p50 ms':>7} {'p99 ms':>7}  note"
    )
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(
            f"{r.method:<13} {r.params:<38} {_fmt(r.build_s, '8.1f')} {_fmt(r.rss_mb, '8.0f')} "
            f"{_fmt(r.peak_mb, '8.0f')} {_fmt(r.recall, '7.3f')} {_fmt(r.cos_gap, '8.4f')} "
            f"{_fmt(r.p50_ms, '7.2f')} {_fmt(r.p99_ms, '7.2f')}  {r.note}"
        )
    return "\n".join(lines)


def run_size(args: argparse.Namespace, n: int, model: Any) -> dict[str, Any]:
    gc.collect()
    before = rss()
    matrix, source = load_matrix(model, n, args.cache_dir)
    if args.dim != FULL_DIM:
        matrix = truncate(matrix, args.dim)
    gc.collect()
    matrix_mb = (rss() - before) / MB

    texts = synthetic_queries(args.queries)
    queries = truncate(model.embed(texts, norm=True, batch_size=1024), args.dim)
    embed_times = []
    for text in texts:
        t0 = time.perf_counter_ns()
        model.embed([text], norm=True)
        embed_times.append(time.perf_counter_ns() - t0)
    embed_p50 = float(np.percentile(embed_times, 50)) / 1e6
    embed_p99 = float(np.percentile(embed_times, 99)) / 1e6

    t0 = time.perf_counter()
    truth, kth = exact_truth(matrix, queries, args.k)
    truth_s = time.perf_counter() - t0
    ctx = Context(
        n=n,
        k=args.k,
        repeats=args.repeats,
        build_timeout=args.build_timeout,
        hnsw_m=args.hnsw_m,
        ef_construction=args.ef_construction,
        matrix=matrix,
        queries=queries,
        truth=truth,
        kth_score=kth,
    )

    print(f"\n== n={n} dim={args.dim} queries={args.queries} k={args.k} repeats={args.repeats} ==")
    print(f"matrix: {source}; {matrix.nbytes / MB:.0f} MB (RSS +{matrix_mb:.0f} MB)")
    print(f"ground truth (batched exact) in {truth_s:.1f} s")
    print(f"query embedding (wordllama, one query): p50 {embed_p50:.2f} ms, p99 {embed_p99:.2f} ms")
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    rows: list[Row] = []
    notes: list[str] = []
    for name in args.methods:
        t0 = time.perf_counter()
        outcome = run_method(name, ctx)
        print(f"  {name}: done in {time.perf_counter() - t0:.0f} s", flush=True)
        rows.extend(outcome.rows)
        if outcome.deletion:
            notes.append(outcome.deletion)
    print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print()
    print(format_table(rows))
    print("\ndeletion:")
    for note in notes:
        print(f"  {note}")
    sys.stdout.flush()
    return {
        "n": n,
        "dim": args.dim,
        "queries": args.queries,
        "k": args.k,
        "repeats": args.repeats,
        "matrix_mb": matrix.nbytes / MB,
        "query_embed_ms": {"p50": embed_p50, "p99": embed_p99},
        "load_average_end": os.getloadavg(),
        "rows": [asdict(r) for r in rows],
        "deletion": notes,
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, action="append", help="stored turns; repeat for several sizes")
    parser.add_argument("--dim", type=int, default=FULL_DIM, help="embedding dimensions (matryoshka prefix)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument(
        "--methods",
        default=",".join(METHODS),
        help=f"comma-separated subset of {','.join(METHODS)}",
    )
    parser.add_argument(
        "--build-timeout", type=float, default=600.0, help="seconds after which a build is skipped"
    )
    parser.add_argument("--hnsw-m", type=int, default=16, help="HNSW links per node (M, connectivity)")
    parser.add_argument("--ef-construction", type=int, default=100, help="HNSW build beam width")
    parser.add_argument("--cache-dir", default="/tmp")
    parser.add_argument("--json", help="also write the results to this path")
    args = parser.parse_args(argv)
    args.n = args.n or [100_000]
    args.methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in args.methods if m not in METHODS]
    if unknown:
        parser.error(f"unknown methods: {', '.join(unknown)}")
    if not 0 < args.dim <= FULL_DIM:
        parser.error(f"--dim must be in 1..{FULL_DIM}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.getLogger("faiss.loader").setLevel(logging.WARNING)
    before = rss()
    model = load_wordllama()
    print(f"wordllama loaded (RSS +{(rss() - before) / MB:.0f} MB); cpus={os.cpu_count()}")
    results = [run_size(args, n, model) for n in args.n]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)


if __name__ == "__main__":
    main()
