"""Memory designs: derivers that turn source turns into memory objects.

=========  ==========================================================  ==========
design     objects                                                      verbatim
=========  ==========================================================  ==========
turn       each turn's text                                             yes
session    transcript windows of a session                              yes
summary    session, day and monthly profile summaries (MemoryBank)      no
narrative  topic segments retold in the third person, and their facts   no
fact       atomic (subject, attribute, value) facts, latest value wins  no
=========  ==========================================================  ==========

The derived designs write through strategies (:mod:`govmem.designs.writers`),
deterministic by default, so an LLM can write instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from govmem.designs.base import Deriver
from govmem.designs.fact import FactDeriver
from govmem.designs.narrative import NarrativeDeriver
from govmem.designs.session import SessionDeriver
from govmem.designs.summary import SummaryDeriver
from govmem.designs.turn import TurnDeriver
from govmem.designs.writers import (
    ExtractedFact,
    ExtractiveSummaryWriter,
    FactExtractor,
    NarrativeWriter,
    RuleFactExtractor,
    SummaryWriter,
    TemplateNarrativeWriter,
)
from govmem.errors import InputError
from govmem.retrieval.embedders import Embedder

if TYPE_CHECKING:
    from govmem.llm.client import LLMClient

DESIGNS = {
    "turn": TurnDeriver,
    "session": SessionDeriver,
    "summary": SummaryDeriver,
    "narrative": NarrativeDeriver,
    "fact": FactDeriver,
}
NEEDS_EMBEDDER = frozenset({"narrative"})
"""Designs constructed with the store's embedder (narrative segments by similarity)."""


def make_derivers(
    names: list[str] | tuple[str, ...], embedder: Embedder | None = None, llm: LLMClient | None = None
) -> list[Deriver]:
    """One deriver per design name; designs in :data:`NEEDS_EMBEDDER` get ``embedder``.

    With ``llm`` the derived designs write through it (summaries, narratives, fact
    extraction); without, through the deterministic offline writers. Without an
    embedder a design that needs one is still built (so a list of names can be
    checked alone), but it raises :class:`InputError` naming the design when it
    is first asked to derive.
    """
    unknown = [n for n in names if n not in DESIGNS]
    if unknown:
        raise InputError(f"unknown memory design {unknown[0]!r} (known: {', '.join(DESIGNS)})")
    summaries = narratives = facts = None
    if llm is not None:
        from govmem.designs.llm_writers import LLMFactExtractor, LLMNarrativeWriter, LLMSummaryWriter

        summaries, narratives, facts = LLMSummaryWriter(llm), LLMNarrativeWriter(llm), LLMFactExtractor(llm)
    build: dict[str, Callable[[], Deriver]] = {
        "turn": TurnDeriver,
        "session": SessionDeriver,
        "summary": lambda: SummaryDeriver(writer=summaries),
        "narrative": lambda: NarrativeDeriver(embedder, writer=narratives, extractor=facts),
        "fact": lambda: FactDeriver(extractor=facts),
    }
    return [build[n]() for n in names]


__all__ = [
    "DESIGNS",
    "NEEDS_EMBEDDER",
    "Deriver",
    "ExtractedFact",
    "ExtractiveSummaryWriter",
    "FactDeriver",
    "FactExtractor",
    "NarrativeDeriver",
    "NarrativeWriter",
    "RuleFactExtractor",
    "SessionDeriver",
    "SummaryDeriver",
    "SummaryWriter",
    "TemplateNarrativeWriter",
    "TurnDeriver",
    "make_derivers",
]
