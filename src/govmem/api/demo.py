"""``govmem demo``: a guided run over the example episode that ships with govmem."""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import resources

from govmem.api.memory import Memory
from govmem.governance.receipts import verify
from govmem.loaders.gatemem import read_episodes

DEMO_EPISODE = "demo_episode.jsonl"

BEFORE_REVOCATION = "2026-03-11T12:00"
"""Greta's logistics-only consent holds until Walter revokes it in conversation (t047, March 12)."""
QUESTIONS = [
    ("nurse_quinn", "Which parking level is set aside for clinic visitors?", None),
    (
        "family_greta_brandt",
        "What time is Walter's follow-up on Thursday, and which room?",
        BEFORE_REVOCATION,
    ),
    ("family_greta_brandt", "Which medication doses is Walter on now?", BEFORE_REVOCATION),
    ("clinician_dr_varga", "How high was Walter's A1c?", None),
    ("clinician_dr_varga", "What was Lena Okafor's TSH?", None),
    ("reception_tomas", "When is Walter's follow-up and what was his A1c?", None),
    ("patient_lena_okafor", "What colour are my new thyroid pills?", None),
]
REVOKED_QUESTION = ("family_greta_brandt", "What time is Walter's follow-up on Thursday, and which room?")
CONSENT_QUESTION = ("clinician_dr_varga", "What was Lena Okafor's TSH?")


def show(
    memory: Memory, requester: str, question: str, echo: Callable[[str], None], as_of: str | None = None
) -> None:
    result = memory.recall(requester, question, k=2, design="turn", as_of=as_of)
    echo(f"   {requester} asks: {question}")
    echo(f"   -> {result.action}")
    for item in result.items:
        echo(f"      {'/'.join(item.sources)}: {item.text[:100]}")


def show_revocation(echo: Callable[[str], None]) -> None:
    """A visiting policy replaced a year later, in plain text: the old one is withheld
    with its reason, and an auditor's read shows the history. (A store of its own with
    open access: this step is about validity, not about who may read policies.)"""
    from govmem.governance.authorization import OpenAccess
    from govmem.models import Turn

    echo("6. Revocation: the visiting policy is replaced a year later (plain text, no marks)")
    with Memory(
        ":memory:", authorizer=OpenAccess(), interpreter=None, detect_supersession="records"
    ) as memory:
        memory.add_principal("ward_office", "staff")
        memory.add_principal("nurse_quinn", "nurse")
        memory.add_principal("compliance_officer", "auditor")
        memory.add_auditor("compliance_officer")
        old = "Family members may visit patients in the recovery ward at any time, unescorted."
        new = "Family members must be escorted in the recovery ward and may visit only from 2 PM to 6 PM."
        memory.ingest(
            Turn("policy-2025", "ward_office", old, timestamp="2025-03-01T08:00:00", session_id="a")
        )
        report = memory.ingest(Turn("policy-2026", "ward_office", new, timestamp="2026-03-01T08:00:00"))
        for found in report.superseded:
            echo(
                f"   detected: {found['old']} superseded by {found['new']} from {found['from']} "
                f"({found['reason']})"
            )
        question = "Can family visit the recovery ward at night?"
        result = memory.recall("nurse_quinn", question, k=3, design="turn")
        echo(f"   nurse_quinn asks: {question}")
        for item in result.items:
            echo(f"      served ({item.status}): {item.text}")
        for withheld in result.withheld:
            echo(
                f"      withheld {withheld['object_id']}: {withheld['status']} "
                f"by {', '.join(withheld['superseded_by']) or '-'} "
                f"({withheld['reason']})"
            )
        audit = memory.recall("compliance_officer", question, k=3, design="turn", include_revoked=True)
        echo("   compliance_officer, an auditor, reads with include_revoked=True: the history, marked")
        for item in audit.items:
            echo(f"      [{item.status}] {item.text}")
    echo("")


def demo_episode_path() -> str:
    return str(resources.files("govmem") / "data" / DEMO_EPISODE)


def run_demo(db_path: str, echo: Callable[[str], None] = print) -> None:
    started = time.perf_counter()
    episode_file = demo_episode_path()
    echo(f"govmem demo: a shared clinic memory in {db_path}\n")
    with Memory(db_path, policy="medical", detect_supersession="statements") as memory:
        (episode,) = read_episodes(episode_file)
        echo(f"1. Ingest the example episode {episode.episode_id!r} ({episode_file})")
        echo(
            f"   {len(episode.principals)} principals, {len(episode.relationships)} relationships, "
            f"{len(episode.turns)} turns over 3 days"
        )
        t0 = time.perf_counter()
        report = memory.ingest_episodes([episode])
        echo(
            f"   stored {report.turns} turns and derived {report.objects_added} memory objects "
            f"(designs: {', '.join(memory.designs)}; embedder: {memory.embedder.name}) "
            f"in {time.perf_counter() - t0:.2f} s"
        )
        texts = {t.turn_id: t.text for t in episode.turns}
        for found in report.superseded:  # statements the conversation itself revised later
            start, end = found["span"]
            echo(
                f'   superseded: {found["old"]} "{texts[found["old"]][start:end].strip()}" '
                f"by {found['new']} ({'left out of reads' if found['whole'] else 'marked on reads'})"
            )
        echo("")

        echo("2. Recall as different principals. The medical policy pack decides in code, before")
        echo("   ranking, which sentences each requester may read; the model never sees the rest.")
        for requester, question, as_of in QUESTIONS:
            if as_of:
                echo(f"   (as of {as_of})")
            show(memory, requester, question, echo, as_of=as_of)
        echo("   Walter revokes Greta's access in conversation on March 12 (\"I'm revoking her access\");")
        echo("   the interpreter ends her relationship from that turn on. The same question now:")
        show(memory, *REVOKED_QUESTION, echo)
        echo("")

        requester, question = CONSENT_QUESTION
        echo("3. Consent and revocation: Lena lets Dr. Varga see her clinical results, then withdraws it")
        grant = memory.consent("patient_lena_okafor", requester, ["clinical"], valid_until="2026-03-20T00:00")
        echo(f"   consent {grant.grant_id}: {grant.grantee} may read Lena's clinical facts until March 20")
        echo("   read as of March 13 (inside the consent):")
        show(memory, requester, question, echo, as_of="2026-03-13T12:00")
        echo("   read as of March 21 (the consent has expired):")
        show(memory, requester, question, echo, as_of="2026-03-21T12:00")
        memory.revoke(grant.grant_id, by="patient_lena_okafor", at="2026-03-12T00:00")
        echo(f"   consent {grant.grant_id} revoked from March 12; March 13 is refused now too:")
        show(memory, requester, question, echo, as_of="2026-03-13T12:00")
        echo("")

        target = "t018"
        echo(f"4. Provenance: which memory objects derive from turn {target}? (as the clinic's agent)")
        for obj in memory.derived_from("agent_maplecare", target, episode.episode_id):
            echo(f"   {obj.object_id} ({obj.kind}) sources {', '.join(obj.sources)}")
        echo("")

        request = next(t for t in episode.turns if t.turn_id == "t038")
        echo(f"5. Forget by request: Lena said at t038 {request.text!r}")
        echo("   govmem finds the disclosure and its trail itself, deletes them with closure,")
        echo("   audits what survives and signs a receipt (budget: 4 turns)")
        report = memory.forget_request(request.text, request.speaker, episode.episode_id, budget=4)
        receipt = report.receipt or {}
        echo(
            f"   deleted turns {', '.join(report.turn_ids)}; removed {report.objects_removed} objects, "
            f"re-derived {report.objects_added}; collateral {receipt.get('collateral')} turn(s)"
        )
        echo(f"   receipt signed by key {receipt.get('key_id')}: verifies = {verify(receipt)}")
        question = "Where does Lena go for counseling?"
        result = memory.recall("patient_lena_okafor", question, k=3)
        leaked = [i for i in result.items if "Birchwood" in i.text]
        echo(f"   recall {question!r}: action {result.action}; top sources:")
        for item in result.items:
            echo(f"      {'/'.join(item.sources)} ({item.kind}): {item.text[:80]}")
        echo(f"   recalled objects naming the deleted clinic (Birchwood): {len(leaked)}")
        replay = memory.ingest_many([request])
        echo(f"   replaying t038 from an upstream log is refused: {replay.replays_refused}\n")

        show_revocation(echo)

        counts = memory.stats()["counts"]
        decisions = memory.decisions(limit=1000)
        withheld = sum(len(d["withheld"]) for d in decisions)
        echo(
            f"7. Store now: {counts['turns']} turns, {counts['objects']} objects, "
            f"{counts['vectors']} vectors; "
            f"the decision log holds {len(decisions)} decisions with {withheld} withheld or redacted objects "
            "(ids and rules only, never text)"
        )
    echo(f"\ndone in {time.perf_counter() - started:.1f} s")
