"""``govmem demo``: a guided run over the example episode that ships with govmem."""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import resources

from govmem.api.memory import Memory
from govmem.loaders.gatemem import read_episodes

DEMO_EPISODE = "demo_episode.jsonl"

QUESTIONS = [
    ("family_greta_brandt", "Which parking level is set aside for clinic visitors?"),
    ("clinician_dr_varga", "How high was Walter's A1c?"),
    ("patient_lena_okafor", "What colour are my new thyroid pills?"),
    ("patient_walter_brandt", "When does the accessible van pick me up, and what is the booking code?"),
]


def demo_episode_path() -> str:
    return str(resources.files("govmem") / "data" / DEMO_EPISODE)


def run_demo(db_path: str, echo: Callable[[str], None] = print) -> None:
    started = time.perf_counter()
    episode_file = demo_episode_path()
    echo(f"govmem demo: a shared clinic memory in {db_path}\n")
    with Memory(db_path) as memory:
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
            f"in {time.perf_counter() - t0:.2f} s\n"
        )

        echo("2. Recall with hybrid retrieval (BM25 + embeddings, fused by reciprocal rank)")
        echo("   No policy is configured yet, so every principal reads everything (open access).")
        for requester, question in QUESTIONS:
            result = memory.recall(requester, question, k=2, design="turn")
            echo(f"   {requester} asks: {question}")
            echo(f"   -> action {result.action}")
            for item in result.items:
                scores = ", ".join(f"{name} {value:.3f}" for name, value in item.scores.items())
                echo(f"      {'/'.join(item.sources)}: {item.text[:90]}  [{scores}]")
        echo("")

        target = "t018"
        echo(f"3. Provenance: which memory objects derive from turn {target}?")
        for obj in memory.derived_from(target, episode.episode_id):
            echo(f"   {obj.object_id} ({obj.kind}) sources {', '.join(obj.sources)}")
        echo("")

        echo(f"4. Delete turns t017 and {target} (Lena's counseling disclosure) with closure")
        report = memory.delete_turns(["t017", target], episode.episode_id)
        echo(
            f"   removed {report.objects_removed} objects; re-derived {report.objects_added} "
            "session window(s) from the surviving turns"
        )
        question = "Where does Lena go for counseling?"
        result = memory.recall("patient_lena_okafor", question, k=3)
        leaked = [i for i in result.items if "Birchwood" in i.text]
        echo(f"   recall {question!r}: action {result.action}; top sources:")
        for item in result.items:
            echo(f"      {'/'.join(item.sources)} ({item.kind}): {item.text[:80]}")
        echo(f"   recalled objects naming the deleted clinic (Birchwood): {len(leaked)}")
        echo(
            "   (the deletion request t038 and its acknowledgement remain; governing those is the\n"
            "    forgetting planner's job)\n"
        )

        counts = memory.stats()["counts"]
        echo(
            f"5. Store now: {counts['turns']} turns, {counts['objects']} objects, {counts['vectors']} vectors"
        )
    echo(f"\ndone in {time.perf_counter() - started:.1f} s")
