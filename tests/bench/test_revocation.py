"""The revocation benchmark runner, on our own scenario set (tests/fixtures/revocation_ours)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from govmem.bench.revocation import run_revocation
from govmem.errors import InputError, LoadError

OURS = Path(__file__).parents[1] / "fixtures" / "revocation_ours"


def test_runner_measures_every_mode_and_writes_reports(tmp_path: Path) -> None:
    lines: list[str] = []
    report = run_revocation(str(OURS), str(tmp_path), benign=60, echo=lines.append)
    for mode in ("direct", "indirect", "indirect-bare"):
        pooled = report["modes"][mode]["pooled"]
        assert pooled["exposure_any_surface"] == [0, 8], mode
        assert pooled["current_withheld"][0] == 0 and pooled["current_withheld"][1] > 0
        assert pooled["writeback_taint"] == [8, 8]
    surfaces = report["modes"]["direct"]["scenarios"]["ours_dose_change"]["surfaces"]
    assert {"recall:executor", "recall-task:planner", "get:executor", "export:executor"} <= surfaces.keys()
    assert report["benign"]["current_withheld"][0] == 0
    reads = [json.loads(line) for line in (tmp_path / "reads.jsonl").read_text().splitlines()]
    audit = [r for r in reads if r["surface"] == "audit-recall" and r["mode"] == "direct"]
    assert any(item["status"] == "superseded" for r in audit for item in r["returned"])
    assert json.loads((tmp_path / "report.json").read_text())["unsafe_action_rate"].startswith("not measured")
    assert any(line.startswith("| direct | 0/8") for line in "\n".join(lines).splitlines())


def test_bad_scenario_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"no scenarios\.jsonl"):
        run_revocation(str(tmp_path), benign=0, echo=lambda _: None)
    (tmp_path / "scenarios.jsonl").write_text('{"scenario_id": "x"}\n')
    with pytest.raises(LoadError, match=r"scenarios.jsonl:1: scenario has no 'document'"):
        run_revocation(str(tmp_path), benign=0, echo=lambda _: None)
