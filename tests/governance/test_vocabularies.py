"""Term lists that mark a tag ("heart failure" is a diagnosis): parsing, matching, and the
shipped list being what its build script derives from ICD-10-CM."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from govmem.errors import PolicyError
from govmem.governance.labeling import Labeler, VocabularyMatcher
from govmem.governance.policy_pack import load_pack, parse_pack, vocabulary

PACK = """
name = "t"
[tags]
meds = ['\\\\bwarfarin\\\\b']
sick = ['\\\\bflu\\\\b']
{vocabularies}
[[rules]]
id = "all"
tags = ["*"]
"""


def test_a_pack_names_term_lists_for_its_tags() -> None:
    pack = parse_pack(PACK.format(vocabularies='[vocabularies]\nsick = ["icd10cm_diagnoses"]'))
    assert pack.vocabularies == {"sick": ("icd10cm_diagnoses",)}
    assert parse_pack(PACK.format(vocabularies="")).vocabularies == {}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            '[vocabularies]\nsick = ["snomed"]',
            "vocabularies.sick names 'snomed', not one of icd10cm_diagnoses",
        ),
        ('[vocabularies]\nnope = ["icd10cm_diagnoses"]', "vocabularies names unknown tag 'nope'"),
    ],
)
def test_unknown_term_lists_and_tags_are_named(table: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        parse_pack(PACK.format(vocabularies=table))


def test_terms_match_as_whole_words_and_a_last_word_in_the_plural() -> None:
    matcher = VocabularyMatcher("sick", frozenset({"heart failure", "glaucoma", "turner's syndrome"}))
    for text in ("admitted with heart failure.", "two heart failures", "glaucoma check", "turner’s syndrome"):
        assert matcher.search(text, text.lower()), text
    for text in ("heart rate", "the failure of the heart", "glaucomatous", "heartfailure"):
        assert not matcher.search(text, text.lower()), text


@pytest.mark.parametrize(
    ("pack", "tag", "sentence"),
    [
        ("medical", "diagnosis", "Tiberius is checked in for the new heart failure clinic visit."),
        ("medical", "diagnosis", "Follow-up for anorexia nervosa after discharge."),
        ("household", "health", "Grandma's multiple sclerosis clinic moved to Tuesday."),
        ("office", "health", "She is out for atrial fibrillation treatment."),
        ("education", "wellbeing", "The leave is for ulcerative colitis."),
        ("medical", "medication", "Can the naltrexone be a separate pickup?"),
        ("medical", "medication", "He has been on Biktarvy for years."),
    ],
)
def test_the_domain_packs_know_disease_names(pack: str, tag: str, sentence: str) -> None:
    assert tag in Labeler(load_pack(pack), [], []).tags_of(sentence)


def test_common_words_are_no_disease() -> None:
    terms = vocabulary("icd10cm_diagnoses")
    assert len(terms) > 2000
    assert not {"trigger", "pain", "fever", "cough", "stress", "failure", "heart", "disease"} & terms


def test_short_brand_names_and_numbers_are_no_drug() -> None:
    """A brand name of fewer than seven letters may be a first name ("Camila")."""
    terms = vocabulary("drug_names")
    assert {"naltrexone", "tacrolimus", "biktarvy", "ibuprofen"} <= terms
    assert not {"camila", "at 10", "plan b", "max"} & terms
    assert "medication" not in Labeler(load_pack("medical"), [], []).tags_of("Camila drives her at 10.")


@pytest.mark.parametrize("name", ["icd10cm_diagnoses", "drug_names"])
def test_the_shipped_lists_are_what_the_build_script_derives(name: str) -> None:
    pytest.importorskip("simple_icd_10_cm")
    pytest.importorskip("drug_named_entity_recognition")
    script = Path(__file__).resolve().parents[2] / "scripts" / "build_vocabularies.py"
    assert runpy.run_path(str(script))[name]() == vocabulary(name)
