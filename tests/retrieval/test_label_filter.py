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


def test_keys_in_labels_marks_indexed_keys_only() -> None:
    index = _index([1, 2, 3])
    assert index.keys_in_labels(frozenset({1, 3}))[:5] == bytes([0, 1, 0, 1, 0])
    index.remove([3])
    assert index.keys_in_labels(frozenset({1, 3}))[:5] == bytes([0, 1, 0, 0, 0])
    index.add([4], np.ones((1, 8), dtype=np.float32), ["turn"], [None], [3])
    assert index.keys_in_labels(frozenset({1, 3}))[:5] == bytes([0, 1, 0, 0, 1])


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
        label_sets.append(frozenset(sorted(memory.engine.labels)[:3]))
        every = frozenset(memory.engine.labels)
        compared = 0
        for query in synthetic_queries(30, seed=5):
            match = or_expression(retriever.lexical_terms(query))
            if match is None:
                continue
            # Most objects readable but not the best matches: ranking a few more than
            # the pool and dropping the rest falls short, so the per-match check runs.
            best = [key for key, _ in store.lexical_search(match, 60)]
            hidden = {obj.label_key for obj in store.get_objects(best).values()}
            for labels in [*label_sets, every - hidden]:
                for kinds, pool in ((None, 5), (None, 20), (["turn"], 20)):
                    ours = retriever._lexical_within(index, match, pool, kinds, None, labels)
                    sql = store.lexical_search(match, pool, kinds, None, labels)
                    assert {k for k, _ in ours} == {k for k, _ in sql}
                    assert [s for _, s in ours] == sorted((s for _, s in ours), reverse=True)
                    compared += 1
        assert compared > 100
        assert memory.store.lexical_search(match, 20, None, None, allowed_keys=b"") == []


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
