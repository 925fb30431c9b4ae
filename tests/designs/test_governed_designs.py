"""Derived objects carry their sources' labels: a summary line or an extracted fact
about a patient's medication is as protected as the turn it came from."""

from __future__ import annotations

import pytest

from govmem import Turn
from small_clinic import small_clinic

DERIVED = ["summary", "narrative", "fact"]
TURNS = [
    Turn(
        "t1", "ada", "My medication is apixaban 5 mg twice daily.", "c", "2026-03-09T09:00", session_id="s1"
    ),
    Turn("t2", "lee", "Ada, your dose of apixaban stays the same.", "c", "2026-03-09T09:05", session_id="s1"),
    Turn("t3", "rex", "Ada's appointment is on Tuesday at 9:30.", "c", "2026-03-09T09:10", session_id="s1"),
]


@pytest.fixture(scope="module")
def clinic():
    memory = small_clinic(TURNS, designs=["turn", *DERIVED])
    yield memory
    memory.close()


@pytest.mark.parametrize("design", DERIVED)
def test_derived_objects_reach_only_those_who_may_read_their_sources(clinic, design: str) -> None:
    stored = [o.text for o in clinic.store.get_objects(range(1, 1000)).values() if o.kind == design]
    assert any("apixaban" in text for text in stored)  # the medication reached the design

    treating = [item.text for item in clinic.export("lee", design=design)]
    assert any("apixaban" in text for text in treating)  # her clinician reads it there
    for outsider in ("fay", "kit", "rex"):
        seen = [item.text for item in clinic.export(outsider, design=design)]
        assert not any("apixaban" in text for text in seen), outsider
        answer = clinic.recall(outsider, "which medication does Ada take?", k=10, design=design)
        assert not any("apixaban" in item.text for item in answer.items), outsider
