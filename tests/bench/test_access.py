"""``govmem bench access`` on a tiny store: the figures are there and sane (not timings)."""

from __future__ import annotations

import math
from itertools import islice

from click.testing import CliRunner

from govmem.api.cli import main
from govmem.bench.access import CLASSES, TARGET_P50, TEXT_NAMES, run_access
from govmem.bench.synthetic import DOMAINS, FIRST_NAMES, synthetic_queries, synthetic_turns


def test_access_benchmark_reports_sane_figures(tmp_path) -> None:
    lines: list[str] = []
    figures = run_access(size=500, repeats=1, queries=24, echo=lines.append, folder=str(tmp_path))

    store = figures["store"]
    assert store["turns"] == 500
    assert store["objects_by_kind"]["turn"] == 500
    assert store["objects"] == sum(store["objects_by_kind"].values()) > 500
    assert store["labels"] > 0
    classes = [cls for cls, _, _ in CLASSES]
    assert list(store["readable"]) == classes
    for share in store["readable"].values():
        assert 0.0 <= share["whole"] <= share["shown"] <= 1.0
        assert 0.0 <= share["rankable"] <= 1.0
    # The care relationships show: nurses see more of the clinic than one patient does.
    assert store["readable"]["nurse"]["rankable"] > store["readable"]["patient"]["rankable"]

    median = figures["median"]
    for key in ("governed_p50", "governed_p99", "ungoverned_p50", "ungoverned_p99"):
        assert math.isfinite(median[key]) and median[key] > 0
    assert median["governed_p99"] >= median["governed_p50"]
    assert math.isclose(median["ratio_p50"], median["governed_p50"] / median["ungoverned_p50"])
    assert figures["meets_target"] == (median["ratio_p50"] <= TARGET_P50)
    assert sum(figures["actions"].values()) == 24
    assert set(figures["actions"]) <= {"answer", "answer_redacted", "refuse", "no_memory"}
    run = figures["runs"][0]
    assert len(run["latencies"]["governed"]) == len(run["latencies"]["ungoverned"]) == 24
    for part in ("assess_query", "scope", "review", "audit", "governed_total", "ungoverned_total"):
        assert figures["breakdown_ms"][part] >= 0
    assert figures["breakdown_pairs"] > 0  # the timed authorizer saw the reads it times
    assert figures["breakdown_ms"]["scope"] > 0 and figures["breakdown_ms"]["review"] > 0

    table = "\n".join(lines)
    assert "overhead at p50" in table and f"target <= x{TARGET_P50:.2f}" in table
    assert "decision log write" in table
    for cls in classes:
        assert f"requester class {cls}" in table


def test_synthetic_options_keep_the_default_draws() -> None:
    default = list(synthetic_turns(300, seed=3))
    assert list(synthetic_turns(300, seed=3, names=FIRST_NAMES, domains=DOMAINS)) == default
    renamed = list(synthetic_turns(300, seed=3, names=TEXT_NAMES))
    assert [(t.turn_id, t.speaker, t.timestamp, t.session_id) for t in renamed] == [
        (t.turn_id, t.speaker, t.timestamp, t.session_id) for t in default
    ]
    assert synthetic_queries(50, seed=2, names=FIRST_NAMES) == synthetic_queries(50, seed=2)
    only = synthetic_queries(20, seed=2, names=("Zorro",), templates=("Where is {name}?",))
    assert only == ["Where is Zorro?"] * 20


def test_synthetic_names_reach_the_texts() -> None:
    texts = [t.text for t in islice(synthetic_turns(2000, seed=0, names=("Zorro",)), 2000)]
    assert any("Zorro" in text for text in texts)


def test_bench_access_help() -> None:
    result = CliRunner().invoke(main, ["bench", "access", "--help"])
    assert result.exit_code == 0
    assert "--size" in result.output and "--repeats" in result.output
