"""A covering clinician's scope in words ("weekend anticoagulation and bleeding questions
only") narrows what the cover reads, through the medical pack's scope words."""

from __future__ import annotations

from govmem import Principal, Turn
from small_clinic import small_clinic

TURNS = [
    Turn("t1", "lee", "Ada stays on apixaban 2.5 mg twice daily.", timestamp="2026-01-16T09:00:00"),
    Turn("t2", "lee", "Confidential note: Ada disclosed gambling debt.", timestamp="2026-01-16T09:05:00"),
]
DOC = Principal("doc", "clinician", "Dr. Dumas")


def cover_reads(scope: str) -> str:
    with small_clinic(TURNS, also=[DOC]) as memory:
        memory.add_relationship("covering_clinician", "doc", "ada", scope=scope)
        return memory.recall("doc", "Ada apixaban dose and the confidential note", k=10).context()


def test_an_anticoagulation_cover_reads_medicines_not_a_confidential_note() -> None:
    context = cover_reads("weekend anticoagulation and bleeding questions only")
    assert "apixaban" in context
    assert "gambling" not in context


def test_an_insulin_dose_cover_reads_medicines_only() -> None:
    context = cover_reads("overnight insulin-dose questions only through Sunday")
    assert "apixaban" in context
    assert "gambling" not in context


def test_a_cover_without_scope_words_reads_the_care_teams_topics() -> None:
    assert "gambling" in cover_reads("weekend coverage")
