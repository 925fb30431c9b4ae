"""Required literals: every match of a pattern holds one of them, or the answer is None."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govmem.bench.synthetic import synthetic_turns
from govmem.governance.labeling import TagMatcher
from govmem.governance.policy_pack import BUILTIN_PACKS, load_pack
from govmem.governance.prefilter import required_literals

GATEMEM = Path(__file__).resolve().parents[3] / "shared" / "data" / "gatemem"


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\b(pin|passcode|door code)\b", {"pin", "passcode", "door code"}),
        (r"\bmri\b|(?:blood|urine) tests?", {"mri", " test"}),
        (r"\d+ mg", {" mg"}),
        (r"colou?r", {"colo"}),  # the longest run that must be there
        (r"(?:dose|doses)\b", {"dose"}),
        (r"(?=abc)x", {"x"}),  # lookarounds add nothing of their own
        (r"(a)b\1", {"a"}),  # ties go to the first
        (r"(?:ab)+", {"ab"}),
        (r"x?", None),  # may match the empty string
        (r"(?:ab)*", None),
        (r"a|b?", None),  # a branch without a requirement
        (r"[ab]+", None),
        (r"(?i)dose", None),  # case-insensitive: not analysed
        (r"(?i:dose) plan", {" plan"}),
        (r"(unclosed", None),
    ],
)
def test_required_literals(pattern: str, literals: set[str] | None) -> None:
    assert required_literals(pattern) == (None if literals is None else frozenset(literals))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["ab", "a", "b", "(?:ab|ba)", "c?", "[ab]", "(?:a|bc)+", r"\b", " ", "(b)", "x*"]),
        min_size=1,
        max_size=6,
    ),
    st.text(alphabet="abcx ", max_size=30),
)
def test_a_text_without_the_literals_never_matches(parts: list[str], text: str) -> None:
    pattern = "".join(parts)
    literals = required_literals(pattern)
    if literals is not None and re.search(pattern, text):
        assert any(literal in text for literal in literals)


def pack_texts() -> list[str]:
    texts = [t.text for t in synthetic_turns(3000, seed=5)]
    for path in sorted(GATEMEM.glob("*/episodes.jsonl")):
        texts.extend(line for line in path.read_text(encoding="utf-8").splitlines()[:3])
    return texts


@pytest.mark.parametrize("pack", sorted(BUILTIN_PACKS))
def test_prefiltered_tags_find_what_the_patterns_find(pack: str) -> None:
    texts = pack_texts()
    for tag, pattern in load_pack(pack).tag_patterns.items():
        matcher = TagMatcher(tag, pattern)
        for text in texts:
            lowered = text.lower()
            expected = (pattern.search(lowered) if matcher.lower else pattern.search(text)) is not None
            assert matcher.search(text, lowered) == expected, (pack, tag, text[:80])
