"""Access-control benchmark: governed recall against ungoverned recall on one store.

One store of synthetic clinic turns is built under the ``medical`` policy pack,
with the synthetic speakers given clinic roles (patients, clinicians, nurses,
family, front desk, pharmacy, billing, lab), care relationships (an assigned
clinician per patient, covering clinicians inside and outside their time window,
family members with access scopes) and one patient's consent. Turn texts name
patients by display name (``synthetic_turns(names=...)``), so sentences carry
realistic subjects and tags, and each requester class is denied a realistic
share of the store (printed: the share of objects it may rank, and the share
it may read unredacted).

Then, in fresh subprocesses over that same store file, the same (requester,
query) pairs are recalled two ways, alternating which goes first from pair to
pair so that drift and cache warmth fall on both equally:

- **governed**: the read path with the :class:`PolicyAuthorizer` (query
  assessment, scope filter before ranking, review and redaction after) and the
  decision-log write;
- **ungoverned**: the same read path with :class:`OpenAccess` and no decision
  log, i.e. what recall costs with no access control at all.

Both go through one ``Memory`` (one connection, one loaded index): a second
connection would see the decision-log commits as changes from elsewhere and
reload its index. Figures are medians over the repeats; the overhead ratios are
governed / ungoverned at p50 and p99, with the target (<= 1.25 at p50). A last
pass with timing wrappers splits the governed cost into its parts.
Run with ``govmem bench access``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

import numpy as np

from govmem.bench.synthetic import FIRST_NAMES, SURNAMES, _pool

BATCH_TURNS = 10_000
TARGET_P50 = 1.25
POLICY = "medical"
STORE_SEED = 0
QUERY_SEED = 1
READABLE_SAMPLE = 5
"""Principals per class over which the readable shares are averaged."""
REVIEW_SAMPLE = 2000
"""Objects (evenly spaced by key) the read path reviews for the shown/whole shares."""

# The cast: the synthetic speakers p000..p049, given clinic roles.
CLASSES: tuple[tuple[str, str, int], ...] = (
    ("patient", "patient", 30),
    ("clinician", "clinician", 6),
    ("nurse", "nurse", 4),
    ("family", "family", 5),
    ("reception", "reception", 2),
    ("pharmacist", "pharmacist", 1),
    ("billing", "billing", 1),
    ("lab_tech", "lab_tech", 1),
)
PATIENT_FIRST = FIRST_NAMES[0:60:2]
"""Patients' first names, which the synthetic texts mention."""
BYSTANDER_FIRST = FIRST_NAMES[1:40:2]
"""Names the texts also mention that belong to no principal (visitors, people elsewhere)."""
TEXT_NAMES = PATIENT_FIRST + BYSTANDER_FIRST
STAFF_FIRST = FIRST_NAMES[60:]
PATIENT_SURNAMES = _pool("""
Abara Bello Carvalho Dimitrov Eze Fontaine Gupta Horvat Iqbal Jensen Kovacs Larsen Mwangi Nilsen
Oyelaran Pereira Quispe Reyes Sokolova Toure Uchida Vasquez Wozniak Xu Yamada Zuniga Achterberg
Bakshi Cerny Dlamini
""")
FAMILY_SCOPES = ("logistics", "scheduling_only", "pickup")

CLINIC_QUERIES: tuple[str, ...] = (
    "When is {name}'s appointment with Dr {surname}?",
    "What dose of {drug} is {name} taking?",
    "Who changed the {drug} prescription?",
    "Is {name} allergic to {drug}?",
    "Can {drug} be taken with {drug2}?",
    "What is the plan for {name}'s {condition}?",
    "How much does the insurance cover for {drug}?",
    "When is {name}'s follow up for {condition}?",
    "Where is {name}'s dressing change?",
    "What were {name}'s lab results?",
    "Who reported side effects from {drug}?",
    "Was {name}'s referral to {cplace} approved?",
    "What was the blood pressure this morning?",
    "Did {name} miss the appointment on {weekday}?",
    "Who is ordering more {drug} samples?",
    "What did Dr {surname} say about the {condition}?",
)


def cast() -> tuple[list[Any], list[Any], dict[str, list[str]]]:
    """(principals, relationships, members of each requester class) for the clinic."""
    from govmem.models import Principal, Relationship

    principals, members = [], defaultdict(list)
    number = 0
    staff = iter(STAFF_FIRST)
    for cls, role, count in CLASSES:
        for i in range(count):
            pid = f"p{number:03d}"
            number += 1
            if role == "patient":
                name = f"{PATIENT_FIRST[i]} {PATIENT_SURNAMES[i]}"
            elif role == "clinician":
                name = f"Dr. {SURNAMES[7 * i]}"
            elif role == "nurse":
                name = f"Nurse {next(staff)} {SURNAMES[7 * i + 3]}"
            else:
                name = f"{next(staff)} {SURNAMES[(5 * number) % len(SURNAMES)]}"
            principals.append(Principal(pid, role, name))
            members[cls].append(pid)
    patients, clinicians, family = members["patient"], members["clinician"], members["family"]
    relationships = [
        Relationship("assigned_clinician", clinicians[i % len(clinicians)], p) for i, p in enumerate(patients)
    ]
    for i, p in enumerate(patients[::3]):
        covering = clinicians[(3 * i + 1) % len(clinicians)]
        window = ("2026-01-01T00:00:00", "2099-01-01T00:00:00") if i % 2 else ("2026-01-01", "2026-04-01")
        relationships.append(Relationship("covering_clinician", covering, p, {}, *window))
    for j, f in enumerate(family):
        for n, p in enumerate(patients[j :: len(family)][:3]):
            scope = FAMILY_SCOPES[(j + n) % len(FAMILY_SCOPES)]
            relationships.append(Relationship("family_member", f, p, {"access_scope": scope}))
    return principals, relationships, dict(members)


def requester_pairs(members: dict[str, list[str]], queries: int) -> list[tuple[str, str, str]]:
    """(class, requester, query): classes in turn, members of a class in turn."""
    from govmem.bench.synthetic import synthetic_queries

    questions = synthetic_queries(queries, seed=QUERY_SEED, names=TEXT_NAMES, templates=CLINIC_QUERIES)
    classes = [cls for cls, _, _ in CLASSES]
    pairs = []
    for i, question in enumerate(questions):
        cls = classes[i % len(classes)]
        group = members[cls]
        pairs.append((cls, group[(i // len(classes)) % len(group)], question))
    return pairs


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if len(values) else float("nan")


# building the store


def build_store(path: str, size: int, seed: int = STORE_SEED) -> dict[str, Any]:
    """Build the governed store at ``path``; return its counts and readable shares."""
    from govmem.api.memory import Memory
    from govmem.bench.synthetic import synthetic_turns

    principals, relationships, members = cast()
    figures: dict[str, Any] = {"size": size}
    with Memory(path, policy=POLICY) as memory:
        memory.add_principals(principals)
        memory.add_relationships(relationships)
        memory.consent(members["patient"][0], members["family"][0], ["medication"])
        turns, elapsed = synthetic_turns(size, seed=seed, names=TEXT_NAMES, domains=("clinic",)), 0.0
        while batch := list(islice(turns, BATCH_TURNS)):
            started = time.perf_counter()
            memory.ingest_many(batch)
            elapsed += time.perf_counter() - started
        figures["ingest_turns_per_s"] = size / elapsed if elapsed else 0.0
        counts = memory.store.counts()
        figures["objects"] = counts["objects"]
        figures["objects_by_kind"] = {k[8:]: v for k, v in counts.items() if k.startswith("objects.")}
        figures["turns"] = counts["turns"]
        figures["relationships"] = counts["relationships"]
        figures["labels"] = len(memory.engine.labels)
        started = time.perf_counter()
        figures["readable"] = readable_shares(memory, members)
        figures["readable_s"] = time.perf_counter() - started
    return figures


def readable_shares(memory: Any, members: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """Per requester class, averaged over up to READABLE_SAMPLE members: the share of
    objects it may rank (a label with a readable facet; exact, from the labels), and,
    from the read path's own review of a sample of REVIEW_SAMPLE objects, the share
    it would be shown at all (whole or redacted) and shown whole."""
    from govmem.governance.authorization import utc_now

    store, authorizer = memory.store, memory.authorizer
    db = store.db
    per_label = Counter(dict(db.execute("SELECT coalesce(label_key, 0), count(*) FROM objects GROUP BY 1")))
    total = sum(per_label.values())
    keys = [row[0] for row in db.execute("SELECT object_key FROM objects ORDER BY object_key")]
    step = max(len(keys) // REVIEW_SAMPLE, 1)
    found = store.get_objects(keys[::step])
    sample = [found[k] for k in keys[::step] if k in found]
    at = utc_now()
    shares = {}
    for cls, group in members.items():
        rankable, shown, whole = [], [], []
        for pid in group[:READABLE_SAMPLE]:
            principal = store.get_principal(pid)
            readable = authorizer.scope(store, principal, at).labels
            rankable.append(sum(n for key, n in per_label.items() if key in readable) / total)
            reviews = authorizer.review(store, principal, sample, at)
            shown.append(sum(r.visible is not None for r in reviews) / len(sample))
            whole.append(sum(r.visible is not None and not r.redacted for r in reviews) / len(sample))
        shares[cls] = {
            "principals": len(group),
            "rankable": statistics.fmean(rankable),
            "shown": statistics.fmean(shown),
            "whole": statistics.fmean(whole),
        }
    return shares


# measuring


class _TimedAuthorizer:
    """Wraps an authorizer, adding up the time of each of its calls."""

    def __init__(self, inner: Any, times: dict[str, float]):
        self.inner = inner
        self.times = times

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def for_query(self, query: str) -> Any:
        narrowed = getattr(self.inner, "for_query", None)
        inner = narrowed(query) if narrowed is not None else self.inner
        return self if inner is self.inner else _TimedAuthorizer(inner, self.times)

    def scope(self, store: Any, requester: Any, at: str) -> Any:
        started = time.perf_counter()
        found = self.inner.scope(store, requester, at)
        self.times["scope"] += time.perf_counter() - started
        return found

    def review(self, store: Any, requester: Any, objects: Any, at: str) -> Any:
        started = time.perf_counter()
        found = self.inner.review(store, requester, objects, at)
        self.times["review"] += time.perf_counter() - started
        return found

    def assess_query(self, store: Any, requester: Any, query: str, at: str) -> Any:
        started = time.perf_counter()
        found = self.inner.assess_query(store, requester, query, at)
        self.times["assess_query"] += time.perf_counter() - started
        return found


def _timed(function: Callable[..., Any], times: dict[str, float], name: str) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            times[name] += time.perf_counter() - started

    return timed


class _TimedLog:
    def __init__(self, inner: Any, times: dict[str, float]):
        self.inner = inner
        self.times = times

    def record(self, *args: Any, **kwargs: Any) -> None:
        started = time.perf_counter()
        self.inner.record(*args, **kwargs)
        self.times["audit"] += time.perf_counter() - started


def run_worker(path: str, queries: int, k: int = 10) -> dict[str, Any]:
    """One measured run in this process over the store at ``path``."""
    from govmem.api.memory import Memory
    from govmem.governance.authorization import OpenAccess, utc_now
    from govmem.read_path.recall import recall

    read_path = sys.modules["govmem.read_path.recall"]  # the module (the package exports the function)
    from govmem.retrieval.lexical import or_expression

    _, _, members = cast()
    pairs = requester_pairs(members, queries)
    figures: dict[str, Any] = {}
    with Memory(path) as memory:
        store, retriever = memory.store, memory.retriever
        governed, ungoverned = memory.authorizer, OpenAccess()

        def run(mode: str, requester: str, query: str) -> Any:
            if mode == "governed":
                return recall(store, retriever, governed, requester, query, k, audit=memory.audit)
            return recall(store, retriever, ungoverned, requester, query, k)

        started = time.perf_counter()
        run("ungoverned", pairs[0][1], pairs[0][2])
        figures["first_recall_s"] = time.perf_counter() - started
        # What a requester's first read after a governance change costs: deciding
        # every label once (then memoised until principals, relationships, grants
        # or the set of labels change).
        cold, at = [], utc_now()
        for requester in dict.fromkeys(r for _, r, _ in pairs):
            started = time.perf_counter()
            governed.scope(store, store.get_principal(requester), at)
            cold.append((time.perf_counter() - started) * 1000)
        figures["cold_scope_ms"] = statistics.median(cold)
        # Warm both paths on every pair once (facet decisions, label lookups, pages),
        # so the timed pass compares steady states.
        for _, requester, query in pairs:
            run("governed", requester, query)
            run("ungoverned", requester, query)

        latencies: dict[str, list[float]] = {"governed": [], "ungoverned": []}
        actions = []
        for i, (_, requester, query) in enumerate(pairs):
            for mode in ("governed", "ungoverned") if i % 2 == 0 else ("ungoverned", "governed"):
                started = time.perf_counter()
                result = run(mode, requester, query)
                latencies[mode].append((time.perf_counter() - started) * 1000)
                if mode == "governed":
                    actions.append(result.action)
        figures["latencies"] = latencies
        figures["actions"] = actions

        # Breakdown: the same pairs once more, with timing wrappers, plus the two
        # label filters inside retrieval timed on their own.
        times: dict[str, float] = defaultdict(float)
        timed, log = _TimedAuthorizer(governed, times), _TimedLog(memory.audit, times)
        index, at = retriever.index, utc_now()
        rerank = getattr(read_path, "rank_on_visible_text", None)
        if rerank is not None:
            read_path.rank_on_visible_text = _timed(rerank, times, "rerank")
        retrieved = 0
        try:
            for _, requester, query in pairs:
                before = dict(times)
                started = time.perf_counter()
                recall(store, retriever, timed, requester, query, k, audit=log)
                times["governed_total"] += time.perf_counter() - started
                if times["scope"] == before.get("scope", 0.0):
                    # Refused from the query alone: no retrieval, nothing to compare.
                    times.clear()
                    times.update(before)
                    continue
                retrieved += 1
                started = time.perf_counter()
                recall(store, retriever, ungoverned, requester, query, k)
                times["ungoverned_total"] += time.perf_counter() - started
                labels = governed.scope(store, store.get_principal(requester), at).labels
                started = time.perf_counter()
                index.candidate_mask(None, None, labels)
                times["dense_mask"] += time.perf_counter() - started
                match = or_expression(retriever.lexical_terms(query))
                if match is not None and labels:
                    pool = max(4 * k, 50)
                    started = time.perf_counter()
                    retriever._lexical_within(index, match, pool, None, None, labels)
                    filtered = time.perf_counter() - started
                    started = time.perf_counter()
                    store.lexical_search(match, pool, None, None)
                    times["lexical_filter"] += filtered - (time.perf_counter() - started)
        finally:
            if rerank is not None:
                read_path.rank_on_visible_text = rerank
        parts = ("assess_query", "scope", "dense_mask", "lexical_filter", "review", "rerank", "audit")
        extra = times["governed_total"] - times["ungoverned_total"]
        times["unaccounted"] = extra - sum(times[part] for part in parts)
        figures["breakdown_pairs"] = retrieved
        figures["breakdown_ms"] = {key: 1000 * value / max(retrieved, 1) for key, value in times.items()}
        figures["labels"] = len(memory.engine.labels)
        figures["objects"] = store.counts_of("objects")
    return figures


def _run_in_subprocess(args: Sequence[str]) -> dict[str, Any]:
    command = [sys.executable, "-m", "govmem.bench.access", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark worker failed ({' '.join(args[:1])}):\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _summarise(run: dict[str, Any], classes: Sequence[str]) -> dict[str, float]:
    """Percentiles of one run: overall, on pairs the governed path did not refuse, per class."""
    governed, ungoverned, actions = (
        run["latencies"]["governed"],
        run["latencies"]["ungoverned"],
        run["actions"],
    )
    kept = [i for i, a in enumerate(actions) if a != "refuse"]
    out = {}
    for mode, values in (("governed", governed), ("ungoverned", ungoverned)):
        out[f"{mode}_p50"] = _percentile(values, 50)
        out[f"{mode}_p99"] = _percentile(values, 99)
        out[f"{mode}_kept_p50"] = _percentile([values[i] for i in kept], 50)
        out[f"{mode}_kept_p99"] = _percentile([values[i] for i in kept], 99)
        for c, cls in enumerate(classes):
            out[f"{mode}_{cls}_p50"] = _percentile(values[c :: len(classes)], 50)
    return out


def run_access(
    size: int = 100_000,
    repeats: int = 3,
    queries: int = 400,
    echo: Callable[[str], None] = print,
    folder: str | None = None,
) -> dict[str, Any]:
    """Build one store, measure it ``repeats`` times; print and return medians (and the raw runs)."""
    classes = [cls for cls, _, _ in CLASSES]
    results: dict[str, Any] = {"size": size, "repeats": repeats, "queries": queries, "policy": POLICY}
    with tempfile.TemporaryDirectory(prefix="govmem-bench-access-", dir=folder) as tmp:
        path = os.path.join(tmp, "access.db")
        echo(f"[{size:,} turns] building the {POLICY} store ...")
        build = _run_in_subprocess(["build", path, str(size)])
        results["store"] = build
        echo(
            f"    {build['objects']:,} objects ({_by_kind(build)}), {build['labels']:,} labels, "
            f"ingest {build['ingest_turns_per_s']:,.0f} turns/s"
        )
        runs = []
        for repeat in range(repeats):
            echo(f"[{size:,} turns] run {repeat + 1}/{repeats} ...")
            raw = _run_in_subprocess(["measure", path, str(queries)])
            raw["summary"] = _summarise(raw, classes)
            runs.append(raw)
            s = raw["summary"]
            echo(
                f"    recall p50 governed {s['governed_p50']:.2f} ms, ungoverned "
                f"{s['ungoverned_p50']:.2f} ms (x{s['governed_p50'] / s['ungoverned_p50']:.2f}); "
                f"p99 {s['governed_p99']:.2f} vs {s['ungoverned_p99']:.2f} ms"
            )
    median = {key: statistics.median(r["summary"][key] for r in runs) for key in runs[0]["summary"]}
    for key in ("first_recall_s", "cold_scope_ms"):
        median[key] = statistics.median(r[key] for r in runs)
    breakdown = {
        key: statistics.median(r["breakdown_ms"][key] for r in runs) for key in runs[0]["breakdown_ms"]
    }
    for suffix in ("p50", "p99", "kept_p50", "kept_p99"):
        median[f"ratio_{suffix}"] = median[f"governed_{suffix}"] / median[f"ungoverned_{suffix}"]
    actions = Counter(runs[0]["actions"])
    results.update(median=median, breakdown_ms=breakdown, actions=dict(actions), runs=runs)
    results["breakdown_pairs"] = runs[0]["breakdown_pairs"]
    results["target_p50"] = TARGET_P50
    results["meets_target"] = median["ratio_p50"] <= TARGET_P50
    _print_table(results, echo)
    return results


def _by_kind(store: dict[str, Any]) -> str:
    return ", ".join(f"{n:,} {kind}" for kind, n in store["objects_by_kind"].items())


def _print_table(results: dict[str, Any], echo: Callable[[str], None]) -> None:
    m, store, queries = results["median"], results["store"], results["queries"]
    classes = [cls for cls, _, _ in CLASSES]
    kept = sum(n for action, n in results["actions"].items() if action != "refuse")
    echo("")
    echo(
        f"store: {store['turns']:,} turns -> {store['objects']:,} objects ({_by_kind(store)}), "
        f"{store['labels']:,} distinct labels, {store['relationships']} relationships, "
        f"policy {results['policy']}"
    )
    echo(
        f"medians over {results['repeats']} run(s), {queries} (requester, query) pairs each, "
        "governed and ungoverned alternating"
    )
    header = f"{'figure':44}{'governed':>12}{'ungoverned':>12}{'ratio':>8}"
    echo(header)
    echo("-" * len(header))
    rows = [
        ("p50", "recall p50, ms (all pairs)"),
        ("p99", "recall p99, ms (all pairs)"),
        ("kept_p50", f"recall p50, ms ({kept} pairs not refused)"),
        ("kept_p99", f"recall p99, ms ({kept} pairs not refused)"),
    ]
    for key, label in rows:
        g, u = m[f"governed_{key}"], m[f"ungoverned_{key}"]
        echo(f"{label:44}{g:>12.2f}{u:>12.2f}{g / u:>8.2f}")
    for cls in classes:
        g, u = m[f"governed_{cls}_p50"], m[f"ungoverned_{cls}_p50"]
        echo(f"{'  p50, ms, requester class ' + cls:44}{g:>12.2f}{u:>12.2f}{g / u:>8.2f}")
    verdict = "meets" if results["meets_target"] else "MISSES"
    echo(
        f"overhead at p50: x{m['ratio_p50']:.2f} ({verdict} target <= x{results['target_p50']:.2f}); "
        f"at p99: x{m['ratio_p99']:.2f}"
    )
    echo(
        f"first recall (loads index), s: {m['first_recall_s']:.2f}; scope of a requester's first read "
        f"after a governance or label change (decides every label), p50 ms: {m['cold_scope_ms']:.2f}"
    )
    echo("governed actions: " + ", ".join(f"{a} {n}" for a, n in sorted(results["actions"].items())))
    echo("")
    b = results["breakdown_ms"]
    echo(
        f"governed cost breakdown, mean ms per recall over the {results['breakdown_pairs']} pairs that "
        "reached retrieval (timing-wrapper pass)"
    )
    for key, label in (
        ("governed_total", "governed recall"),
        ("ungoverned_total", "ungoverned recall"),
        ("assess_query", "  assess query (labels the query, decides facets)"),
        ("scope", "  scope (permissions, readable labels)"),
        ("dense_mask", "  dense label mask (inside retrieval)"),
        ("lexical_filter", "  lexical label filter, extra (inside retrieval)"),
        ("review", "  review and redaction"),
        ("rerank", "  ranking again on the readable text"),
        ("audit", "  decision log write"),
        ("unaccounted", "  rest of the difference (unattributed)"),
    ):
        echo(f"{label:52}{b.get(key, 0.0):>10.3f}")
    echo("")
    echo(
        "share of objects each requester class may rank (a readable sentence), and would be shown "
        f"(whole or redacted) / shown whole (review of {REVIEW_SAMPLE:,} objects)"
    )
    echo(f"{'class':14}{'principals':>12}{'rankable':>12}{'shown':>12}{'whole':>12}")
    for cls, share in store["readable"].items():
        echo(
            f"{cls:14}{share['principals']:>12}{share['rankable']:>12.1%}"
            f"{share['shown']:>12.1%}{share['whole']:>12.1%}"
        )


if __name__ == "__main__":
    if sys.argv[1] == "build":
        print(json.dumps(build_store(sys.argv[2], int(sys.argv[3]))))
    else:
        print(json.dumps(run_worker(sys.argv[2], int(sys.argv[3]))))
