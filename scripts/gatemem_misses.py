"""Why a GateMem run missed what it missed (a diagnosis tool for developers, not a test).

    .venv/bin/python scripts/gatemem_misses.py --run OUT --domain household [--data DIR] [--verbose]
    .venv/bin/python scripts/gatemem_misses.py --run OUT --domain household --leaks
    .venv/bin/python scripts/gatemem_misses.py --run OUT --domain household --against BASE

``OUT`` is the ``--out`` folder of ``govmem bench gatemem``. For each utility checkpoint
that failed at context level, every include pattern missing from the context is traced
to the latest sentence said before the checkpoint that holds it, in a store replayed up
to that checkpoint's turn, and classed:

- ``hidden``: the asker may not read that sentence (its facets and the deciding rules
  are printed with ``--verbose``), split into ``hidden-own`` (the asker said it),
  ``hidden-named`` (it names the asker) and ``hidden-other``;
- ``ranked-out``: readable, but not among the top-k returned;
- ``erased``: said, then erased by a deletion request;
- ``not-said``: no single sentence holds it.

The summary adds the refusals (action other than ``answer``) and, per checkpoint, the
tags denied across its hidden sentences. ``--leaks`` lists instead the context lines of
privacy and safety checkpoints that matched a protected pattern. ``--against BASE`` lists
the checkpoints whose context-level outcome differs from run ``BASE`` (gained or lost
utility, leaks found or gone).

It reads the hidden labels, as a scorer does; the runner never does.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path

from govmem.api.memory import Memory
from govmem.bench.gatemem import GATEMEM_SUPERSESSION
from govmem.bench.gatemem_data import read_checkpoints, read_labels
from govmem.bench.gatemem_scoring import judge, pattern_matches, prediction_from
from govmem.governance.labeling import SAID_BY
from govmem.loaders.gatemem import read_episodes
from govmem.read_path.recall import resolve_requester

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "gatemem"


def predictions(run: Path) -> dict[str, dict]:
    with open(run / "predictions.jsonl") as lines:
        return {row["checkpoint_id"]: row["output"] for row in map(json.loads, lines)}


def leaks(data: Path, run: Path) -> None:
    labels = read_labels(data / "checkpoints.jsonl")
    for checkpoint_id, output in predictions(run).items():
        label = labels.get(checkpoint_id)
        if label is None or label.query_type == "utility":
            continue
        patterns = list(label.leak_targets)
        if label.query_type == "privacy":
            patterns += list(label.not_include)
        context = output["memory_audit"]["prompt_context"]["text"]
        hit = [p for p in patterns if pattern_matches(p, context)]
        if hit:
            print(label.query_type, checkpoint_id, output["action"], hit)
            for line in context.split("\n"):
                if any(pattern_matches(p, line) for p in hit):
                    print("    ", line[:300])


def outcomes(data: Path, run: Path) -> dict[str, str]:
    """Each checkpoint's context-level outcome in one word: ``ok``, ``miss`` or ``leak``."""
    labels = read_labels(data / "checkpoints.jsonl")
    found = {}
    for checkpoint_id, output in predictions(run).items():
        label = labels.get(checkpoint_id)
        if label is None:
            continue
        judgement = judge(prediction_from({"checkpoint_id": checkpoint_id, "output": output}), label)
        if label.query_type == "utility":
            found[checkpoint_id] = "ok" if judgement.correct["context"] else f"miss:{output['action']}"
        else:
            found[checkpoint_id] = "leak" if judgement.leak["context"] else "ok"
    return found


def against(data: Path, run: Path, base: Path) -> None:
    now, before = outcomes(data, run), outcomes(data, base)
    changed = sorted(c for c in now.keys() & before.keys() if now[c] != before[c])
    for checkpoint_id in changed:
        print(f"{before[checkpoint_id]:>22} -> {now[checkpoint_id]:<22} {checkpoint_id}")
    print(f"{len(changed)} checkpoints changed")


def misses(data: Path, run: Path, verbose: bool) -> None:
    outputs = predictions(run)
    labels = read_labels(data / "checkpoints.jsonl")
    by_episode = collections.defaultdict(list)
    for checkpoint in read_checkpoints(data / "checkpoints.jsonl"):
        label = labels[checkpoint.checkpoint_id]
        output = outputs.get(checkpoint.checkpoint_id)
        if label.query_type != "utility" or output is None:
            continue
        context = output["memory_audit"]["prompt_context"]["text"]
        missing = [p for p in label.include if not pattern_matches(p, context)]
        if output["action"] != "answer" or missing:
            by_episode[checkpoint.episode_id].append((checkpoint, missing, output["action"]))
    patterns: collections.Counter[str] = collections.Counter()
    checkpoints: collections.Counter[str] = collections.Counter()
    denied_tags: collections.Counter[tuple[str, ...]] = collections.Counter()
    for episode in read_episodes(data / "episodes.jsonl"):
        failed = by_episode.get(episode.episode_id)
        if not failed:
            continue
        memory = Memory(":memory:", policy=data.name, detect_supersession=GATEMEM_SUPERSESSION)
        memory.add_principals(episode.principals)
        if episode.relationships:
            memory.add_relationships(episode.relationships)
        position = {t.turn_id: i for i, t in enumerate(episode.turns)}
        names = {p.principal_id: p.display_name for p in episode.principals}
        ingested = 0
        for checkpoint, missing, action in sorted(failed, key=lambda f: position[f[0].as_of_turn_id]):
            end = position[checkpoint.as_of_turn_id] + 1
            if end > ingested:
                memory.ingest_many(episode.turns[ingested:end])
                ingested = end
            asker = checkpoint.asker.principal_id
            at = episode.turns[end - 1].timestamp or "9999"
            permissions = memory.authorizer.for_query(checkpoint.query_text)._permissions(
                resolve_requester(memory.store, asker), at
            )
            keys = memory.store.turn_keys(episode.episode_id, [t.turn_id for t in episode.turns[:end]])
            spans = memory.store.turn_spans(list(keys.values()))
            facets_of = memory.engine.labels
            first_name = names.get(asker, asker).split()[0]
            classes = {f"action:{action}"} if action != "answer" else set()
            denied: set[str] = set()
            print(f"{checkpoint.checkpoint_id} asker={asker} action={action}")
            print(f"    Q: {checkpoint.query_text}")
            for pattern in missing:
                found = "not-said"
                for turn in reversed(episode.turns[:end]):
                    if not pattern_matches(pattern, turn.text):
                        continue
                    key = keys.get(turn.turn_id)
                    if key is None or key not in spans:
                        found = "erased" if found == "not-said" else found
                        continue
                    speaker, text, turn_spans = spans[key]
                    piece = next(
                        ((text[s:e], lk) for s, e, lk in turn_spans if pattern_matches(pattern, text[s:e])),
                        None,
                    )
                    if piece is None:
                        continue
                    sentence, label_key = piece
                    facets = facets_of.get(label_key, frozenset())
                    readable, rules = permissions.span(facets)
                    if readable:
                        found = "ranked-out"
                    else:
                        if speaker == asker:
                            found = "hidden-own"
                        elif re.search(rf"\b{re.escape(first_name)}\b", sentence):
                            found = "hidden-named"
                        else:
                            found = "hidden-other"
                        denied |= {
                            t
                            for s, t in facets
                            if not t.startswith(SAID_BY) and not permissions.facet((s, t)).allowed
                        }
                    if verbose:
                        shown = sorted(f for f in facets if not f[1].startswith(SAID_BY))
                        print(f"    {found:13} {pattern!r} {turn.turn_id} by {speaker}: {shown} {rules}")
                        print(f"        {sentence.strip()[:240]}")
                    break
                if not verbose:
                    print(f"    {found:13} {pattern!r}")
                patterns[found] += 1
                classes.add(found)
            for name in classes:
                checkpoints[name] += 1
            if denied:
                denied_tags[tuple(sorted(denied))] += 1
    print("\nmissing patterns by class:", dict(patterns.most_common()))
    print(
        "failed checkpoints by class (one checkpoint may count in several):", dict(checkpoints.most_common())
    )
    print("tags denied across a checkpoint's hidden sentences:")
    for tags, count in denied_tags.most_common():
        print(f"    {count:3}  {', '.join(tags)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", type=Path, required=True, help="the --out folder of govmem bench gatemem")
    parser.add_argument("--domain", required=True, choices=["medical", "office", "education", "household"])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--verbose", action="store_true", help="print each sentence, its facets and rules")
    parser.add_argument("--leaks", action="store_true", help="list protected patterns found in contexts")
    parser.add_argument("--against", type=Path, help="a run to compare with, checkpoint by checkpoint")
    args = parser.parse_args()
    data = args.data / args.domain
    if args.against:
        against(data, args.run, args.against)
    elif args.leaks:
        leaks(data, args.run)
    else:
        misses(data, args.run, args.verbose)


if __name__ == "__main__":
    main()
