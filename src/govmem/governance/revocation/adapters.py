"""Search results of other memory systems as :class:`GuardRecord` lists.

Plain dict shapes as those systems return them (nothing of theirs is imported):

- **mem0** ``Memory.search``: ``{"results": [{"id", "memory", "created_at",
  "updated_at", "metadata": {...}, "score", ...}]}`` or the bare list. Validity
  lives in ``metadata`` where an application (or mem0's experimental status
  support) put it: ``status``, ``valid_from``/``valid_at``, ``valid_until``,
  ``invalid_at``/``revoked_at``, ``superseded_by``, ``revoked: true``.
- **Graphiti** ``search`` edges (``EntityEdge``): ``uuid``, ``fact``, ``valid_at``,
  ``invalid_at`` (the fact stopped being true), ``expired_at`` (the edge was
  invalidated), ``created_at``.
- **Zep** ``graph.search``: ``{"edges": [edge, ...]}`` with Graphiti's edge fields,
  or ``{"results": [{"edge": {...}} | {"fact": {...}}]}``.

Rank order is the order of the list. Timestamps are normalised to govmem's form
(naive UTC); an unreadable one raises :class:`InputError` naming the record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from govmem.errors import InputError
from govmem.governance.revocation.guard import GuardRecord
from govmem.timestamps import normalize_timestamp


def _time(value: Any, what: str, record_id: str) -> str | None:
    if value is None or value == "":
        return None
    try:
        return normalize_timestamp(str(value), what)
    except InputError as exc:
        raise InputError(f"record {record_id!r}: {exc}") from None


def _items(result: Any, *keys: str) -> list[Mapping[str, Any]]:
    if isinstance(result, Mapping):
        for key in keys:
            if key in result:
                result = result[key]
                break
        else:
            raise InputError(f"a search result with none of the keys {', '.join(keys)}")
    if not isinstance(result, Sequence) or isinstance(result, str | bytes):
        raise InputError("a search result must be a list of records or a mapping holding one")
    for index, item in enumerate(result):
        if not isinstance(item, Mapping):
            raise InputError(f"search result {index} is not a mapping")
    return list(result)


def _ids(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        return tuple(str(v) for v in value)
    return (str(value),)


def from_mem0(result: Any) -> list[GuardRecord]:
    records = []
    for index, item in enumerate(_items(result, "results", "memories")):
        record_id = str(item.get("id", index))
        text = item.get("memory") or item.get("text") or ""
        meta = dict(item.get("metadata") or {})
        status = meta.get("status") or item.get("status")
        if meta.get("revoked") is True or meta.get("is_revoked") is True:
            status = status or "revoked"
        records.append(
            GuardRecord(
                record_id=record_id,
                text=str(text),
                valid_from=_time(
                    meta.get("valid_from") or meta.get("valid_at") or item.get("created_at"),
                    "valid_from",
                    record_id,
                ),
                valid_until=_time(
                    meta.get("valid_until") or meta.get("expires_at"), "valid_until", record_id
                ),
                invalid_at=_time(meta.get("invalid_at") or meta.get("revoked_at"), "invalid_at", record_id),
                status=str(status) if status is not None else None,
                superseded_by=_ids(meta.get("superseded_by")),
                metadata=dict(item),
            )
        )
    return records


def _edge_record(edge: Mapping[str, Any], index: int) -> GuardRecord:
    record_id = str(edge.get("uuid", index))
    invalid = [_time(edge.get(k), k, record_id) for k in ("invalid_at", "expired_at")]
    invalid = [t for t in invalid if t is not None]
    return GuardRecord(
        record_id=record_id,
        text=str(edge.get("fact") or edge.get("name") or ""),
        valid_from=_time(edge.get("valid_at") or edge.get("created_at"), "valid_at", record_id),
        invalid_at=min(invalid) if invalid else None,
        status=str(edge["status"]) if edge.get("status") is not None else None,
        metadata=dict(edge),
    )


def from_graphiti(edges: Any) -> list[GuardRecord]:
    return [_edge_record(edge, i) for i, edge in enumerate(_items(edges, "edges", "results"))]


def from_zep(result: Any) -> list[GuardRecord]:
    records = []
    for index, item in enumerate(_items(result, "edges", "results", "facts")):
        edge = (
            item.get("edge") or item.get("fact")
            if isinstance(item.get("edge") or item.get("fact"), Mapping)
            else item
        )
        records.append(_edge_record(edge, index))
    return records


ADAPTERS = {"mem0": from_mem0, "graphiti": from_graphiti, "zep": from_zep}
