"""Rename the people and households of GateMem episodes, checkpoints and all (a developer
check of generalisation, not a test).

    .venv/bin/python scripts/gatemem_renamed.py OUT [--data DIR] [--seed N]
    .venv/bin/govmem bench gatemem --data OUT --out RUN

Every first name, surname and household name (the first word of a household id,
"linden" in ``linden_house``, which also starts the household's things: "Linden
Listen") is replaced, consistently in every string of the data (turn texts, display
names, principal ids, relationship scopes, checkpoint queries and patterns), by a name
drawn from a pool that no episode uses. Capitalised forms are replaced in prose, lower
case ones inside identifiers (``resident_hannah_reed``). A score that moves on the
renamed copy depends on particular names, which the evaluation split does not share.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "gatemem"
DOMAINS = ("medical", "office", "education", "household")


def _words(text: str) -> list[str]:
    return text.split()


FIRST = _words(
    """Abel Adele Alma Amos Anya Arlo Beatrix Bram Cyra Dario Delphine Edda Elio Enzo Esme
Fenna Flint Greer Hollis Ines Ivo Jorah Juno Kaia Kit Lark Lior Mabel Milo Nell
Niamh Odile Orin Pax Perrin Quill Rhea Roan Saskia Silas Tamsin Tobin Ula Vesna Wren
Xavi Yara Zeno Anneke Bastian Calla Dorian Elke Fabian Greta Hugo Ilse Jonas Katja
Lotte Matthis Nele Oskar Pia Rune Selma Till Ulla Vera Wiebke"""
)
LAST = _words(
    """Abernathy Bellamy Castellan Dunmore Everly Fairweather Gallow Hartigan Ingram Jessup
Kestrel Lockwood Marchetti Northcott Oakes Pemberton Quennell Ravensworth Stroud
Thistle Underhill Vantongeren Whitlock Yardley Zabinski Achterberg Brandvold Corvino
Delacroix Eskildsen Falkenrath Grunewald Hollander Isaksen Jovanovic Karlsson
Lindqvist Moreau Nakashima Ostrander Petrakis Quintero Rasmussen Sandoval Tennyson
Umberfield Valcourt Wexford Xiong Ybarra Zeller"""
)
_STARTS = _words(
    "Al Bren Cor Dav El Fin Gar Hal Is Jor Kel Lor Mar Nor Or Per Quin Ros Sel Tor Ul Vor Wen Zan"
)
FIRST += [a + b for a in _STARTS for b in ("ander", "enna", "iko", "owen", "ria")]
LAST += [a + b for a in _STARTS for b in ("brook", "crest", "holm", "lund", "marsh", "thorpe")]
HOUSES = _words(
    """Quince Sorrel Bramble Juniper Tamarind Hazel Alder Yarrow Nettle Mallow Sumac Teasel
Vetch Sedge Fennel Lupin Tansy Borage Chervil Dill Sage Rowanberry Hawthorn Elder
Aspen Larch"""
)


CALENDAR = frozenset(
    _words(
        """January February March April May June July August September October November
December Monday Tuesday Wednesday Thursday Friday Saturday Sunday"""
    )
)
"""Never renamed: a person named June does not make the month a name."""


def names_of(episode: dict) -> tuple[set[str], set[str], set[str]]:
    """The first names, surnames and household names an episode uses."""
    first, last, houses = set(), set(), set()
    for p in episode["entities"]["principals"]:
        parts = [
            w for w in p.get("display_name", "").split() if w.isalpha() and w.istitle() and w not in CALENDAR
        ]
        if parts and p["role"] != "agent":
            first.add(parts[0])
            last.update(parts[1:])
    for r in episode["entities"].get("relationships", []):
        for key in ("household_id", "for_household_id"):
            value = r.get(key)
            if isinstance(value, str) and "_" in value:
                houses.add(value.split("_")[0].capitalize())
    return first, last, houses


def renaming(episodes: list[dict], seed: int) -> dict[str, str]:
    """Old name -> new name, drawn without repeats from pools no episode uses."""
    used_first, used_last, used_houses = set(), set(), set()
    for episode in episodes:
        f, la, h = names_of(episode)
        used_first |= f
        used_last |= la
        used_houses |= h
    rng = random.Random(seed)
    mapping: dict[str, str] = {}
    for used, pool in ((used_first, FIRST), (used_last, LAST), (used_houses, HOUSES)):
        fresh = [n for n in pool if n not in used_first | used_last | used_houses]
        rng.shuffle(fresh)
        for old in sorted(used):
            if old in mapping:
                continue
            if not fresh:
                raise SystemExit(f"the name pool ran out at {old!r}: add names")
            mapping[old] = fresh.pop()
    return mapping


def substitute(value: object, pattern: re.Pattern[str], mapping: dict[str, str]) -> object:
    if isinstance(value, str):
        return pattern.sub(lambda m: _cased(m.group(0), mapping), value)
    if isinstance(value, list):
        return [substitute(v, pattern, mapping) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, pattern, mapping) for k, v in value.items()}
    return value


def _cased(word: str, mapping: dict[str, str]) -> str:
    new = mapping[word] if word in mapping else mapping[word.capitalize()]
    return new.lower() if word.islower() else new


def read_lines(path: Path) -> list[dict]:
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for domain in DOMAINS:
        source = args.data / domain
        if not source.is_dir():
            continue
        episodes = read_lines(source / "episodes.jsonl")
        checkpoints = read_lines(source / "checkpoints.jsonl")
        mapping = renaming(episodes, args.seed)
        words = sorted(mapping, key=len, reverse=True)
        # Capitalised in prose; lower case only between word breaks or underscores (ids).
        pattern = re.compile(
            r"(?<![A-Za-z])(?:"
            + "|".join(map(re.escape, words))
            + r")(?![a-z])|(?<![a-z])(?:"
            + "|".join(re.escape(w.lower()) for w in words)
            + r")(?=_)|(?<=_)(?:"
            + "|".join(re.escape(w.lower()) for w in words)
            + r")(?![a-z])"
        )
        target = args.out / domain
        target.mkdir(parents=True, exist_ok=True)
        with open(target / "episodes.jsonl", "w") as out:
            for episode in episodes:
                out.write(json.dumps(substitute(episode, pattern, mapping)) + "\n")
        with open(target / "checkpoints.jsonl", "w") as out:
            for checkpoint in checkpoints:
                out.write(json.dumps(substitute(checkpoint, pattern, mapping)) + "\n")
        print(f"{domain}: {len(episodes)} episodes, {len(checkpoints)} checkpoints, {len(mapping)} names")


if __name__ == "__main__":
    main()
