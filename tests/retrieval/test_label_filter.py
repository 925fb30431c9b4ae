"""The label filter before ranking: cached lookups in the dense index, the lexical side
filtered by the index's labels, and the readable-label set kept per permissions."""

from __future__ import annotations

import numpy as np

from govmem import Memory
from govmem.bench.access import cast
from govmem.bench.synthetic import synthetic_queries, synthetic_turns
from govmem.governance.authorization import utc_now
from govmem.retrieval.dense import DenseIndex
from govmem.retrieval.lexical import or_expression


def _index(labels: list[int]) -> DenseIndex:
    n = len(labels)
    vectors = np.random.default_rng(1).standard_normal((n, 8)).astype(np.float32)
    index = DenseIndex(8)
    index.add(np.arange(1, n + 1), vectors, ["turn"] * n, [None] * n, labels)
    return index


def test_label_mask_follows_rows_added_after_it_was_cached() -> None:
    index = _index([1, 2, 3, 2, 1])
    allowed = frozenset({2, 7})
    assert index.candidate_mask(labels=allowed).tolist() == [False, True, False, True, False]
    index.add([6, 7], np.ones((2, 8), dtype=np.float32), ["turn"] * 2, [None] * 2, [7, 9])
    assert index.candidate_mask(labels=allowed).tolist() == [False, True, False, True, False, True, False]
    assert index.candidate_mask(labels={9}).tolist() == [False] * 6 + [True]


def test_keys_in_labels_is_false_for_keys_not_indexed() -> None:
    index = _index([1, 2, 3])
    index.remove([2])
    found = index.keys_in_labels([1, 2, 3, 4, -1, 10**9], frozenset({1, 2, 3}))
    assert found.tolist() == [True, False, True, False, False, False]


def test_lexical_hits_within_labels_match_the_sql_filter() -> None:
    principals, relationships, members = cast()
    with Memory(":memory:", policy="medical") as memory:
        memory.add_principals(principals)
        memory.add_relationships(relationships)
        memory.ingest_many(list(synthetic_turns(600, seed=4, domains=("clinic",))))
        retriever, store, at = memory.retriever, memory.store, utc_now()
        index = retriever.index
        label_sets = [
            memory.authorizer.scope(store, store.get_principal(group[0]), at).labels
            for group in members.values()
        ]
        label_sets.append(frozenset(sorted(memory.engine.labels)[:3]))  # too few for the first fetch
        compared = 0
        for query in synthetic_queries(30, seed=5):
            match = or_expression(retriever.lexical_terms(query))
            if match is None:
                continue
            for labels in label_sets:
                for kinds, masked in ((None, True), (["turn"], True), (None, False)):
                    # without a mask the first fetch assumes every row readable, so a
                    # small label set needs the second pass over every match
                    mask = index.candidate_mask(kinds, None, labels) if masked else None
                    ours = retriever._lexical_within(index, match, 20, kinds, None, labels, mask)
                    sql = store.lexical_search(match, 20, kinds, None, labels)
                    assert {k for k, _ in ours} == {k for k, _ in sql}
                    assert [s for _, s in ours] == sorted((s for _, s in ours), reverse=True)
                    compared += 1
        assert compared > 100


def test_readable_labels_are_kept_until_the_labels_change() -> None:
    principals, relationships, members = cast()
    with Memory(":memory:", policy="medical") as memory:
        memory.add_principals(principals)
        memory.add_relationships(relationships)
        memory.ingest_many(list(synthetic_turns(100, seed=1, domains=("clinic",))))
        nurse = memory.store.get_principal(members["nurse"][0])
        permissions = memory.engine.permissions(nurse, utc_now())
        labels = memory.engine.labels
        first = permissions.readable_labels(labels)
        assert permissions.readable_labels(labels) is first
        grown = {**labels, max(labels) + 1: frozenset({("", "general")})}
        assert permissions.readable_labels(grown) == first | {max(labels) + 1}
