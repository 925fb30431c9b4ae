"""The guard over other backends' results, and its adapters."""

from __future__ import annotations

import pytest

from govmem.errors import InputError
from govmem.governance.revocation import Guard, GuardRecord, from_graphiti, from_mem0, from_zep

AT = "2026-01-01T00:00:00"


def test_marked_revoked_withheld_future_mark_not_yet() -> None:
    records = [
        GuardRecord("a", "x", status="revoked"),
        GuardRecord("b", "y", invalid_at="2025-01-01T00:00:00"),
        GuardRecord("c", "z", invalid_at="2027-01-01T00:00:00"),  # scheduled, not yet
        GuardRecord("d", "w"),
    ]
    result = Guard(detect=False).filter(records, AT)
    assert [r.record_id for r in result.kept] == ["c", "d"]
    assert {w.record.record_id: w.reason for w in result.withheld} == {
        "a": "marked-revoked",
        "b": "invalidated",
    }


def test_contradicted_by_newer_withheld_rank_order_kept() -> None:
    records = [
        GuardRecord("old", "Refunds may be issued in cash by any cashier.", valid_from="2024-01-01T00:00:00"),
        GuardRecord("other", "The canteen opens at noon."),
        GuardRecord("new", "Refunds must never be issued in cash.", valid_from="2025-01-01T00:00:00"),
    ]
    result = Guard().filter(records, AT)
    assert [r.record_id for r in result.kept] == ["other", "new"]
    (withheld,) = result.withheld
    assert withheld.record.record_id == "old" and withheld.superseded_by == ("new",)
    assert withheld.reason.startswith("contradicted-by-newer")


def test_unorderable_conflict_keeps_both_and_reports() -> None:
    records = [
        GuardRecord("a", "Refunds may be issued in cash."),
        GuardRecord("b", "Refunds must never be issued in cash."),
    ]
    result = Guard().filter(records, AT)
    assert [r.record_id for r in result.kept] == ["a", "b"] and not result.withheld
    assert result.conflicts[0].record_ids == ("a", "b")


def test_adapters_read_each_backend_shape() -> None:
    mem0 = {
        "results": [
            {"id": "m1", "memory": "old", "metadata": {"status": "superseded", "superseded_by": "m2"}},
            {"id": "m2", "memory": "new", "created_at": "2025-01-01T00:00:00Z"},
        ]
    }
    graphiti = [
        {
            "uuid": "g1",
            "fact": "old",
            "valid_at": "2024-01-01T00:00:00Z",
            "invalid_at": "2025-01-01T00:00:00Z",
        }
    ]
    zep = {"edges": [{"uuid": "z1", "fact": "old", "expired_at": "2025-06-01T00:00:00+00:00"}]}
    guard = Guard(detect=False)
    assert [r.record_id for r in guard.filter(from_mem0(mem0), AT).kept] == ["m2"]
    assert from_mem0(mem0)[0].superseded_by == ("m2",)
    assert guard.filter(from_graphiti(graphiti), AT).kept == []
    assert guard.filter(from_zep(zep), AT).kept == []
    assert guard.filter(from_zep(zep), "2025-01-01T00:00:00").kept[0].record_id == "z1"


def test_adapters_name_bad_input() -> None:
    with pytest.raises(InputError, match="none of the keys"):
        from_mem0({"hits": []})
    with pytest.raises(InputError, match="'g1'"):
        from_graphiti([{"uuid": "g1", "fact": "x", "invalid_at": "yesterday"}])
