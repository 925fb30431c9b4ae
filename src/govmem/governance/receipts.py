"""Signed receipts for forgetting.

Every deletion request (through ``Memory.forget`` or read from a turn at ingest)
produces a receipt: a JSON object that says what was asked and what was erased,
in digests only, signed with the store's Ed25519 key.

>>> receipt = memory.forget(["4417"], "home", requested_by="ana").receipt  # doctest: +SKIP
>>> verify(receipt)                                                        # doctest: +SKIP
True

What a receipt holds (``version`` 1), never any text:

- ``store_id``: the issuing store's random id (kept in its meta table);
- ``request``: ``requested_by``, ``episode_id``, ``items_sha256`` (the digests of the
  items' normalised token sequences, as in the tombstones), ``kinds``, ``through_turn``
  (the turn id the request covers up to), ``at`` (its effective time, if given);
- ``issued_at``: when the erasure ran (UTC, ISO 8601);
- ``turns_rewritten``: turn id, ``sha256_before`` and ``sha256_after`` (SHA-256 of the
  UTF-8 text before and after erasure); ``turns_deleted``: turn id and ``sha256`` of the
  text the turn had;
- ``objects_removed``: object id and ``sha256`` of its text; ``objects_added``: ids of
  the objects derived again without the item;
- ``tombstones_added``: how many digests now keep the items out of later turns;
- ``collateral``: sentences erased that held no item themselves (an item spanning a
  sentence break, or formed across the seam of two kept sentences, takes the whole
  turn with it);
- ``audit``: ``{"probe": "not run"}`` for item erasure;
- a deletion request in words (``Memory.forget_request``) adds ``kind: "request"``; its
  ``request`` holds ``request_sha256`` (the digest of the request text) instead of item
  digests; ``plan`` lists turn ids by stage (``disclosure_turns``, ``trail_turns``,
  ``audit_turns``) and how many ``candidates`` were considered; ``audit`` is the
  residual-recovery probe's result (``budget``, ``rounds``, ``turns_added``,
  ``support_left``, ``max_support``, ``passed``); ``collateral`` counts the deleted
  turns other than the best disclosure candidate (see
  :mod:`govmem.governance.forgetting.request`). Verification is the same for both kinds;
- ``key_id``, ``public_key`` (base64 of the raw Ed25519 key) and ``signature`` (base64,
  over the canonical JSON of every other field: sorted keys, no whitespace, UTF-8).

A receipt proves that it was not altered after signing and which key (store) issued
it. It is not protection against the store's own operator: whoever holds the store
file holds its key and can sign anything. Digests of short items (a 4-digit code) can
be found by trying every value; they are the same digests the tombstones keep.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from govmem.errors import InputError

RECEIPT_VERSION = 1
AUDIT_NOT_RUN = {"probe": "not run"}
SIGNATURE_FIELDS = ("key_id", "public_key", "signature")
"""Added by :func:`sign`; ``key_id`` and ``public_key`` are signed too, ``signature`` is not."""


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def canonical(body: Mapping[str, Any]) -> bytes:
    """The bytes that are signed: sorted keys, no whitespace, UTF-8."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass
class ErasureLedger:
    """What one deletion request changed, gathered while it runs (hashes only)."""

    rewritten: dict[str, tuple[str, str]] = field(default_factory=dict)  # turn id -> before, after
    deleted: dict[str, str] = field(default_factory=dict)  # turn id -> sha256
    removed: dict[str, str] = field(default_factory=dict)  # object id -> sha256
    collateral: int = 0


@dataclass
class Receipt:
    """The unsigned body of a receipt; :meth:`to_dict` gives its JSON form."""

    store_id: str
    request: dict[str, Any]
    issued_at: str
    turns_rewritten: list[dict[str, str]]
    turns_deleted: list[dict[str, str]]
    objects_removed: list[dict[str, str]]
    objects_added: list[str]
    tombstones_added: int
    collateral: int
    audit: dict[str, Any] = field(default_factory=lambda: dict(AUDIT_NOT_RUN))
    version: int = RECEIPT_VERSION

    @classmethod
    def of(
        cls,
        ledger: ErasureLedger,
        *,
        store_id: str,
        request: dict[str, Any],
        issued_at: str,
        objects_added: list[str],
        tombstones_added: int,
    ) -> Receipt:
        return cls(
            store_id=store_id,
            request=request,
            issued_at=issued_at,
            turns_rewritten=[
                {"turn_id": turn_id, "sha256_before": before, "sha256_after": after}
                for turn_id, (before, after) in sorted(ledger.rewritten.items())
            ],
            turns_deleted=[{"turn_id": t, "sha256": h} for t, h in sorted(ledger.deleted.items())],
            objects_removed=[{"object_id": o, "sha256": h} for o, h in sorted(ledger.removed.items())],
            objects_added=sorted(objects_added),
            tombstones_added=tombstones_added,
            collateral=ledger.collateral,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def new_signing_key() -> str:
    """A fresh Ed25519 private key, as base64 of its 32 raw bytes."""
    return base64.b64encode(secrets.token_bytes(32)).decode()


def new_store_id() -> str:
    return secrets.token_hex(16)


def _private_key(key: str | bytes | Ed25519PrivateKey) -> Ed25519PrivateKey:
    if isinstance(key, Ed25519PrivateKey):
        return key
    raw = base64.b64decode(key) if isinstance(key, str) else key
    return Ed25519PrivateKey.from_private_bytes(raw)


def public_key_of(private_key: str | bytes | Ed25519PrivateKey) -> str:
    """The base64 raw public key of a private key."""
    public = _private_key(private_key).public_key()
    return base64.b64encode(public.public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()


def key_id_of(public_key: str) -> str:
    """A short name for a public key: the first 16 hex digits of SHA-256 of its raw bytes."""
    return hashlib.sha256(base64.b64decode(public_key)).hexdigest()[:16]


def sign(receipt_body: Receipt | Mapping[str, Any], private_key: str | bytes | Ed25519PrivateKey) -> dict:
    """The receipt with ``key_id``, ``public_key`` and ``signature`` added."""
    body = receipt_body.to_dict() if isinstance(receipt_body, Receipt) else dict(receipt_body)
    key = _private_key(private_key)
    public = public_key_of(key)
    signed = {**body, "key_id": key_id_of(public), "public_key": public}
    signed.pop("signature", None)
    signature = key.sign(canonical(signed))
    return {**signed, "signature": base64.b64encode(signature).decode()}


def check(receipt: Any, public_key: str | None = None) -> str | None:
    """Why the receipt does not verify, or None when it does.

    Uses the embedded public key unless ``public_key`` (base64) is given; a given key
    must also be the embedded one. Raises :class:`InputError` only when ``receipt``
    is not a receipt at all (not an object, or no signature fields).
    """
    if not isinstance(receipt, Mapping):
        raise InputError("a receipt is a JSON object")
    missing = [name for name in SIGNATURE_FIELDS if name not in receipt]
    if missing:
        raise InputError(f"not a signed receipt: no {missing[0]!r}")
    if not all(isinstance(receipt[name], str) for name in SIGNATURE_FIELDS):
        return "the signature fields must be strings"
    embedded = receipt["public_key"]
    if public_key is not None and public_key.strip() != embedded:
        return "signed with another key than the one given"
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(embedded, validate=True))
        signature = base64.b64decode(receipt["signature"], validate=True)
    except (binascii.Error, ValueError):
        return "the public key or signature is not valid base64 of the right length"
    if receipt["key_id"] != key_id_of(embedded):
        return "the key id does not match the public key"
    body = {name: value for name, value in receipt.items() if name != "signature"}
    try:
        key.verify(signature, canonical(body))
    except InvalidSignature:
        return "the signature does not match the content"
    return None


def verify(receipt: Any, public_key: str | None = None) -> bool:
    """Whether the receipt is unaltered since it was signed (by ``public_key``'s owner, if given)."""
    return check(receipt, public_key) is None
