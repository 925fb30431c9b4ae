"""Lexical retrieval: free text becomes a safe FTS5 expression; BM25 over the store."""

from __future__ import annotations

import pytest

from govmem import Memory
from govmem.retrieval.lexical import STOP_WORDS, match_expression, query_terms, select_terms


def test_query_terms_drop_stop_words_and_repeats() -> None:
    assert query_terms("What is the Voucher number? The voucher, please!") == ["voucher", "number"]


def test_query_terms_keep_unicode_words_and_digits() -> None:
    assert query_terms("Café Müller at 9:45, room_2") == ["café", "müller", "9", "45", "room", "2"]


def test_query_terms_limit() -> None:
    words = " ".join(f"w{i}" for i in range(50))
    assert query_terms(words) == [f"w{i}" for i in range(32)]
    assert query_terms(words, max_terms=3) == ["w0", "w1", "w2"]


def test_match_expression_quotes_and_ors() -> None:
    assert match_expression("Garage validation voucher") == '"garage" OR "validation" OR "voucher"'


@pytest.mark.parametrize("text", ["", "   ", "what is it?", "?!.,", "the and of"])
def test_match_expression_without_content_words(text: str) -> None:
    assert match_expression(text) is None


def test_stop_words_are_lower_case() -> None:
    assert all(word == word.lower() for word in STOP_WORDS)
    assert {"the", "what", "please"} <= STOP_WORDS


@pytest.mark.parametrize(
    "query",
    [
        'NEAR(voucher "P2") OR -exit* AND col:1 ^start',
        'voucher" OR "',
        "voucher) AND (",
        "{voucher} * - + :",
        "voucher NOT AND OR",
    ],
)
def test_fts_syntax_in_queries_is_harmless(memory: Memory, query: str) -> None:
    expression = match_expression(query)
    assert expression is not None
    hits = memory.store.lexical_search(expression, 10, ["turn"], None)
    texts = [obj.text for obj in memory.store.get_objects([key for key, _ in hits]).values()]
    assert any("V-2207" in text for text in texts)
    assert memory.recall("nurse_quinn", query, design="turn").action == "answer"


def test_query_with_only_stop_words_still_recalls_by_embedding(memory: Memory) -> None:
    result = memory.recall("nurse_quinn", "what is it?", k=3)
    assert result.action == "answer"
    assert all(set(item.scores) == {"fused"} for item in result.items)  # governed: ranks only
    candidates = memory.retriever.search("what is it?", 10)
    assert candidates and all(set(c.scores) == {"dense", "fused"} for c in candidates)


def test_lexical_search_ranks_and_stems(memory: Memory) -> None:
    hits = memory.store.lexical_search(match_expression("validations vouchers"), 50, ["turn"], None)
    objects = memory.store.get_objects([key for key, _ in hits])
    ranked = [objects[key].sources[0] for key, _ in hits]
    assert ranked[0] == "t037"  # the only turn with both words
    assert set(ranked) == {"t004", "t036", "t037"}
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    assert all(score > 0 for score in scores)


def test_lexical_search_limit_kinds_and_as_of(memory: Memory) -> None:
    expression = match_expression("lisinopril")
    both = memory.store.lexical_search(expression, 50, None, None)
    turns = memory.store.lexical_search(expression, 50, ["turn"], None)
    sessions = memory.store.lexical_search(expression, 50, ["session"], None)
    assert {k for k, _ in both} == {k for k, _ in turns} | {k for k, _ in sessions}
    assert len(memory.store.lexical_search(expression, 2, None, None)) == 2
    early = memory.store.lexical_search(expression, 50, ["turn"], "2026-03-09T23:59:59")
    objects = memory.store.get_objects([k for k, _ in early])
    assert {obj.sources[0] for obj in objects.values()} == {"t008", "t009", "t013"}


def test_select_terms_keeps_the_rarest_within_the_budget() -> None:
    terms = ["clinic", "apixaban", "walter", "zzz"]
    frequencies = {"clinic": 900, "apixaban": 3, "walter": 120, "zzz": 0}
    assert select_terms(terms, frequencies, budget=1000) == ["apixaban", "walter"]
    assert select_terms(terms, frequencies, budget=2000) == ["clinic", "apixaban", "walter"]
    assert select_terms(terms, frequencies, budget=2) == []


def test_document_frequencies_use_the_indexed_form_of_words(memory: Memory) -> None:
    frequencies = memory.store.document_frequencies(["walter", "validated", "nonexistentword"])
    assert frequencies is not None
    assert frequencies["walter"] > 10
    assert frequencies["validated"] >= 1  # porter: "validated" is indexed as "valid"
    assert frequencies["nonexistentword"] == 0


def test_small_stores_keep_every_word(memory: Memory) -> None:
    assert memory.retriever.lexical_terms("Walter garage voucher") == ["walter", "garage", "voucher"]


def test_large_store_drops_common_words(memory: Memory) -> None:
    memory.retriever.postings_budget = 5
    assert memory.retriever.lexical_terms("Walter garage voucher") == ["voucher"]


def test_sqlite3_driver_cannot_count_and_keeps_every_word(tmp_path) -> None:
    with Memory(str(tmp_path / "plain.db"), driver="sqlite3") as memory:
        assert memory.store.document_frequencies(["walter"]) is None
        assert memory.retriever.lexical_terms("Walter garage") == ["walter", "garage"]
