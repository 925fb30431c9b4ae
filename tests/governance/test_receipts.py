"""Signed receipts for forgetting: they verify, fail when altered, and hold no text."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from govmem import Memory, Principal, Turn
from govmem.errors import InputError
from govmem.governance.erasure import Tombstones
from govmem.governance.receipts import canonical, check, public_key_of, sign, verify

EPISODE = "home"
SECRET = "4417"
LINE = "617-555-0140"
T1 = f"The gate code is {SECRET}. Dinner is at seven on Friday."
T2 = f"Code {SECRET}."
T3 = f"My backup line is {LINE}."
T4 = "I prefer the window seat on trains."
TURNS = [
    Turn("t1", "ana", T1, EPISODE, "2026-03-09T09:00", session_id="s1"),
    Turn("t2", "ana", T2, EPISODE, "2026-03-09T09:01", session_id="s1"),
    Turn("t3", "bo", T3, EPISODE, "2026-03-09T09:05", session_id="s1"),
    Turn("t4", "bo", T4, EPISODE, "2026-04-02T10:00", session_id="s2"),
]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def household(path: str = ":memory:", **options) -> Memory:
    memory = Memory(path, **options)
    memory.add_principals([Principal("ana", "member"), Principal("bo", "member")])
    memory.ingest_many(TURNS)
    return memory


@pytest.fixture
def forgotten() -> tuple[Memory, dict]:
    memory = household()
    receipt = memory.forget([SECRET], EPISODE, requested_by="ana", kinds=["code"]).receipt
    yield memory, receipt
    memory.close()


def test_a_forget_produces_a_receipt_that_verifies(forgotten) -> None:
    memory, receipt = forgotten
    assert verify(receipt)
    assert verify(receipt, memory.public_key())
    assert check(receipt) is None
    assert receipt["public_key"] == memory.public_key()
    assert receipt["version"] == 1
    assert receipt["audit"] == {"probe": "not run"}
    assert receipt["request"] == {
        "requested_by": "ana",
        "episode_id": EPISODE,
        "items_sha256": sorted(d for _, d in Tombstones.of_items([SECRET]).entries),
        "kinds": ["code"],
        "through_turn": None,
        "at": None,
    }
    assert receipt["issued_at"].endswith("Z")
    assert receipt["tombstones_added"] == 1
    assert receipt["collateral"] == 0
    assert memory.receipts() == [receipt]


def test_the_content_hashes_are_of_the_original_texts(forgotten) -> None:
    memory, receipt = forgotten
    after = dict(memory.store.db.execute("SELECT turn_id, text FROM turns"))
    assert receipt["turns_rewritten"] == [
        {"turn_id": "t1", "sha256_before": sha(T1), "sha256_after": sha(after["t1"])}
    ]
    assert after["t1"] == "Dinner is at seven on Friday."
    assert receipt["turns_deleted"] == [{"turn_id": "t2", "sha256": sha(T2)}]
    removed = {o["object_id"]: o["sha256"] for o in receipt["objects_removed"]}
    assert sha(T1) in removed.values() and sha(T2) in removed.values()  # the turn objects
    assert any(name.startswith("session-") for name in removed)  # the window that held them
    live = {f"{kind}-{key}" for key, kind in memory.store.db.execute("SELECT object_key, kind FROM objects")}
    assert receipt["objects_added"] and set(receipt["objects_added"]) <= live
    assert not live & set(removed)


def test_the_store_key_and_id_persist(tmp_path) -> None:
    path = str(tmp_path / "home.db")
    with household(path) as memory:
        first = memory.forget([SECRET], EPISODE).receipt
        key = memory.public_key()
    with Memory(path) as memory:
        second = memory.forget([LINE], EPISODE).receipt
        assert memory.public_key() == key
        assert memory.receipts() == [first, second]
    assert second["store_id"] == first["store_id"] and second["key_id"] == first["key_id"]
    assert verify(second, key)


def _altered(receipt: dict, change) -> dict:
    copied = copy.deepcopy(receipt)
    change(copied)
    return copied


ALTERATIONS = {
    "turn id": lambda r: r["turns_rewritten"][0].update(turn_id="t9"),
    "hash before": lambda r: r["turns_rewritten"][0].update(sha256_before="0" * 64),
    "deleted hash": lambda r: r["turns_deleted"][0].update(sha256="f" * 64),
    "object id": lambda r: r["objects_removed"].pop(),
    "added object": lambda r: r["objects_added"].append("turn-999"),
    "time": lambda r: r.update(issued_at="2020-01-01T00:00:00Z"),
    "request digests": lambda r: r["request"].update(items_sha256=["0" * 64]),
    "requested by": lambda r: r["request"].update(requested_by="bo"),
    "audit": lambda r: r.update(audit={"probe": "passed"}),
    "collateral": lambda r: r.update(collateral=1),
    "new field": lambda r: r.update(note="nothing else was kept"),
    "store id": lambda r: r.update(store_id="0" * 32),
    "key id": lambda r: r.update(key_id="0" * 16),
    "signature bit": lambda r: r.update(
        signature=("B" if r["signature"][0] == "A" else "A") + r["signature"][1:]
    ),
    "signature truncated": lambda r: r.update(signature=r["signature"][:20]),
    "signature not base64": lambda r: r.update(signature="not base64!"),
    "signature not a string": lambda r: r.update(signature=42),
    "public key not base64": lambda r: r.update(public_key="%%%"),
}


@pytest.mark.parametrize("name", ALTERATIONS)
def test_any_alteration_fails_verification(forgotten, name: str) -> None:
    memory, receipt = forgotten
    altered = _altered(receipt, ALTERATIONS[name])
    assert altered != receipt
    assert not verify(altered)
    assert not verify(altered, memory.public_key())
    assert check(altered)  # a reason


def test_a_receipt_from_another_store_fails_against_this_stores_key(forgotten) -> None:
    memory, _ = forgotten
    with household() as other:
        foreign = other.forget([SECRET], EPISODE).receipt
        other_key = other.public_key()
    assert verify(foreign, other_key)
    assert other_key != memory.public_key()
    assert verify(foreign)  # intact, but issued by the other store
    assert not verify(foreign, memory.public_key())
    # re-signed by another key with this store's key swapped in: still fails
    forged = sign({k: v for k, v in foreign.items() if k != "signature"}, "A" * 43 + "=")
    forged["public_key"] = memory.public_key()
    assert not verify(forged, memory.public_key())


def test_sign_covers_the_canonical_json_without_the_signature() -> None:
    key = "B" * 43 + "="
    signed = sign({"b": 1, "a": [2, 3]}, key)
    assert signed["public_key"] == public_key_of(key)
    assert verify(signed)
    body = {k: v for k, v in signed.items() if k != "signature"}
    assert canonical(body) == json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    assert verify(sign(json.loads(json.dumps(signed)), key))  # re-signing replaces the signature


@pytest.mark.parametrize("value", [[], "receipt", 7, {"version": 1}, {"signature": "x", "public_key": "y"}])
def test_something_that_is_not_a_receipt_is_an_input_error(value) -> None:
    with pytest.raises(InputError):
        verify(value)


def test_receipts_hold_no_item_text(tmp_path) -> None:
    path = str(tmp_path / "home.db")
    with household(path) as memory:
        receipt = memory.forget([SECRET, LINE], EPISODE, requested_by="ana").receipt
        memory.ingest(Turn("t5", "ana", "Please delete the old gate code 5532 from memory.", EPISODE))
        stored = memory.receipts()
        rows = memory.store.db.execute("SELECT receipt FROM receipts")
    assert len(stored) == 2
    for text in [json.dumps(receipt), *map(json.dumps, stored), *(row[0] for row in rows)]:
        for secret in (SECRET, LINE, "5532", "gate code", "backup line"):
            assert secret not in text


def test_an_ingest_time_deletion_request_stores_a_receipt() -> None:
    with household() as memory:
        report = memory.ingest(
            Turn("t5", "ana", f"Please delete the old gate code {SECRET} from memory.", EPISODE)
        )
        assert report.receipt is None  # ingest reports no receipt; the store keeps it
        (receipt,) = memory.receipts()
        assert verify(receipt, memory.public_key())
        assert receipt["request"]["through_turn"] == "t5"
        assert receipt["request"]["requested_by"] == "ana"
        assert receipt["request"]["items_sha256"] == sorted(
            d for _, d in Tombstones.of_items([SECRET]).entries
        )
        assert {t["turn_id"] for t in receipt["turns_deleted"]} >= {"t2", "t5"}
        assert [t["turn_id"] for t in receipt["turns_rewritten"]] == ["t1"]
        (event,) = [e for e in memory.governance_events() if e["kind"] == "deletion"]
        assert event["source"] == "interpreter"


def test_collateral_counts_sentences_erased_without_an_item() -> None:
    memory = Memory(":memory:")
    memory.add_principal("ana", "member")
    # the item spans a sentence break, so the whole turn goes: two sentences, neither holds it
    memory.ingest(Turn("t1", "ana", "We met at the Cedar. Bridge club was fun.", EPISODE))
    receipt = memory.forget(["cedar bridge"], EPISODE).receipt
    assert [t["turn_id"] for t in receipt["turns_deleted"]] == ["t1"]
    assert receipt["collateral"] == 2
    memory.close()


def test_a_forget_that_finds_nothing_still_has_a_receipt() -> None:
    with household() as memory:
        receipt = memory.forget(["never said"], EPISODE).receipt
    assert verify(receipt)
    assert receipt["turns_rewritten"] == receipt["turns_deleted"] == receipt["objects_removed"] == []
