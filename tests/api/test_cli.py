"""The ``govmem`` command line, driven through click's CliRunner."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from govmem.api.cli import main
from govmem.api.demo import demo_episode_path
from govmem.store.schema import LATEST_VERSION

COMMANDS = [
    [],
    ["ingest"],
    ["recall"],
    ["get"],
    ["export"],
    ["grant"],
    ["revoke"],
    ["forget"],
    ["receipt"],
    ["receipt", "verify"],
    ["receipt", "key"],
    ["decisions"],
    ["policy"],
    ["stats"],
    ["demo"],
    ["bench"],
    ["bench", "performance"],
    ["bench", "access"],
    ["bench", "gatemem"],
    ["bench", "forgetting"],
    ["bench", "forgetting", "generate"],
    ["bench", "forgetting", "score"],
    ["bench", "revocation"],
]


@pytest.fixture
def runner(monkeypatch) -> CliRunner:
    monkeypatch.delenv("GOVMEM_DB", raising=False)
    return CliRunner()


@pytest.fixture
def run(runner: CliRunner, db_path: str):
    def invoke(*args: str) -> Result:
        return runner.invoke(main, ["--db", db_path, *args])

    return invoke


@pytest.fixture
def ingested(run) -> Result:
    result = run("ingest", demo_episode_path(), "--policy", "medical")
    assert result.exit_code == 0, result.output
    return result


def assert_clean_error(result: Result, *fragments: str) -> None:
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "govmem")
def test_every_command_has_help(runner: CliRunner, command: list[str]) -> None:
    result = runner.invoke(main, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: ")
    assert "--help" in result.stdout


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--version"])
    assert result.exit_code == 0
    assert "0.1.0" in result.stdout


def test_demo_prints_its_steps(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["--db", str(tmp_path / "unused.db"), "demo"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    steps = [
        "1. Ingest the example episode",
        "2. Recall as different principals",
        "3. Consent and revocation",
        "4. Provenance",
        "5. Forget by request",
        "6. Revocation",
    ]
    positions = [out.index(step) for step in [*steps, "7. Store now: 59 turns", "done in"]]
    assert positions == sorted(positions)
    assert "stored 63 turns and derived 70 memory objects" in out
    assert "recalled objects naming the deleted clinic (Birchwood): 0" in out
    assert "withheld turn-1: superseded by policy-2026" in out
    assert "[superseded] Family members may visit" in out
    assert not (tmp_path / "unused.db").exists()


def test_demo_keep_writes_the_store(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "kept.db"
    assert runner.invoke(main, ["--db", str(path), "demo", "--keep"]).exit_code == 0
    stats = runner.invoke(main, ["--db", str(path), "stats", "--json"])
    assert json.loads(stats.stdout)["counts"]["turns"] == 59


def test_ingest_recall_stats(run, ingested: Result, db_path: str) -> None:
    assert "ingested 63 turns from 1 episode(s)" in ingested.stdout
    assert "70 memory objects derived" in ingested.stdout

    recall = run(
        "recall", "Which parking level is reserved for clinic patients?", "--as", "nurse_quinn", "--json"
    )
    assert recall.exit_code == 0, recall.output
    data = json.loads(recall.stdout)
    assert data["requester"] == "nurse_quinn"
    assert data["decision"]["action"] == "answer"
    assert 1 <= len(data["items"]) <= 5
    assert any("P2" in item["text"] for item in data["items"])
    assert {"object_id", "kind", "text", "sources", "episode_id", "observed_at", "scores"} <= data["items"][
        0
    ].keys()

    turn_only = run("recall", "parking", "--as", "nurse_quinn", "--design", "turn", "-k", "2", "--json")
    items = json.loads(turn_only.stdout)["items"]
    assert len(items) == 2
    assert {item["kind"] for item in items} == {"turn"}

    stats = run("stats", "--json")
    assert stats.exit_code == 0
    data = json.loads(stats.stdout)
    assert data["path"] == db_path
    assert data["counts"]["turns"] == 63
    assert data["counts"]["objects"] == 70
    assert data["designs"] == ["turn", "session"]


def test_human_readable_output(run, ingested: Result) -> None:
    recall = run("recall", "lisinopril cough", "--as", "clinician_dr_varga", "-k", "2")
    assert recall.exit_code == 0
    assert recall.stdout.startswith("action: answer\nreason: pack:medical")
    assert "\n1. " in recall.stdout and "\n2. " in recall.stdout and "\n3. " not in recall.stdout
    assert "fused=" in recall.stdout
    stats = run("stats")
    assert f"schema_version: {LATEST_VERSION}" in stats.stdout
    assert "policy: medical" in stats.stdout
    assert "turns: 63" in stats.stdout
    assert "designs: turn, session" in stats.stdout


def test_ingest_json_report(run, db_path: str) -> None:
    result = run(
        "ingest", demo_episode_path(), "--design", "turn", "--detect-supersession", "statements", "--json"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "file": demo_episode_path(),
        "source": "1 episode(s)",
        "turns": 63,
        "objects_added": 63,
        "superseded": 2,  # statements by default: the episode's two dose changes (t025, t053)
        "conflicts": 0,
        "db": db_path,
    }


def test_ingest_plain_turns(run, ingested: Result, jsonl_file) -> None:
    path = jsonl_file(
        "turns.jsonl",
        [{"turn_id": f"p{i}", "speaker": "nurse_quinn", "text": f"Plain note {i}."} for i in range(3)],
    )
    result = run("ingest", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["turns"] == 3
    assert json.loads(run("stats", "--json").stdout)["counts"]["episodes"] == 2


def test_bad_file_names_file_line_and_problem(run, ingested: Result, bad_gatemem_file) -> None:
    before = json.loads(run("stats", "--json").stdout)
    result = run("ingest", str(bad_gatemem_file.path))
    assert_clean_error(
        result, f"Error: {bad_gatemem_file.path}:{bad_gatemem_file.line}: ", bad_gatemem_file.problem
    )
    assert json.loads(run("stats", "--json").stdout) == before


def test_bad_first_line(runner: CliRunner, jsonl_file, tmp_path: Path) -> None:
    path = jsonl_file("bad.jsonl", ['{"episode_id": "x", '])
    db = tmp_path / "never.db"
    result = runner.invoke(main, ["--db", str(db), "ingest", str(path)])
    assert_clean_error(result, f"{path}:1: invalid JSON")
    assert not db.exists()


def test_duplicate_ingest_is_refused(run, ingested: Result) -> None:
    result = run("ingest", demo_episode_path(), "--policy", "medical")
    assert_clean_error(result, "duplicate turn id", "demo_maple_clinic")
    assert json.loads(run("stats", "--json").stdout)["counts"]["turns"] == 63


def test_unknown_speaker_in_plain_turns(run, ingested: Result, jsonl_file) -> None:
    path = jsonl_file("turns.jsonl", [{"turn_id": "p1", "speaker": "stranger", "text": "hi"}])
    assert_clean_error(run("ingest", str(path)), "unknown principal 'stranger'")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["recall", "parking", "--as", "mallory"], "unknown principal 'mallory'"),
        (["recall", "parking", "--as", "nurse_quinn", "-k", "0"], "k must be between"),
        (["recall", "   ", "--as", "nurse_quinn"], "query is empty"),
        (["recall", "parking", "--as", "nurse_quinn", "--as-of", "someday"], "not an ISO 8601"),
        (["recall", "parking", "--as", "nurse_quinn", "--design", "profile"], "design 'profile' is not kept"),
    ],
)
def test_recall_errors(run, ingested: Result, args: list[str], message: str) -> None:
    assert_clean_error(run(*args), message)


@pytest.mark.parametrize("command", [["stats"], ["recall", "x", "--as", "y"]])
def test_missing_store(runner: CliRunner, tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "absent.db"
    result = runner.invoke(main, ["--db", str(path), *command])
    assert_clean_error(result, "no store at", "ingest a file first")
    assert not path.exists()


def test_not_a_store(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("not a database " * 100)
    assert_clean_error(runner.invoke(main, ["--db", str(path), "stats"]), "cannot use")


def test_newer_store(runner: CliRunner, run, ingested: Result, db_path: str) -> None:
    import sqlite3

    connection = sqlite3.connect(db_path)
    connection.execute("PRAGMA user_version = 99")
    connection.commit()
    connection.close()
    assert_clean_error(run("stats"), "newer than this govmem")


def test_usage_errors(run) -> None:
    missing = run("ingest", "/no/such/file.jsonl")
    assert missing.exit_code == 2
    assert "does not exist" in missing.stderr
    no_requester = run("recall", "parking")
    assert no_requester.exit_code == 2
    assert "Missing option '--as'" in no_requester.stderr
    unknown_design = run("bench", "performance", "--sizes", "10", "--design", "turn,bogus")
    assert unknown_design.exit_code == 2
    assert "unknown design 'bogus'" in unknown_design.stderr


def test_ingest_with_an_llm_that_is_not_configured_stores_nothing(run, db_path, monkeypatch) -> None:
    for name in [n for n in os.environ if n.startswith("GOVMEM_LLM_")]:
        monkeypatch.delenv(name)
    result = run("ingest", demo_episode_path(), "--design", "summary", "--llm", "env")
    assert result.exit_code == 2
    assert "no LLM is configured" in result.stderr
    assert not Path(db_path).exists()


def test_db_from_the_environment(runner: CliRunner, db_path: str) -> None:
    result = runner.invoke(main, ["ingest", demo_episode_path()], env={"GOVMEM_DB": db_path})
    assert result.exit_code == 0, result.output
    assert Path(db_path).exists()


def _command_paths(group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    import click

    paths = []
    for name, command in group.commands.items():
        paths.append((*prefix, name))
        if isinstance(command, click.Group):
            paths.extend(_command_paths(command, (*prefix, name)))
    return paths


def test_every_command_is_listed_and_documented() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    paths = _command_paths(main)
    assert sorted(paths) == sorted(tuple(c) for c in COMMANDS if c)
    for path in paths:
        assert f"govmem {' '.join(path)}" in readme or f"--db clinic.db {' '.join(path)}" in readme, path


def test_grant_recall_revoke_and_the_decision_log(run, ingested: Result) -> None:
    question = "What was Lena Okafor's TSH?"
    asked = ["recall", question, "--as", "clinician_dr_varga", "--json", "--as-of", "2026-03-11T12:00"]
    assert json.loads(run(*asked).stdout)["decision"]["action"] == "refuse"
    made = run(
        "grant",
        "--from",
        "patient_lena_okafor",
        "--to",
        "clinician_dr_varga",
        "--about",
        "patient_lena_okafor",
        "--tag",
        "clinical",
        "--until",
        "2026-03-20",
        "--json",
    )
    assert made.exit_code == 0, made.output
    grant = json.loads(made.stdout)
    assert grant["valid_until"] == "2026-03-20T00:00:00" and grant["tags"] == ["clinical"]
    allowed = json.loads(run(*asked).stdout)
    assert allowed["decision"]["action"] == "answer"
    assert any("TSH 7.9" in item["text"] for item in allowed["items"])
    revoked = run("revoke", str(grant["grant_id"]), "--by", "patient_lena_okafor", "--at", "2026-03-11T00:00")
    assert revoked.exit_code == 0 and f"grant {grant['grant_id']} revoked" in revoked.stdout
    assert json.loads(run(*asked).stdout)["decision"]["action"] == "refuse"

    log = [json.loads(line) for line in run("decisions", "-n", "3").stdout.splitlines()]
    assert [entry["action"] for entry in log] == ["refuse", "answer", "refuse"]
    assert all(entry["requester_id"] == "clinician_dr_varga" for entry in log)
    assert "TSH" not in run("decisions").stdout  # ids, rules and a hash: never text


def test_get_and_export_answer_as_the_requester_may_see(run, ingested: Result) -> None:
    exported = [json.loads(line) for line in run("export", "--as", "family_greta_brandt").stdout.splitlines()]
    ids = {item["object_id"] for item in exported}
    assert exported and all("lisinopril" not in item["text"] for item in exported)
    everything = run("export", "--as", "agent_maplecare", "--design", "turn").stdout.splitlines()
    assert len(everything) == 63
    lab = next(json.loads(line) for line in everything if "hemoglobin A1c 8.6%" in line)
    assert lab["object_id"] not in ids
    shown = run("get", lab["object_id"], "--as", "clinician_dr_varga")
    assert shown.exit_code == 0 and "A1c 8.6%" in shown.stdout
    denied = run("get", lab["object_id"], "--as", "family_greta_brandt")
    missing = run("get", "turn-99999", "--as", "family_greta_brandt")
    assert_clean_error(denied, f"no memory object {lab['object_id']!r} for 'family_greta_brandt'")
    assert_clean_error(missing, "no memory object 'turn-99999' for 'family_greta_brandt'")
    assert denied.exit_code == missing.exit_code


def test_grant_errors_name_the_problem(run, ingested: Result) -> None:
    base = [
        "grant",
        "--from",
        "family_greta_brandt",
        "--to",
        "nurse_quinn",
        "--about",
        "patient_walter_brandt",
    ]
    assert_clean_error(run(*base, "--tag", "clinical"), "'family_greta_brandt' may not grant access")
    assert_clean_error(
        run(*base, "--tag", "horoscope"), "tag 'horoscope' is not defined by policy pack 'medical'"
    )
    assert_clean_error(run("revoke", "42", "--by", "nurse_quinn"), "no grant 42")


def test_policy_prints_a_pack(run) -> None:
    shown = run("policy", "office")
    assert shown.exit_code == 0
    assert "project-core-team: allow; relationship project_member" in shown.stdout
    assert_clean_error(run("policy", "nosuchpack"), "no policy pack 'nosuchpack'")
    household = run("policy", "household")
    assert "logistics_delegate, household_manager_for (the things its scope names)" in household.stdout
    assert "about thing" in household.stdout


def test_forget_writes_a_receipt_that_verifies_and_fails_when_edited(run, ingested: Result, tmp_path) -> None:
    receipt_file = tmp_path / "receipt.json"
    forgot = run(
        "forget",
        "Alder Lane",
        "--episode",
        "demo_maple_clinic",
        "--by",
        "patient_walter_brandt",
        "--through",
        "t006",
        "--receipt",
        str(receipt_file),
    )
    assert forgot.exit_code == 0, forgot.output
    assert "turn(s) rewritten" in forgot.stdout and "receipt written to" in forgot.stdout
    receipt = json.loads(receipt_file.read_text())
    assert "Alder" not in receipt_file.read_text()
    assert receipt["request"]["through_turn"] == "t006"
    assert [t["turn_id"] for t in receipt["turns_rewritten"]] == ["t004"]
    key = run("receipt", "key")
    assert key.exit_code == 0 and key.stdout.strip() == receipt["public_key"]

    verified = run("receipt", "verify", str(receipt_file))
    assert (verified.exit_code, verified.stdout) == (0, "valid\n")
    verified = run("receipt", "verify", str(receipt_file), "--public-key", key.stdout.strip())
    assert (verified.exit_code, verified.stdout) == (0, "valid\n")

    receipt["turns_rewritten"][0]["turn_id"] = "t005"
    receipt_file.write_text(json.dumps(receipt))
    edited = run("receipt", "verify", str(receipt_file))
    assert edited.exit_code == 1
    assert edited.stdout.startswith("INVALID: ") and "does not match" in edited.stdout

    receipt_file.write_text("{not json")
    broken = run("receipt", "verify", str(receipt_file))
    assert broken.exit_code == 1 and broken.stdout.startswith("INVALID: not a receipt")


def test_forget_as_json_and_against_another_key(run, ingested: Result, tmp_path) -> None:
    forgot = run("forget", "Alder Lane", "--episode", "demo_maple_clinic", "--json")
    assert forgot.exit_code == 0, forgot.output
    report = json.loads(forgot.stdout)
    assert report["turns"] >= 1 and report["objects_removed"] >= 1
    receipt_file = tmp_path / "receipt.json"
    receipt_file.write_text(json.dumps(report["receipt"]))
    other = "A" * 43 + "="
    wrong = run("receipt", "verify", str(receipt_file), "--public-key", other)
    assert wrong.exit_code == 1 and "another key" in wrong.stdout


def test_forget_needs_a_known_episode_turn(run, ingested: Result) -> None:
    result = run("forget", "Alder Lane", "--episode", "demo_maple_clinic", "--through", "t999")
    assert_clean_error(result, "no turn 't999'")


def test_ingest_detects_supersession_and_recall_audits_only_for_auditors(
    runner: CliRunner, tmp_path: Path
) -> None:
    episode = {
        "episode_id": "e1",
        "domain": "medical",
        "entities": {"principals": [{"principal_id": "desk", "role": "reception", "display_name": "Desk"}]},
        "turns": [
            {"turn_id": "t1", "timestamp": "2026-03-01T09:00:00", "speaker": {"principal_id": "desk"},
             "turn_kind": "dialogue", "text": "Your follow-up is Tuesday at 10:00 AM. Bring the forms."},
            {"turn_id": "t2", "timestamp": "2026-03-02T09:00:00", "speaker": {"principal_id": "desk"},
             "turn_kind": "dialogue", "text": "Update: the follow-up moved to Thursday at 1:30 PM."},
        ],
    }  # fmt: skip
    source = tmp_path / "episodes.jsonl"
    source.write_text(json.dumps(episode) + "\n", encoding="utf-8")
    db = str(tmp_path / "s.db")
    ingested = runner.invoke(
        main, ["--db", db, "ingest", str(source), "--detect-supersession", "statements", "--json"]
    )
    assert ingested.exit_code == 0, ingested.output
    assert json.loads(ingested.stdout)["superseded"] == 1
    plain = runner.invoke(main, ["--db", db, "recall", "when is the follow-up", "--as", "desk"])
    assert plain.exit_code == 0 and "Thursday" in plain.stdout and "Tuesday" not in plain.stdout
    audit = runner.invoke(main, ["--db", db, "recall", "follow-up", "--as", "desk", "--include-revoked"])
    assert_clean_error(audit, "audit")
