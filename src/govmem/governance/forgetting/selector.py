"""Selection under a budget: which of the scored candidates a plan deletes.

- :class:`ScoreSelector` (the offline default): the best-scored candidates, ties
  broken by position in the episode. Deterministic.
- :class:`LLMSelector`: a configured model reads the request, the disclosure and the
  widest candidates and names the turns that, alone or together with others, let a
  reader infer the secret. Its reply is checked, not trusted: only candidate ids
  count, at most the budget; the disclosure is always kept; on :class:`LLMError`
  or an unusable reply it falls back to :class:`ScoreSelector` and counts it.

A selector sees candidates, never annotations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from govmem.errors import LLMError
from govmem.llm.client import LLMClient


@dataclass(frozen=True)
class Candidate:
    """A turn the planner may delete: its id, key, text, score and reasons."""

    turn_id: str
    turn_key: int
    text: str
    score: float
    reasons: tuple[str, ...] = ()


class Selector(Protocol):
    name: str

    def select(
        self, request: str, disclosure: Sequence[Candidate], candidates: Sequence[Candidate], budget: int
    ) -> list[tuple[str, str]]:
        """(turn id, why) for at most ``budget`` of ``candidates``, best first."""
        ...


class ScoreSelector:
    """The offline default: highest score first, ties by position."""

    name = "score"

    def select(
        self, request: str, disclosure: Sequence[Candidate], candidates: Sequence[Candidate], budget: int
    ) -> list[tuple[str, str]]:
        ranked = sorted(enumerate(candidates), key=lambda ic: (-round(ic[1].score, 9), ic[0]))
        return [
            (c.turn_id, f"selected: score {c.score:.3f}, rank {rank} of {len(candidates)}")
            for rank, (_, c) in enumerate(ranked[: max(budget, 0)], start=1)
        ]


SYSTEM = (
    "You help a memory system forget a secret completely. You are given a deletion request, "
    "the turns that disclosed the secret, and candidate turns from the same conversation. "
    "Choose the candidates that, alone or combined with other surviving turns, would let a "
    "careful reader infer or confirm the secret (names of places or people tied to it, "
    "symptoms, amounts that add up, dates that pin it down). Prefer turns that break every "
    "route of inference. Answer with candidate ids only."
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "delete": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "why": {"type": "string"}},
                "required": ["id", "why"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["delete"],
    "additionalProperties": False,
}


@dataclass
class LLMSelector:
    """A model chooses; :class:`ScoreSelector` when it cannot (``fallbacks`` counts those)."""

    client: LLMClient
    pool: int = 60
    """How many of the best-scored candidates the model reads."""
    fallback: Selector = field(default_factory=ScoreSelector)
    fallbacks: int = 0
    name: str = "llm"

    def select(
        self, request: str, disclosure: Sequence[Candidate], candidates: Sequence[Candidate], budget: int
    ) -> list[tuple[str, str]]:
        if budget <= 0 or not candidates:
            return []
        shown = sorted(candidates, key=lambda c: -c.score)[: self.pool]
        by_id = {c.turn_id: c for c in shown}
        prompt = "\n".join(
            [
                f"Deletion request: {request}",
                "Disclosure:",
                *(f"- {c.text}" for c in disclosure),
                f"Candidates (choose at most {budget}):",
                *(f"[{c.turn_id}] {c.text}" for c in shown),
            ]
        )
        sources = [c.turn_key for c in (*disclosure, *shown)]
        try:
            reply = self.client.complete(prompt, system=SYSTEM, schema=SCHEMA, sources=sources)
            chosen: list[tuple[str, str]] = []
            for item in (reply.data or {}).get("delete", []):
                turn_id = str(item.get("id", ""))
                if turn_id in by_id and turn_id not in {t for t, _ in chosen}:
                    chosen.append(
                        (turn_id, f"selected by {self.client.model}: {str(item.get('why', ''))[:200]}")
                    )
            if not chosen:
                raise LLMError("the selector named no candidate")
            return chosen[:budget]
        except (LLMError, AttributeError, TypeError):
            self.fallbacks += 1
            return self.fallback.select(request, disclosure, candidates, budget)
