"""Score govmem on the written GateMem-style episodes (a developer tool, not a test).

The evaluation split of GateMem is kept outside the project. As a stand-in, helper
sessions wrote new episodes in each domain's style (``scripts/gatemem_written/``, see its
README): new people, values and topics, labelled by their writers. This runs the
GateMem benchmark on the chosen sets pooled (episode ids are unique across sets) and
prints its table.

    .venv/bin/python scripts/gatemem_written.py                      # every set
    .venv/bin/python scripts/gatemem_written.py --sets set4 --out /tmp/w4
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from govmem.bench.gatemem import format_table, run_gatemem

HERE = Path(__file__).resolve().parent / "gatemem_written"
DOMAINS = ("medical", "office", "education", "household")


def pooled(sets: list[str], into: Path) -> None:
    """The chosen sets' episodes and checkpoints, domain by domain, in one data folder."""
    for domain in DOMAINS:
        (into / domain).mkdir(parents=True)
        for name in ("episodes.jsonl", "checkpoints.jsonl"):
            with open(into / domain / name, "w", encoding="utf-8") as out:
                for chosen in sets:
                    path = HERE / chosen / domain / name
                    if not path.is_file():
                        raise SystemExit(f"no {path}: sets are {', '.join(available())}")
                    out.write(path.read_text(encoding="utf-8"))


def available() -> list[str]:
    return sorted(p.name for p in HERE.iterdir() if p.is_dir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(available()), help="comma-separated (default: all)")
    parser.add_argument("--out", default=None, help="where predictions.jsonl and report.json go")
    args = parser.parse_args()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "data"
        pooled(sets, data)
        out = Path(args.out) if args.out else Path(scratch) / "out"
        report = run_gatemem(data, out, domains=list(DOMAINS))
    print(f"sets: {', '.join(sets)}")
    print(format_table(report))


if __name__ == "__main__":
    main()
