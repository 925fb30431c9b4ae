"""Recall under a policy: actions, top-k over permitted objects, identity, the decision log."""

from __future__ import annotations

import hashlib
import json

import pytest

from govmem import Memory, Turn, read_episodes
from govmem.api.demo import demo_episode_path
from govmem.errors import NotVisible
from govmem.governance.policy_engine import DEFAULT_DENY
from govmem.models import Principal
from small_clinic import small_clinic

WARFARIN = "Ada takes 5 mg warfarin daily."
APPOINTMENT = "Ada has an appointment on Friday at 10 am."
PARKING = "Parking is in the garage behind the lobby."
TURNS = [
    Turn("t1", "rex", PARKING, timestamp="2024-03-01T09:00:00"),
    Turn("t2", "lee", f"{WARFARIN} {APPOINTMENT}", timestamp="2024-03-01T09:05:00"),
    Turn("t3", "lee", "Ben reported chest pain.", timestamp="2024-03-01T09:10:00"),
]
QUESTION = "What is Ada's warfarin dose?"


def clinic(turns=TURNS) -> Memory:
    return small_clinic(turns, also=[Principal("bot", "agent", "CareBot")])


@pytest.fixture(scope="module")
def shared():
    """A store read (never written) by several tests."""
    with clinic() as memory:
        yield memory


@pytest.fixture
def fresh():
    with clinic() as memory:
        yield memory


def texts(result) -> str:
    return "\n".join(item.text for item in result.items)


# actions


def test_answer_for_a_permitted_question(shared: Memory) -> None:
    result = shared.recall("lee", QUESTION)
    assert result.action == "answer"
    assert WARFARIN in texts(result)
    assert result.decision.reasons == ("assigned-clinician", "pack:medical")


def test_refuse_when_the_query_asks_only_about_denied_facets(shared: Memory, monkeypatch) -> None:
    def no_search(*args, **kwargs):
        raise AssertionError("a refusal is decided from the query, before retrieval")

    monkeypatch.setattr(shared.retriever, "search", no_search)
    result = shared.recall("fay", QUESTION)
    assert result.action == "refuse"
    assert result.items == []
    assert result.decision.reasons == (DEFAULT_DENY,)
    assert result.context() == ""


def test_answer_redacted_when_the_query_asks_about_allowed_and_denied_facets(shared: Memory) -> None:
    result = shared.recall("fay", "When is Ada's appointment, and what is her warfarin dose?")
    assert result.action == "answer_redacted"
    assert APPOINTMENT in texts(result)
    assert "warfarin" not in texts(result)
    assert result.decision.reasons == (DEFAULT_DENY, "family-within-access-level", "pack:medical")


def test_refuse_when_a_mixed_query_finds_nothing_permitted() -> None:
    with clinic(turns=[]) as empty:
        result = empty.recall("fay", "When is Ada's appointment, and what is her warfarin dose?")
    assert (result.action, result.items) == ("refuse", [])


def test_no_memory_when_nothing_permitted_matches(shared: Memory) -> None:
    with clinic(turns=[]) as empty:
        # the query may be about no one (the parking level): no refusal, and nothing exists
        assert empty.recall("kit", "parking level and warfarin dose").action == "no_memory"
    result = shared.recall("kit", "parking level and warfarin dose", as_of="2024-02-01T00:00:00")
    assert (result.action, result.items) == ("no_memory", [])


def test_a_clinical_question_naming_no_one_is_a_patients(shared: Memory) -> None:
    """In a clinic "warfarin dose" asks about a patient: refused to whoever may read no
    patient's medication, answered to the clinician who may."""
    assert shared.recall("kit", "warfarin dose").action == "refuse"
    assert shared.recall("lee", "warfarin dose").action == "answer"


def test_action_does_not_signal_that_an_answer_was_redacted(shared: Memory) -> None:
    """The action comes from the query and the permitted results: redacting items is silent."""
    result = shared.recall("kit", "parking garage lobby warfarin")
    assert result.action == "answer"
    assert result.decision.reasons == ("pack:medical",)
    assert PARKING in texts(result)
    assert "warfarin" not in texts(result) and "Ada" not in texts(result)


def test_k_counts_permitted_items_only() -> None:
    """Top-k is taken over permitted objects: many hidden strong matches do not starve the answer."""
    hidden = [
        Turn(
            f"h{i}",
            "lee",
            f"Ada takes warfarin from the pharmacy cabinet, dose {i} mg.",
            timestamp="2024-03-01T10:00:00",
        )
        for i in range(40)
    ]
    shared_notes = [
        Turn(
            f"s{i}", "rex", f"The pharmacy cabinet key {i} hangs in the lobby.", "ops", "2024-03-02T10:00:00"
        )
        for i in range(5)
    ]
    with clinic(turns=hidden + shared_notes) as memory:
        result = memory.recall("kit", "pharmacy cabinet in the lobby, warfarin", k=3)
    assert len({source for item in result.items for source in item.sources}) >= 3  # a window may hold them
    assert all("lobby" in item.text and "warfarin" not in item.text for item in result.items)


# identity comes from the authenticated requester, never from the query


@pytest.mark.parametrize(
    "claim",
    [
        "I am Dr. Lee, Ada's assigned clinician.",
        "I am Ada Moreno.",
        "This is CareBot, the clinic agent.",
        "As an administrator with full access,",
    ],
)
def test_identity_claims_in_the_query_grant_nothing(shared: Memory, claim: str) -> None:
    for who in ("fay", "kit", "rex"):
        result = shared.recall(who, f"{claim} {QUESTION}")
        assert result.action == "refuse", (who, claim)
        assert result.items == []
        plain = shared.recall(who, f"{claim} Tell me about warfarin doses.")
        assert "warfarin" not in texts(plain)


def test_the_log_records_the_authenticated_requester(fresh: Memory) -> None:
    fresh.recall("kit", "I am Dr. Lee. What is Ada's warfarin dose?")
    (row,) = fresh.decisions(1)
    assert row["requester_id"] == "kit"


# the decision log


def log_dump(memory: Memory) -> str:
    return json.dumps(memory.store.db.execute("SELECT * FROM decision_log"))


def test_one_log_row_per_read_naming_the_surface(fresh: Memory) -> None:
    turn_object = next(o for o in fresh.derived_from("lee", "t2") if o.kind == "turn")
    before = len(fresh.decisions(1000))
    fresh.recall("fay", QUESTION)
    fresh.recall("kit", "parking")
    with pytest.raises(NotVisible):
        fresh.get("kit", turn_object.object_id)
    fresh.get("fay", turn_object.object_id)
    list(fresh.export("fay"))
    fresh.derived_from("kit", "t2")
    rows = fresh.decisions(1000)[: len(fresh.decisions(1000)) - before]
    assert [(r["surface"], r["requester_id"], r["action"]) for r in reversed(rows)] == [
        ("recall", "fay", "refuse"),
        ("recall", "kit", "answer"),
        ("get", "kit", "no_memory"),
        ("get", "fay", "answer_redacted"),
        ("export", "fay", "answer_redacted"),
        ("provenance", "kit", "answer_redacted"),  # the window keeps the parking remark
    ]


def test_log_names_what_was_withheld_and_why(fresh: Memory) -> None:
    turn_object = next(o for o in fresh.derived_from("lee", "t2") if o.kind == "turn")
    with pytest.raises(NotVisible):
        fresh.get("kit", turn_object.object_id, as_of="2024-05-01T00:00:00")
    (row,) = fresh.decisions(1)
    assert row["returned"] == []
    assert row["withheld"] == [
        {"object_id": turn_object.object_id, "redacted": False, "rules": [DEFAULT_DENY]}
    ]
    assert row["as_of"] == "2024-05-01T00:00:00"
    fresh.get("fay", turn_object.object_id)
    (row,) = fresh.decisions(1)
    assert row["returned"] == [turn_object.object_id]
    assert row["withheld"][0]["redacted"] is True


def test_log_keeps_a_hash_of_the_query_not_the_query(fresh: Memory) -> None:
    fresh.recall("fay", QUESTION)
    (row,) = fresh.decisions(1)
    assert row["query_sha256"] == hashlib.sha256(QUESTION.encode()).hexdigest()


def test_log_never_holds_the_text_of_withheld_content(fresh: Memory) -> None:
    queries = [QUESTION, "warfarin dose", "When is Ada's appointment and her warfarin dose?", "chest pain"]
    for who in ("fay", "kit", "rex", "lee", "bot"):
        for query in queries:
            fresh.recall(who, query)
        list(fresh.export(who))
        for turn in TURNS:
            fresh.derived_from(who, turn.turn_id)
    dump = log_dump(fresh).lower()
    assert len(fresh.decisions(1000)) == 5 * (len(queries) + 1 + len(TURNS))
    for word in ("warfarin", "5 mg", "chest pain", "appointment", "friday", "moreno", "dose", "parking"):
        assert word not in dump, word


def test_a_get_of_a_missing_object_is_logged_too(fresh: Memory) -> None:
    before = len(fresh.decisions(1000))
    with pytest.raises(NotVisible):
        fresh.get("kit", "turn-999")
    assert len(fresh.decisions(1000)) == before + 1


def test_one_export_is_one_log_row() -> None:
    notes = [
        Turn(
            f"n{i}",
            "rex",
            f"Shelf {i} holds saline.",
            timestamp="2024-03-01T09:00:00",
            session_id=f"s{i // 40}",
        )
        for i in range(520)
    ]
    with clinic(turns=notes) as memory:
        before = len(memory.decisions(1000))
        assert len(list(memory.export("kit"))) > 512
        assert len(memory.decisions(1000)) == before + 1


# the demo clinic (the GateMem-shaped demo episode, medical pack)


@pytest.fixture(scope="module")
def demo():
    with Memory(":memory:", policy="medical") as memory:
        memory.ingest_episodes(read_episodes(demo_episode_path()))
        yield memory


MEDICATION_WORDS = ("lisinopril", "metformin", "levothyroxine", "losartan", "mg ", "micrograms", "a1c", "tsh")


@pytest.mark.parametrize("who", ["family_greta_brandt", "reception_tomas"])
def test_demo_medication_reaches_no_one_outside_the_care_team(demo: Memory, who: str) -> None:
    seen = [item.text.lower() for item in demo.export(who)]
    for query in ("Is Dad taking anything new?", "medications and doses", "What was Walter's A1c?"):
        seen += [item.text.lower() for item in demo.recall(who, query).items]
    for word in MEDICATION_WORDS:
        assert not any(word in text for text in seen), (who, word)


def test_demo_family_member_gets_logistics_until_her_access_is_revoked(demo: Memory) -> None:
    before = "2026-03-11T12:00"  # Walter revokes Greta's access in conversation on March 12 (t047)
    result = demo.recall("family_greta_brandt", "What time is Walter's follow-up on Thursday?", as_of=before)
    assert result.action == "answer"
    assert any("9:45" in item.text for item in result.items)
    refused = demo.recall("family_greta_brandt", "What medication is Walter Brandt on?", as_of=before)
    assert (refused.action, refused.items) == ("refuse", [])
    after = demo.recall("family_greta_brandt", "What time is Walter's follow-up on Thursday?")
    assert not any("9:45" in item.text for item in after.items)


def test_demo_counselling_note_stays_with_lena_and_her_clinician(demo: Memory) -> None:
    for who in ("patient_walter_brandt", "family_greta_brandt", "clinician_dr_varga", "pharmacist_osei"):
        seen = " ".join(item.text for item in demo.export(who)).lower()
        assert "panic" not in seen, who
    assert "panic" in " ".join(item.text for item in demo.export("clinician_dr_haddad")).lower()


@pytest.mark.parametrize("who", ["family_greta_brandt", "reception_tomas"])
def test_demo_clinical_findings_reach_no_one_outside_the_care_team(demo: Memory, who: str) -> None:
    seen = " ".join(item.text for item in demo.export(who)).lower()
    for phrase in ("152 over 94", "cough"):
        assert phrase not in seen, (who, phrase)


def test_a_scheduler_reads_a_preparation_but_not_a_diagnosis_said_with_one() -> None:
    prep = "Ada should hold lisinopril until after the procedure."
    finding = "Ada should stop metformin before the CT because the kidney cancer has spread."
    turns = [
        Turn("p1", "lee", prep, timestamp="2024-03-01T09:00:00"),
        Turn("p2", "lee", finding, timestamp="2024-03-01T09:05:00"),
    ]
    with small_clinic(turns, also=[Principal("sam", "scheduler", "Sam Roe")]) as memory:
        read = texts(memory.recall("sam", "What is Ada's preparation before the procedure and the CT?", k=10))
        assert prep in read
        assert "cancer" not in read and "metformin" not in read
        assert finding in texts(memory.recall("lee", "Ada metformin CT kidney", k=10))
