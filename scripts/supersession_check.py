"""Tools for checking statement supersession on GateMem episodes by hand (not a test).

    .venv/bin/python scripts/supersession_check.py dump OUT.jsonl [--data DIR] [--domain D ...]
    .venv/bin/python scripts/supersession_check.py diff BEFORE.jsonl AFTER.jsonl
    .venv/bin/python scripts/supersession_check.py sample SEED [--fixed EARLIER_SAMPLE.txt]

``dump`` replays every episode turn by turn (statements mode, the domain's pack) and
writes one line per supersession found (with whether reads cut it whole or mark it);
``diff`` lists those lost, added, cut whole where they were marked or the other way round
(dumps written before ``whole`` was recorded show every line as changed), and now
superseded by another turn, to be read one by one before a detection change is kept;
``sample`` draws change candidates (a turn with change wording and a value, not a
question: 8 medical, 8 education, 7 household, 7 office) and prints, for each, the
earlier claims on the same attribute sharing a word with it, marked current or
superseded after the candidate and the three turns after it. ``--fixed`` re-prints the
candidates of an earlier sample, whose draw would otherwise shift with ``claims_of``.
Only episodes are read, never checkpoints.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from govmem import Memory
from govmem.governance.revocation.claim_supersession import base_attribute
from govmem.governance.revocation.claims import CHANGE_PATTERN, claims_of
from govmem.loaders.gatemem import read_episodes

DOMAINS = ("medical", "office", "education", "household")
QUOTA = {"medical": 8, "education": 8, "household": 7, "office": 7}


def replayed(domain: str, episode, upto: int | None = None) -> tuple[Memory, list[dict]]:
    memory = Memory(":memory:", policy=domain, detect_supersession="statements")
    memory.add_principals(episode.principals)
    if episode.relationships:
        memory.add_relationships(episode.relationships)
    found: list[dict] = []
    for turn in episode.turns[:upto]:
        found += memory.ingest_many([turn]).superseded
    return memory, found


def dump(out: str, data: Path, domains: list[str]) -> None:
    with open(out, "w") as sink:
        for domain in domains:
            for episode in read_episodes(data / domain / "episodes.jsonl"):
                text = {t.turn_id: t.text for t in episode.turns}
                memory, found = replayed(domain, episode)
                memory.close()
                for s in found:
                    a, b = s["span"]
                    line = {
                        "ep": episode.episode_id,
                        "old": s["old"],
                        "new": s["new"],
                        "stmt": text[s["old"]][a:b],
                    }
                    row = {**line, "newtext": text[s["new"]], "reason": s["reason"], "whole": s.get("whole")}
                    sink.write(json.dumps(row) + "\n")


def diff(before: str, after: str) -> None:
    def load(path: str) -> dict:
        with open(path) as lines:
            rows = [json.loads(line) for line in lines]
        return {(r["ep"], r["old"], r["stmt"]): r for r in rows}

    a, b = load(before), load(after)
    for tag, x, y in (("LOST", a, b), ("ADDED", b, a)):
        keys = [k for k in x if k not in y]
        print(f"== {tag}: {len(keys)}")
        for k in keys:
            r = x[k]
            print(f"  {r['ep'][-40:]} {r['old']} <- {r['new']} [{r['reason'].removeprefix('detected:')}]")
            print(f"     OLD: {r['stmt'][:200]}\n     NEW: {r['newtext'][:250]}")
    flipped = [k for k in a if k in b and a[k].get("whole") != b[k].get("whole")]
    print(f"== WHOLE CHANGED: {len(flipped)}")
    for k in flipped:
        print(f"  {k[0][-40:]} {k[1]} <- {b[k]['new']} whole {a[k].get('whole')} -> {b[k].get('whole')}")
        print(f"     OLD: {k[2][:200]}")
    moved = [k for k in a if k in b and a[k]["new"] != b[k]["new"]]
    print(f"== NEW SUPERSEDER: {len(moved)}")
    for k in moved:
        print(f"  {k[0][-40:]} {k[1]}: {a[k]['new']} -> {b[k]['new']}  OLD: {k[2][:120]}")


def sample(seed: int, data: Path, fixed: str | None) -> None:
    rng = random.Random(seed)
    chosen_before: dict[str, set[tuple[str, str]]] = {}
    if fixed:
        with open(fixed) as lines:
            for m in filter(None, (re.match(r"(\w+) (.{45}) CANDIDATE (t\d+)", line) for line in lines)):
                chosen_before.setdefault(m.group(1), set()).add((m.group(2), m.group(3)))
    for domain, n in QUOTA.items():
        episodes = read_episodes(data / domain / "episodes.jsonl")
        if fixed:
            wanted = chosen_before.get(domain, set())
            chosen = [
                (e, i)
                for e in episodes
                for i, t in enumerate(e.turns)
                if (e.episode_id[-45:], t.turn_id) in wanted
            ]
        else:
            candidates = [
                (e, i)
                for e in episodes
                for i, t in enumerate(e.turns)
                if "?" not in t.text
                and CHANGE_PATTERN.search(t.text)
                and any(c.values for c in claims_of(t.text))
            ]
            chosen = rng.sample(candidates, n)
        for episode, i in chosen:
            show(domain, episode, i)


def show(domain: str, episode, i: int) -> None:
    turn = episode.turns[i]
    memory, _ = replayed(domain, episode, i + 4)
    keys = memory.store.turn_keys(episode.episode_id, [t.turn_id for t in episode.turns[:i]])
    cut = memory.store.superseded_statements(keys.values(), "9999")
    spans = memory.store.turn_spans(keys.values())
    print("#" * 100)
    print(f"{domain} {episode.episode_id[-45:]} CANDIDATE {turn.turn_id} {turn.speaker}: {turn.text}")
    print("   next:", " | ".join(f"{t.turn_id} {t.text[:110]}" for t in episode.turns[i + 1 : i + 4]))
    mine = claims_of(turn.text)
    attributes = {base_attribute(a) for c in mine for a in c.values}
    words = set().union(*(c.anchor | c.entities for c in mine))
    for earlier in episode.turns[:i]:
        key = keys.get(earlier.turn_id)
        if key not in spans:
            continue  # erased
        text = spans[key][1]
        for claim in claims_of(text):
            if not claim.asserts or not {base_attribute(a) for a in claim.values} & attributes:
                continue
            if not (claim.anchor | claim.entities) & words:
                continue
            by = next(
                (
                    by
                    for s, e, by, *_ in cut.get(key, [])
                    if s <= claim.start < e or claim.start <= s < claim.end
                ),
                None,
            )
            mark = f"SUPERSEDED by {by}" if by else "current"
            print(f"   [{mark:20}] {earlier.turn_id}: {text[claim.start : claim.end][:160]}")
    memory.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/gatemem"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("dump")
    p.add_argument("out")
    p.add_argument("--domain", action="append", choices=DOMAINS)
    p = commands.add_parser("diff")
    p.add_argument("before")
    p.add_argument("after")
    p = commands.add_parser("sample")
    p.add_argument("seed", type=int)
    p.add_argument("--fixed")
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out, args.data, args.domain or list(DOMAINS))
    elif args.command == "diff":
        diff(args.before, args.after)
    else:
        sample(args.seed, args.data, args.fixed)


if __name__ == "__main__":
    main()
