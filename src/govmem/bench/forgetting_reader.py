"""The LLM reader of the forgetting benchmark: four options plus decline, both option orders.

The oracle reader needs no model (:func:`~govmem.bench.forgetting_scoring.oracle_recovers`).
This one asks a configured model (``govmem.llm``) to answer the fact's question from
a context alone; it counts as correct only when it picks the right option with the
options in the order given and in reverse (MemCut's rule against position bias).
"""

from __future__ import annotations

from typing import Any

from govmem.bench.forgetting_data import Question
from govmem.errors import LLMError
from govmem.llm.client import LLMClient

LETTERS = "ABCD"
DECLINE = "E"
SYSTEM = (
    "You answer a multiple-choice question using only the memory records given. "
    f"If the records do not support one option, answer {DECLINE} (I don't know)."
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"choice": {"type": "string", "enum": [*LETTERS, DECLINE]}},
    "required": ["choice"],
    "additionalProperties": False,
}


def prompt(context: str, question: str, options: list[str]) -> str:
    lines = [f"{letter}) {option}" for letter, option in zip(LETTERS, options, strict=True)]
    lines.append(f"{DECLINE}) I don't know")
    return f"Memory records:\n{context or '(none)'}\n\nQuestion: {question}\n" + "\n".join(lines)


class LLMChoiceReader:
    """Asks ``client`` twice per context; ``failures`` counts replies that could not be used."""

    def __init__(self, client: LLMClient):
        self.client = client
        self.failures = 0

    def _choice(self, context: str, question: str, options: list[str]) -> int | None:
        try:
            reply = self.client.complete(prompt(context, question, options), system=SYSTEM, schema=SCHEMA)
        except LLMError:
            self.failures += 1
            return None
        choice = (reply.data or {}).get("choice") if isinstance(reply.data, dict) else None
        return LETTERS.index(choice) if choice in LETTERS else None

    def correct(self, context: str, question: Question) -> bool:
        options = list(question.options)
        first = self._choice(context, question.text, options)
        if first != question.answer_index:
            return False
        reversed_options = options[::-1]
        second = self._choice(context, question.text, reversed_options)
        return second is not None and reversed_options[second] == options[question.answer_index]
