"""How one GateMem episode was labelled (a diagnosis tool for developers, not a test).

    .venv/bin/python scripts/gatemem_labels.py --domain D --episode 009_linden [--turns t050:t110]
    .venv/bin/python scripts/gatemem_labels.py --domain D --episode 002_cedar --checkpoint 7 [--turns ...]

Replays the episode (up to a checkpoint's turn with ``--checkpoint N``, else whole) in a
fresh store as the runner does, and prints each stored span of the chosen turns: its turn,
speaker, subjects, tags and text (``ERASED`` for a turn gone whole). With ``--checkpoint``
it prints first the query, the asker, the query's facets and the assessment, and marks
each span readable (``+``) or not (``-``) by the asker with the rules that decided.

It reads the episodes and, for ``--checkpoint``, the checkpoint's query and asker only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from govmem.api.memory import Memory
from govmem.bench.gatemem import GATEMEM_SUPERSESSION
from govmem.bench.gatemem_data import read_checkpoints
from govmem.governance.labeling import SAID_BY
from govmem.loaders.gatemem import read_episodes
from govmem.read_path.recall import resolve_requester

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "gatemem"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--domain", required=True, choices=["medical", "office", "education", "household"])
    parser.add_argument("--episode", required=True, help="a substring of the episode id")
    parser.add_argument("--checkpoint", type=int, help="replay up to checkpoint N; read as its asker")
    parser.add_argument("--turns", default="", help="FIRST:LAST turn ids to print (default: all replayed)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    data = args.data / args.domain
    episodes = [e for e in read_episodes(data / "episodes.jsonl") if args.episode in e.episode_id]
    if len(episodes) != 1:
        raise SystemExit(f"{len(episodes)} episodes match {args.episode!r}; give a longer part of the id")
    episode = episodes[0]
    turns = list(episode.turns)
    checkpoint = None
    if args.checkpoint is not None:
        suffix = f"ckpt_{args.checkpoint:02d}"
        found = [
            c
            for c in read_checkpoints(data / "checkpoints.jsonl")
            if c.episode_id == episode.episode_id and c.checkpoint_id.endswith(suffix)
        ]
        if not found:
            raise SystemExit(f"no checkpoint {suffix} in {episode.episode_id}")
        checkpoint = found[0]
        end = [t.turn_id for t in turns].index(checkpoint.as_of_turn_id) + 1
        turns = turns[:end]
    first, _, last = args.turns.partition(":")
    memory = Memory(":memory:", policy=args.domain, detect_supersession=GATEMEM_SUPERSESSION)
    memory.add_principals(episode.principals)
    if episode.relationships:
        memory.add_relationships(episode.relationships)
    memory.ingest_many(turns)
    permissions = None
    if checkpoint is not None:
        asker = checkpoint.asker.principal_id
        at = turns[-1].timestamp or "9999"
        authorizer = memory.authorizer.for_query(checkpoint.query_text)
        requester = resolve_requester(memory.store, asker)
        print(f"Q: {checkpoint.query_text}\n   asker {asker}")
        print(f"   query facets: {sorted(memory.labeler().query_facets(checkpoint.query_text, asker))}")
        print(f"   assessment: {authorizer.assess_query(memory.store, requester, checkpoint.query_text, at)}")
        permissions = authorizer._permissions(requester, at)
    keys = memory.store.turn_keys(episode.episode_id, [t.turn_id for t in turns])
    spans = memory.store.turn_spans(list(keys.values()))
    for turn in turns:
        if (first and turn.turn_id < first) or (last and turn.turn_id > last):
            continue
        key = keys.get(turn.turn_id)
        if key is None or key not in spans:
            print(f"{turn.turn_id} ERASED")
            continue
        speaker, text, turn_spans = spans[key]
        for start, end, label in turn_spans:
            facets = memory.engine.labels.get(label, frozenset())
            shown = [f for f in facets if not f[1].startswith(SAID_BY)]
            subjects = sorted({s or '""' for s, _ in shown})
            tags = sorted({t for _, t in shown})
            mark = ""
            if permissions is not None:
                readable, rules = permissions.span(facets)
                mark = f"{'+' if readable else '-'} {','.join(rules)} "
            said = text[start:end].strip()[:160]
            print(f"{turn.turn_id} {speaker[:16]:16} {mark}{subjects} {tags} | {said}")


if __name__ == "__main__":
    main()
