"""The LLM interpreter: deletion requests read from a turn by a language model.

>>> interpreter = LLMInterpreter(load_client())                       # doctest: +SKIP
>>> memory = Memory("clinic.db", interpreter=interpreter)            # doctest: +SKIP

It implements the same :class:`~govmem.governance.interpreter.Interpreter`
protocol as :class:`~govmem.governance.interpreter.RuleInterpreter` and produces
the same structured events; enforcement reads those events, never the model's
prose. What the model says is trusted only as far as it can be checked:

- Items are kept only when they occur in the turn's text (case-insensitive,
  whitespace runs folded): a model must not invent items, and forgetting text
  that is not there is meaningless. Items shorter than ``MIN_ITEM_CHARS`` (as
  normalised tokens) and items made only of generic words ("the old PIN", "my
  phone number": a description, not a value) are dropped, since they would
  erase every sentence that merely mentions such a thing.
- ``requested_by`` is always the turn's speaker, never anything the model says.
- Kinds are reduced to the vocabulary the rule interpreter and the forgotten
  probe share ("pin", "code", "number", ...): they are stored with the tombstones,
  so no free text from the model reaches the store.
- Role claims ("I'm the doctor") are asked for and kept in :attr:`role_claims`
  for inspection only. They are never returned, so nothing acts on them: a role
  comes from the application (``Memory.add_principals``), not from what a speaker says.

Cost: one structured-output call per turn that could hold governance content.
:func:`might_govern` (the rule interpreter's cue scan plus a few phrasings the
rules do not act on, such as "redact") settles ordinary turns with no call; a turn
the rules could act on is always sent.

Failure: on an :class:`~govmem.errors.LLMError` (the backend down after its
retries, a reply that never matched the schema) the turn is read by ``fallback``
(the rule interpreter by default) and :attr:`fallbacks` counts it, so forgetting
never depends on a model being up. With ``fallback=None`` the error propagates,
and ``Memory`` rolls the ingest back rather than skip a request.

Caching: replies are never cached. The protocol passes only the turn, not its
turn key, so a cached reply could not record the turn whose text is in its prompt
(``sources``), and deleting or erasing that turn would leave its text in the
cache. Every call therefore goes to a shallow copy of the client with
``cache=None`` (sharing the client's connection and usage totals). Unlike
swapping the client's cache out and back, this is safe when the same client is
used at the same time by a reader or the derived designs. Little is lost: a
request turn is interpreted once, when it is ingested.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from govmem.errors import LLMError
from govmem.governance.erasure import MIN_ITEM_CHARS, tokens
from govmem.governance.interpreter import (
    DELETION_CUES,
    KIND_WORDS,
    DeletionRequest,
    Interpreter,
    RuleInterpreter,
)
from govmem.governance.prefilter import contains_any
from govmem.llm.client import LLMClient
from govmem.models import Turn

if TYPE_CHECKING:
    from govmem.store.base import Store

SCHEMA: dict[str, Any] = {
    "title": "governance_events",
    "type": "object",
    "properties": {
        "deletion_requests": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "items": {"type": "array", "items": {"type": "string"}},
                    "kinds": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["items", "kinds"],
                "additionalProperties": False,
            },
        },
        "role_claims": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"claimed_role": {"type": "string"}},
                "required": ["claimed_role"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["deletion_requests", "role_claims"],
    "additionalProperties": False,
}
"""What the model returns for one turn (strict-mode compatible: every property required)."""

SYSTEM = """\
You read one turn of a conversation kept by a shared memory system and report the \
governance requests the speaker makes in it.

deletion_requests: the speaker asks that something be deleted, removed, erased, purged or \
forgotten from memory, or says it should be treated as deleted or no longer be retrievable. \
For each request, list in "items" the exact strings to forget, copied verbatim from the turn: \
values (codes, PINs, phone numbers, amounts, addresses, room numbers), names, phrases, quoted \
wording. Copy the value itself, not a description of it ("4417", not "the old gate code"); \
if the turn does not state the value, list nothing for it. Never list what the speaker says \
to keep, to use from now on, or that is current. Plans and intentions ("prepare to remove", \
"we will delete it next week"), questions about deletion and reports of deletions done \
elsewhere are not requests. In "kinds", name what sort of thing each item is in a word or \
two (pin, code, phone number, address, name, phrase, label, amount, location).

role_claims: any role the speaker claims for themselves ("I'm the doctor", "as her \
guardian"), in the speaker's words. Claims are only noted.

Most turns contain neither: then both lists are empty."""

_EXTRA_CUES = (
    "redact",
    "don't keep",
    "do not keep",
    "don't store",
    "do not store",
    "stop storing",
    "stop keeping",
    "unremember",
)
"""Phrasings of a request the rule interpreter does not act on, worth a model's look."""

_GENERIC = frozenset(
    {"the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that", "these", "those"}
    | {"old", "older", "new", "newer", "previous", "prior", "former", "earlier", "current", "stale"}
    | {"backup", "phone", "value", "entry", "item", "info", "information", "detail", "details"}
    | {"pin", "code", "phrase", "label", "number", "amount", "contact", "location", "token", "mapping"}
    | {"wording", "address", "alias", "name", "line", "room", "seat", "identifier", "time", "entrance"}
)
"""Words that describe a thing without stating it: an item made only of these is no value."""


RULES = RuleInterpreter()
"""The default fallback (stateless, so one is shared)."""


def might_govern(text: str) -> bool:
    """Whether a turn could hold a deletion request: one cheap scan, no call.

    True for every turn the rule interpreter could act on (the same cue fragments),
    and for a few more phrasings ("redact", "do not keep").
    """
    lowered = text.lower()
    return contains_any(lowered, DELETION_CUES) or contains_any(lowered, _EXTRA_CUES)


def roles_of(store: Store) -> Callable[[str], str | None]:
    """The role of a principal as the store records it (for ``LLMInterpreter(roles=...)``):
    ``memory.interpreter.roles = roles_of(memory.store)``."""

    def role(principal_id: str) -> str | None:
        principal = store.get_principal(principal_id)
        return principal.role if principal is not None else None

    return role


@dataclass(frozen=True)
class RoleClaim:
    """A role a speaker claimed in a turn: recorded for inspection, never acted on."""

    episode_id: str
    turn_id: str
    speaker: str
    claimed_role: str


class LLMInterpreter:
    """Deletion requests read by a language model, checked against the turn's text.

    ``fallback`` reads a turn when the model fails (None: the error propagates);
    ``roles`` gives a speaker's role for the prompt (a mapping or a function of the
    principal id); ``prefilter`` decides from the text whether a turn is worth a
    call (default :func:`might_govern`). See the module docstring for what is
    checked, and why replies are not cached.
    """

    def __init__(
        self,
        client: LLMClient,
        *,
        fallback: Interpreter | None = RULES,
        roles: Mapping[str, str] | Callable[[str], str | None] | None = None,
        prefilter: Callable[[str], bool] = might_govern,
        max_tokens: int = 512,
    ):
        self.client = client
        self.fallback = fallback
        self.roles = roles
        self.prefilter = prefilter
        self.max_tokens = max_tokens
        self.calls = 0
        """Turns sent to the model."""
        self.fallbacks = 0
        """Turns the model failed on, read by ``fallback`` instead."""
        self.role_claims: list[RoleClaim] = []
        """Roles speakers claimed, for audit only: nothing reads these to decide anything."""

    def needs_call(self, turn: Turn) -> bool:
        """The prefilter's decision: False means the turn holds no request and costs no call."""
        return self.prefilter(turn.text)

    def prompt(self, turn: Turn) -> str:
        role = self._role_of(turn.speaker)
        speaker = f"{turn.speaker} (role: {role})" if role else f"{turn.speaker} (role unknown)"
        return f"Speaker: {speaker}\nTime: {turn.timestamp or 'unknown'}\nTurn text:\n{turn.text}"

    def interpret(self, turn: Turn) -> list[DeletionRequest]:
        if not self.needs_call(turn):
            return []
        self.calls += 1
        try:
            reply = self._uncached_client().complete(
                self.prompt(turn), system=SYSTEM, schema=SCHEMA, max_tokens=self.max_tokens
            )
            requests, claims = _read(reply.data)
        except LLMError:
            if self.fallback is None:
                raise
            self.fallbacks += 1
            return self.fallback.interpret(turn)
        self.role_claims.extend(
            RoleClaim(turn.episode_id, turn.turn_id, turn.speaker, claim)
            for claim in claims
            if _present(claim, turn.text)
        )
        return checked_requests(turn, requests)

    def _role_of(self, speaker: str) -> str | None:
        if self.roles is None:
            return None
        if isinstance(self.roles, Mapping):
            return self.roles.get(speaker)
        return self.roles(speaker)

    def _uncached_client(self) -> LLMClient:
        """The client with no cache (see the module docstring): a shallow copy, so the
        client itself, perhaps in use elsewhere, is never changed."""
        if not hasattr(self.client, "cache"):
            return self.client
        view = copy.copy(self.client)
        view.cache = None  # type: ignore[attr-defined]
        return view


def checked_requests(
    turn: Turn, requests: Sequence[tuple[Sequence[str], Sequence[str]]]
) -> list[DeletionRequest]:
    """The model's (items, kinds) pairs as deletion requests by the turn's speaker,
    keeping only items that occur in the turn, are long enough and state a value;
    an item already listed in an earlier request of the turn is not repeated."""
    seen: set[str] = set()
    found = []
    for items, kinds in requests:
        kept = []
        for raw in items:
            item = raw.strip().strip("\"'“”‘’`").strip()
            words = tokens(item)
            key = " ".join(words)
            if len(key) < MIN_ITEM_CHARS or key in seen or not _present(item, turn.text):
                continue
            if all(_generic(word) for word in words):
                continue
            seen.add(key)
            kept.append(item)
        if kept:
            vocabulary = {match.lower() for kind in kinds for match in KIND_WORDS.findall(kind)}
            found.append(DeletionRequest(turn.speaker, tuple(kept), tuple(sorted(vocabulary))))
    return found


def _read(data: Any) -> tuple[list[tuple[list[str], list[str]]], list[str]]:
    """(requests as (items, kinds), claimed roles) from a reply; LLMError when it has another shape
    (the client validates the schema, but an ``LLMClient`` need not be a ``BaseClient``)."""
    try:
        requests = [
            (_strings(entry["items"]), _strings(entry["kinds"])) for entry in data["deletion_requests"]
        ]
        claims = [entry["claimed_role"] for entry in data["role_claims"]]
    except (TypeError, KeyError) as exc:
        raise LLMError(f"the interpreter's reply has an unexpected shape: {exc!r}") from None
    return requests, [c.strip() for c in claims if isinstance(c, str) and c.strip()]


def _strings(values: Any) -> list[str]:
    if not isinstance(values, list):
        raise TypeError("not a list")
    return [v for v in values if isinstance(v, str)]


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _present(item: str, text: str) -> bool:
    """Whether ``item`` occurs in ``text``, ignoring case and runs of whitespace."""
    folded = _fold(item)
    return bool(folded) and folded in _fold(text)


def _generic(word: str) -> bool:
    return word in _GENERIC or (word.endswith("s") and word[:-1] in _GENERIC)
