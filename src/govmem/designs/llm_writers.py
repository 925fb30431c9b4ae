"""Writers backed by a language model: the LLM implementations of each design.

They satisfy the protocols of :mod:`govmem.designs.writers`, so a deriver takes
either kind. Every call passes its ``sources`` to the client, so a cached reply
is forgotten with the turns whose text was in its prompt. Replies are asked for
at temperature 0 and cached by prompt, so re-deriving an unchanged group gets the
same text back without a call (and rewrites nothing).

The prompts ask the model to restate only what the lines say. That is wording,
not protection: what a derived object may contain is decided by its sources (the
object is governed by their labels and goes when they go), never by the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence

from govmem.designs.writers import ExtractedFact
from govmem.llm.client import LLMClient

SUMMARY_SYSTEM = (
    "You write memory summaries of multi-party conversations. Use only facts stated in the "
    "lines you are given; keep names, dates, numbers and decisions exact; no commentary."
)
NARRATIVE_SYSTEM = (
    "You retell a segment of a conversation as a short third-person narrative for a memory "
    "store. Use only what the lines say; keep who said what, names, dates and numbers exact."
)
FACT_SYSTEM = (
    "You extract atomic facts from one utterance for a memory store. Each fact is a subject "
    "(a person, resource or thing named or implied; 'I'/'my' is the speaker), an attribute "
    "and its value, copied from the utterance. Return no facts if it states none."
)
FACT_SCHEMA = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "subject": {"type": "string"},
                    "attribute": {"type": "string"},
                    "value": {"type": "string"},
                },
                "required": ["subject", "attribute", "value"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["facts"],
    "additionalProperties": False,
}


_FIRST_PERSON = frozenset({"i", "me", "my", "myself", "speaker", "the speaker"})


def _transcript(lines: Sequence[str]) -> str:
    return "\n".join(lines)


class _LLMProseWriter:
    """Prose from a group's lines: a summary or a narrative, after the object's title."""

    system = ""
    instruction = ""

    def __init__(self, client: LLMClient, max_tokens: int = 400):
        self.client = client
        self.max_tokens = max_tokens
        self.name = f"llm:{client.model}"

    def _write(self, title: str, lines: Sequence[str], sources: Sequence[int]) -> str:
        prompt = f"{self.instruction}\n\n{_transcript(lines)}"
        reply = self.client.complete(prompt, system=self.system, max_tokens=self.max_tokens, sources=sources)
        return f"{title} {reply.text.strip()}"


class LLMSummaryWriter(_LLMProseWriter):
    system = SUMMARY_SYSTEM
    instruction = "Summarize these lines in at most five sentences."

    def summarize(self, title: str, lines: Sequence[str], sources: Sequence[int]) -> str:
        return self._write(title, lines, sources)


class LLMNarrativeWriter(_LLMProseWriter):
    system = NARRATIVE_SYSTEM
    instruction = "Retell this segment as a narrative."

    def narrate(self, title: str, lines: Sequence[str], sources: Sequence[int]) -> str:
        return self._write(title, lines, sources)


class LLMFactExtractor:
    def __init__(self, client: LLMClient, max_tokens: int = 300):
        self.client = client
        self.max_tokens = max_tokens
        self.name = f"llm:{client.model}"

    def extract(
        self, speaker: str, text: str, timestamp: str | None, sources: Sequence[int]
    ) -> list[ExtractedFact]:
        when = f" at {timestamp}" if timestamp else ""
        prompt = f"Speaker: {speaker}{when}\nUtterance: {text}"
        reply = self.client.complete(
            prompt, system=FACT_SYSTEM, schema=FACT_SCHEMA, max_tokens=self.max_tokens, sources=sources
        )
        facts = []
        for item in (reply.data or {}).get("facts", []):
            subject, attribute, value = (str(item[k]).strip() for k in ("subject", "attribute", "value"))
            if subject.lower() in _FIRST_PERSON:
                subject = speaker
            if subject and attribute and value:
                facts.append(ExtractedFact(subject, attribute.lower(), value))
        return facts
