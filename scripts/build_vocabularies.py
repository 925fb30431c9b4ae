"""Derive the term lists that policy packs name in ``[vocabularies]`` (a developer tool).

``drug_names``: the drug names of ``drug-named-entity-recognition`` (its dictionary of
generic names from MedlinePlus, DrugBank and MeSH, a dev dependency), so that the medical
pack knows "naltrexone" and "tacrolimus" as medication: every generic name, and a brand
name of at least seven letters ("Biktarvy", not "Camila", which is also a first name);
one to three words, none of them a bare number or shorter than three letters.

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

import bz2
import pickle
import re
from importlib import resources
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
    if not all(re.fullmatch(r"[a-z0-9]+(?:['-][a-z0-9]+)*", word) for word in words):
        return None  # "behçet's disease", "b. fragilis": no text a matcher reads as words holds them
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


def drug_names() -> set[str]:
    dictionary = resources.files("drug_named_entity_recognition").joinpath("drug_ner_dictionary.pkl.bz2")
    with dictionary.open("rb") as raw, bz2.open(raw) as handle:
        variants = pickle.load(handle)["drug_variant_to_canonical"]  # the package's own data file
    found = set()
    for variant, canonical in variants.items():
        name = variant.lower().replace("’", "'")
        words = name.split()
        if len(words) > 3 or len(name) < 5:
            continue
        if not all(re.fullmatch(r"[a-z0-9]+(?:['-][a-z0-9]+)*", word) for word in words):
            continue  # "17- azasteroids": no text a matcher reads as words holds it
        if any(word.isdigit() or len(word) < 3 for word in words):
            continue
        if name in canonical or len(name) >= 7:
            found.add(name)
    return found


def write(name: str, terms: set[str], source: str) -> None:
    path = OUT / f"{name}.txt"
    header = f"# {source}; see scripts/build_vocabularies.py\n"
    path.write_text(header + "\n".join(sorted(terms)) + "\n", encoding="utf-8")
    print(f"{name}: {len(terms)} terms -> {path}")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icd_source = f"simple-icd-10-cm {version('simple-icd-10-cm')}"
    write("icd10cm_diagnoses", icd10cm_diagnoses(), f"Disease names from ICD-10-CM ({icd_source})")
    drug_source = f"drug-named-entity-recognition {version('drug-named-entity-recognition')}"
    write("drug_names", drug_names(), f"Drug names ({drug_source})")


if __name__ == "__main__":
    main()
