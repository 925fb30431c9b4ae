"""Narrative memory: topic segments of a session, retold, with their facts."""

from __future__ import annotations

import numpy as np
import pytest
from derived_checks import (
    EPISODE,
    check_batch_size_invariance,
    check_closure,
    check_recall_by_design,
    household,
    objects,
    stored,
    unit,
)

from govmem import InputError
from govmem.designs import NarrativeDeriver, make_derivers
from govmem.designs.base import group_id_of
from govmem.designs.narrative import segment
from govmem.designs.writers import TemplateNarrativeWriter
from govmem.retrieval.embedders import load_embedder

TOPICS = ("garden", "budget", "dentist")


class TopicEmbedder:
    """One axis per topic word, plus a small shared axis so every text has a vector."""

    name = "topics"
    dim = len(TOPICS) + 1

    def embed_documents(self, texts):
        rows = [[text.lower().count(word) for word in TOPICS] + [0.1] for text in texts]
        return unit(rows) if rows else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text):
        return self.embed_documents([text])[0]


GROUP = group_id_of("session", EPISODE, "s1")


def test_segment_cuts_where_similarity_to_the_centroid_drops() -> None:
    vectors = unit([[1, 0], [1, 0.1], [0.9, 0.2], [0, 1], [0.1, 1]])
    assert segment(vectors, threshold=0.5) == [range(0, 3), range(3, 5)]
    assert segment(vectors, threshold=-1.0, max_turns=2) == [range(0, 2), range(2, 4), range(4, 5)]
    assert segment(np.zeros((0, 2), np.float32)) == []
    with pytest.raises(ValueError):
        segment(vectors, max_turns=0)


def test_derive_cuts_at_a_topic_change() -> None:
    turns = [
        stored(1, "ana", "The garden needs weeding.", "2026-03-09T09:00"),
        stored(2, "bo", "I will do the garden on Saturday.", "2026-03-09T09:01"),
        stored(3, "ana", "Garden gloves are in the shed.", "2026-03-09T09:02"),
        stored(4, "bo", "The budget is over by 200 euros.", "2026-03-09T09:03"),
        stored(5, "ana", "Cut the budget for dinners out.", "2026-03-09T09:04"),
    ]
    drafts = NarrativeDeriver(TopicEmbedder(), threshold=0.5).derive(GROUP, turns)
    narratives = [d for d in drafts if d.text.startswith("On ")]
    assert [d.source_keys for d in narratives] == [(1, 2, 3), (4, 5)]
    assert narratives[1].text == (
        "On 2026-03-09, bo told ana that the budget is over by 200 euros. "
        "ana told bo that Cut the budget for dinners out."
    )
    assert not narratives[0].embed_text  # a retelling is embedded as its turns, pooled
    assert {d.kind for d in drafts} == {"narrative"} and {d.group_id for d in drafts} == {GROUP}


def test_wordllama_cuts_where_the_topic_changes() -> None:
    texts = [
        "My address is 12 Oak St.",
        "I moved to 12 Oak Street last month, the house is nice.",
        "The gate code at the Oak St house is 4417.",
        "Let's talk about the quarterly budget for project Falcon.",
        "The Falcon budget needs a 10 percent cut.",
    ]
    turns = [stored(k, "ana" if k % 2 else "bo", text, "2026-03-09T09:00") for k, text in enumerate(texts, 1)]
    drafts = NarrativeDeriver(load_embedder("wordllama"), threshold=0.2).derive(GROUP, turns)
    assert [d.source_keys for d in drafts if d.text.startswith("On ")] == [(1, 2, 3), (4, 5)]


def test_segments_carry_their_merged_facts() -> None:
    turns = [
        stored(1, "bo", "My garden gate code is 1111.", "2026-03-09T09:00"),
        stored(2, "bo", "Sorry, my garden gate code is 2222.", "2026-03-09T09:01"),
        stored(3, "ana", "Garden party on Sunday.", "2026-03-09T09:02"),
    ]
    drafts = NarrativeDeriver(TopicEmbedder(), threshold=0.5).derive(GROUP, turns)
    facts = [(d.text, d.source_keys) for d in drafts if not d.text.startswith("On ")]
    assert facts == [("bo — garden gate code: 2222", (1, 2))]


def test_narrative_is_told_in_the_third_person() -> None:
    writer = TemplateNarrativeWriter()
    lines = ["ana: Okay, I'm moving my desk tomorrow.", "bo: Can you take your plants too?", "ana: Bo, yes."]
    assert writer.narrate("On 2026-03-09", lines, [1, 2, 3]) == (
        "On 2026-03-09, ana told bo that they're moving their desk tomorrow. "
        "bo asked ana: can ana take ana's plants too? ana told bo that Bo, yes."
    )
    assert writer.narrate("", ["ana: Hello."], [1]) == "Ana said that hello."


def test_derive_is_deterministic() -> None:
    turns = [stored(k, "ana", f"The garden plan, step {k}.", "2026-03-09T09:00") for k in range(1, 12)]
    first = NarrativeDeriver(TopicEmbedder(), threshold=0.5, max_turns=4).derive(GROUP, turns)
    again = NarrativeDeriver(TopicEmbedder(), threshold=0.5, max_turns=4).derive(GROUP, turns)
    assert first == again
    assert [d.source_keys for d in first] == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11)]
    assert NarrativeDeriver(TopicEmbedder()).derive(GROUP, []) == []


def test_every_turn_of_a_session_is_a_source_of_one_narrative() -> None:
    memory = household(["narrative"])
    narratives = [(g, s) for g, text, s in objects(memory, "narrative").values() if text.startswith("On ")]
    told = [turn for _, sources in narratives for turn in sources]
    assert sorted(told) == [f"t{k}" for k in range(1, 8)]  # each turn once
    memory.close()


def test_the_narrative_design_needs_an_embedder() -> None:
    (deriver,) = make_derivers(["narrative"])
    with pytest.raises(InputError, match="'narrative' needs an embedder"):
        deriver.derive(GROUP, [stored(1, "ana", "Hello.")])
    with pytest.raises(ValueError):
        NarrativeDeriver(TopicEmbedder(), max_turns=0)


def test_deleting_a_secret_leaves_no_trace() -> None:
    check_closure("narrative")


def test_batch_size_changes_no_narrative(monkeypatch) -> None:
    check_batch_size_invariance("narrative", monkeypatch)


def test_recall_by_design_returns_only_narratives() -> None:
    check_recall_by_design("narrative")
