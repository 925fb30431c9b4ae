"""Derive the term lists that policy packs name in ``[vocabularies]`` (a developer tool).

``icd10cm_diagnoses``: the names of diseases in ICD-10-CM (via the ``simple-icd-10-cm``
package, a dev dependency), so that the medical pack knows "heart failure" and
"anorexia nervosa" as diagnoses without a hand-written list. Taken from the categories
and four-character subcategories of the chapters of diseases, pregnancy and congenital
conditions (A-Q; not symptoms, injuries, external causes or factors): each title and
each bracketed or parenthesised synonym, cut at its first comma, without a leading
"other", "unspecified", "acute", "chronic", "primary", "secondary", "specified" or
"certain"; kept when it is two or three words with no function word ("heart failure",
"anorexia nervosa", "atrial fibrillation"), or one word of at least six letters with a
disease suffix ("glaucoma", "prostatitis"). A common word alone never enters.

    .venv/bin/python scripts/build_vocabularies.py   # rewrites src/govmem/governance/vocabularies/
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import simple_icd_10_cm as icd

OUT = Path(__file__).resolve().parents[1] / "src" / "govmem" / "governance" / "vocabularies"
CHAPTERS = "ABCDEFGHIJKLMNOQ"
LEADING = {"other", "unspecified", "acute", "chronic", "primary", "secondary", "specified", "certain"}
FUNCTION_WORDS = {
    "and", "or", "of", "in", "with", "without", "to", "due", "by", "the", "for", "not", "other",
    "unspecified", "elsewhere", "classified", "specified", "type", "stage", "site", "sites", "part", "parts",
}  # fmt: skip
DISEASE_SUFFIX = re.compile(
    r"(itis|osis|emia|aemia|oma|pathy|algia|plegia|trophy|iasis|ectasis|uria|rrhea|rrhoea|penia|cytosis)$"
)


def term(phrase: str) -> str | None:
    words = re.sub(r"\s+", " ", phrase.strip().lower().replace("’", "'")).split()
    while words and words[0] in LEADING:
        words = words[1:]
    if not words or any(word in FUNCTION_WORDS for word in words):
        return None
    if 2 <= len(words) <= 3:
        return " ".join(words)
    if len(words) == 1 and len(words[0]) >= 6 and DISEASE_SUFFIX.search(words[0]):
        return words[0]
    return None


def icd10cm_diagnoses() -> set[str]:
    found = set()
    for code in icd.get_all_codes(with_dots=False):
        if code[0] not in CHAPTERS or not (
            icd.is_category(code) or (icd.is_subcategory(code) and len(code) == 4)
        ):
            continue
        title = icd.get_description(code)
        phrases = [re.sub(r"\[[^\]]*\]|\([^)]*\)", "", title).split(",")[0]]
        for bracketed, parenthesised in re.findall(r"\[([^\]]+)\]|\(([^)]+)\)", title):
            phrases += (bracketed or parenthesised).split(",")
        found.update(t for t in map(term, phrases) if t)
    return found


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    terms = sorted(icd10cm_diagnoses())
    source = f"simple-icd-10-cm {version('simple-icd-10-cm')}"
    header = f"# Disease names from ICD-10-CM ({source}); see scripts/build_vocabularies.py\n"
    (OUT / "icd10cm_diagnoses.txt").write_text(header + "\n".join(terms) + "\n", encoding="utf-8")
    print(f"icd10cm_diagnoses: {len(terms)} terms -> {OUT / 'icd10cm_diagnoses.txt'}")


if __name__ == "__main__":
    main()
