"""The forgetting benchmark end to end on a tiny generated set: files, counts, re-scoring,
the CLI, and the guarantee that govmem's method never sees annotations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from forgetting_helpers import ANNOTATIONS, fact_lines, write_lines

from govmem.api.cli import main
from govmem.bench.forgetting import PLOT, REPORT, format_table, plot, run_forgetting
from govmem.bench.forgetting_data import Question, read_annotations
from govmem.bench.forgetting_reader import LLMChoiceReader
from govmem.bench.forgetting_scoring import DELETIONS, FULL, RECOVERY, rescore
from govmem.errors import LLMError, LoadError


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def run(tiny_forgetting_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("forgetting-run")
    return out, run_forgetting(tiny_forgetting_data, out, pool=6, budget=3)


def test_run_writes_every_file(run: tuple[Path, dict], tiny_forgetting_data: Path) -> None:
    out, report = run
    deletions = lines_of(out / DELETIONS)
    assert len(deletions) == 8 * 5
    assert {d["method"] for d in deletions} == {"S0", "S1", "S2", "whole_pool", "govmem"}
    assert set(deletions[0]) >= {"fact_id", "method", "deleted_turn_ids", "candidate_turn_ids"}
    recovery = lines_of(out / RECOVERY)
    assert len(recovery) == 8 * 6  # Full plus five methods
    assert json.loads((out / REPORT).read_text()) == report
    assert report["settings"]["pool"] == 6 and report["settings"]["budget"] == 3
    assert list(report["results"]["turn"]) == [FULL, "S0", "S1", "S2", "whole_pool", "govmem"]


def test_deletions_follow_the_method(run: tuple[Path, dict], tiny_forgetting_data: Path) -> None:
    out, report = run
    annotations = read_annotations(tiny_forgetting_data / "facts.jsonl")
    for line in lines_of(out / DELETIONS):
        fact = annotations[line["fact_id"]]
        deleted = set(line["deleted_turn_ids"])
        if line["method"] in ("S0", "S1", "S2", "whole_pool"):
            assert set(fact.disclosure_turns) <= deleted
        if line["method"] == "S0":
            assert deleted == set(fact.disclosure_turns)
        if line["method"] in ("S1", "S2"):
            assert len(deleted) == 1 + 3
            assert deleted - set(fact.disclosure_turns) <= set(line["candidate_turn_ids"])
        if line["method"] == "whole_pool":
            assert len(deleted) == 1 + 6
    results = report["results"]["turn"]
    assert results[FULL]["all"]["residual_derivability"] == 1.0
    assert results[FULL]["all"]["residual_recovery"] == 1.0
    assert results["S0"]["all"]["residual_derivability"] == 1.0  # evidence untouched
    assert results["S0"]["all"]["collateral_turns"] == 0.0
    assert results["whole_pool"]["all"]["deleted_turns"] == 7.0
    assert set(results["S1"]["by_derivation"]) == {
        "fact_assembly",
        "relation_chain",
        "aggregation",
        "temporal_state",
    }


def test_rescoring_reproduces_the_report(run: tuple[Path, dict], tiny_forgetting_data: Path) -> None:
    out, report = run
    assert rescore(tiny_forgetting_data, out) == report["results"]
    partial = out.parent / "partial"
    partial.mkdir()
    (partial / DELETIONS).write_text((out / DELETIONS).read_text())  # deletions alone still score
    rescored = rescore(tiny_forgetting_data, partial)["turn"]
    assert (
        rescored["S1"]["all"]["residual_derivability"]
        == report["results"]["turn"]["S1"]["all"]["residual_derivability"]
    )
    assert rescored["S1"]["all"]["native_recovery"] is None


def test_table_and_plot(run: tuple[Path, dict], tmp_path: Path) -> None:
    _, report = run
    table = format_table(report)
    for name in (FULL, "S0", "S1", "S2", "whole_pool", "govmem", "relation_chain", "S2 selector"):
        assert name in table
    assert plot(report, tmp_path / PLOT).startswith("plot written")
    assert (tmp_path / PLOT).read_bytes()[:4] == b"\x89PNG"


def test_govmem_never_sees_annotations(
    run: tuple[Path, dict], tiny_forgetting_data: Path, tmp_path: Path
) -> None:
    """Strip every annotation from the facts: govmem's deletions and candidates are the same."""
    stripped = tmp_path / "stripped"
    stripped.mkdir()
    (stripped / "episodes.jsonl").write_bytes((tiny_forgetting_data / "episodes.jsonl").read_bytes())
    facts = [{k: v for k, v in f.items() if k not in ANNOTATIONS} for f in fact_lines(tiny_forgetting_data)]
    write_lines(stripped / "facts.jsonl", facts)
    with pytest.raises(LoadError):  # nothing to score with
        read_annotations(stripped / "facts.jsonl")
    out = tmp_path / "blind"
    report = run_forgetting(stripped, out, methods=["govmem"], score_run=False)
    assert "results" not in report and not (out / RECOVERY).exists()
    full = [d for d in lines_of(run[0] / DELETIONS) if d["method"] == "govmem"]
    assert lines_of(out / DELETIONS) == full


def test_session_design_counts_closure_in_source_turns(tiny_forgetting_data: Path, tmp_path: Path) -> None:
    report = run_forgetting(
        tiny_forgetting_data, tmp_path, designs=[["session"]], methods=["S0", "S1"], pool=20, budget=10
    )
    deletions = lines_of(tmp_path / DELETIONS)
    assert {d["design"] for d in deletions} == {"session"}
    for line in deletions:
        # a pool of session windows is still counted in turns
        assert len(line["deleted_turn_ids"]) == (1 if line["method"] == "S0" else 11)
    assert report["results"]["session"]["S0"]["all"]["residual_recovery"] == 1.0


def test_cli_generate_run_and_score(tmp_path: Path) -> None:
    runner = CliRunner()
    data, out = tmp_path / "data", tmp_path / "out"
    result = runner.invoke(
        main,
        [
            "bench",
            "forgetting",
            "generate",
            "--out",
            str(data),
            "--episodes",
            "1",
            "--turns-per-episode",
            "200",
            "--facts-per-episode",
            "3",
            "--seed",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    assert '"facts": 3' in result.output
    result = runner.invoke(
        main,
        [
            "bench",
            "forgetting",
            "--data",
            str(data),
            "--out",
            str(out),
            "--method",
            "S0",
            "--method",
            "govmem",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "resid.der" in result.output and "govmem" in result.output
    assert (out / REPORT).exists() and (out / PLOT).exists()
    result = runner.invoke(main, ["bench", "forgetting", "score", "--data", str(data), "--run", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["turn"]["S0"]["all"]["facts"] == 3


def test_cli_errors(tiny_forgetting_data: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["bench", "forgetting"])
    assert result.exit_code != 0 and "--data DIR is required" in result.output
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "episodes.jsonl").write_bytes((tiny_forgetting_data / "episodes.jsonl").read_bytes())
    facts = fact_lines(tiny_forgetting_data)
    facts[1]["minimal_sufficient_sets"] = [facts[1]["evidence_turns"][:1]]
    write_lines(bad / "facts.jsonl", facts)
    result = runner.invoke(main, ["bench", "forgetting", "--data", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code != 0
    assert "facts.jsonl:2: minimal_sufficient_sets[0] has 1 turns" in result.output
    result = runner.invoke(
        main, ["bench", "forgetting", "--data", str(tiny_forgetting_data), "--reader", "llm"]
    )
    assert result.exit_code != 0 and "--reader llm needs --llm CONFIG" in result.output


class FakeClient:
    """Picks the option holding ``pick`` (or declines), as a model given the records would."""

    def __init__(self, pick: str | None, fail: bool = False):
        self.pick, self.fail, self.prompts = pick, fail, []

    def complete(self, prompt: str, **kwargs):
        self.prompts.append(prompt)
        if self.fail:
            raise LLMError("down")
        letter = "E"
        for line in prompt.splitlines():
            if self.pick and line[:2] in ("A)", "B)", "C)", "D)") and self.pick in line:
                letter = line[0]
        return type("Reply", (), {"data": {"choice": letter}})()


def test_llm_reader_needs_both_orders() -> None:
    question = Question("Which is true?", ("marathon", "pregnant", "new job", "abroad"), 1)
    reader = LLMChoiceReader(FakeClient("pregnant"))
    assert reader.correct("Ana: I'm pregnant.", question)
    assert "D) pregnant" not in reader.client.prompts[0] and "C) pregnant" in reader.client.prompts[1]
    assert not LLMChoiceReader(FakeClient(None)).correct("", question)  # declines
    assert not LLMChoiceReader(FakeClient("abroad")).correct("", question)
    failing = LLMChoiceReader(FakeClient("pregnant", fail=True))
    assert not failing.correct("x", question) and failing.failures == 1
