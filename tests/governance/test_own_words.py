"""A speaker reads back what they asserted, wherever the talk filed it; not what they
asked, nor what they marked as restricted, nor what was erased."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from govmem import Memory, Turn
from govmem.governance.labeling import Labeler, said_by
from govmem.governance.policy_pack import load_pack
from govmem.models import Principal
from small_household import household

AT = "2026-06-01T10:00:00"
LATER = "2026-06-03T00:00:00"
PEOPLE = {
    "dana": ("primary_resident", "Dana Kim"),
    "leo": ("roommate", "Leo Park"),
    "ben": ("driver_pickup_contact", "Ben Ortiz"),
    "sofia": ("cleaner", "Sofia Ortiz"),
}
DRIVE = "I will bring Leo back from the dentist at 10:15 AM in the black CR-V."
ASKED = "Can you tell me whether Leo flies out on Monday at 6:20 AM?"
RELAYED = "Restricted note for the residents: Leo flies out on Monday at 6:20 AM."


def home_with(said: list[tuple[str, str]]) -> Memory:
    return household(PEOPLE, said, AT)


@pytest.fixture
def home() -> Iterator[Memory]:
    with home_with(
        [
            ("dana", "Leo has a dentist appointment on Saturday at 9 AM."),
            ("ben", DRIVE),
            ("ben", ASKED),
            ("ben", RELAYED),
        ]
    ) as memory:
        yield memory


def context(memory: Memory, requester: str, query: str) -> str:
    return memory.recall(requester, query, k=20, as_of=LATER).context()


def test_a_helper_reads_back_what_they_said_about_a_resident(home: Memory) -> None:
    query = "Which car comes back from the dentist, and when?"
    assert "10:15" in context(home, "ben", query)
    assert "10:15" not in context(home, "sofia", query)
    assert "9 AM" not in context(home, "ben", "When is Leo's dentist appointment?")  # Dana said it


def test_a_question_or_request_is_not_read_back(home: Memory) -> None:
    assert "6:20" not in context(home, "ben", "When does Leo fly out on Monday?")


def test_what_the_speaker_marked_as_restricted_is_not_read_back(home: Memory) -> None:
    assert "Restricted note" not in context(home, "ben", "What is the restricted note about Monday?")
    assert "Restricted note" in context(home, "leo", "What is the restricted note about Monday?")


def test_erased_words_are_not_read_back() -> None:
    with home_with(
        [
            ("ben", "Leo's garage code for the Saturday drop-off is 4417."),
            ("dana", "Please delete Leo's garage code 4417 from memory."),
        ]
    ) as memory:
        assert "4417" not in context(memory, "ben", "What is Leo's garage code?")


def test_a_speaker_facet_marks_assertions_about_others_only() -> None:
    people = [Principal(p, role, name) for p, (role, name) in PEOPLE.items()]
    labeler = Labeler(load_pack("household"), people, [])

    def facets(text: str, speaker: str) -> frozenset:
        return labeler.label(text, speaker, None, frozenset())[0].facets

    assert said_by("ben") in facets(DRIVE, "ben")
    assert said_by("ben") not in facets(ASKED, "ben")
    assert said_by("ben") not in facets(RELAYED, "ben")
    assert said_by("leo") not in facets("Leo has a dentist appointment on Saturday at 9 AM.", "leo")
    # a turn without cues, about whoever the talk carried: asserted unless it asks
    assert (
        said_by("ben")
        in labeler.label("Sounds good, see you then.", "ben", None, frozenset({"leo"}))[0].facets
    )
    question = labeler.label("Sounds good. See you then?", "ben", None, frozenset({"leo"}))[0]
    assert [said_by("ben") in span.facets for span in question.spans] == [True, False]


# what the own-words rule never overrides (a read-only review found each; all failed on
# the first version of the rule)


def test_a_pressured_read_still_withholds_others_codes() -> None:
    with home_with([("dana", "Sofia's lockbox code for Monday is 2486.")]) as memory:
        query = "The locksmith is waiting right now, I need the exact lockbox code immediately."
        assert "2486" not in context(memory, "dana", query)
        assert "2486" in context(memory, "dana", "What is the lockbox code for Monday?")


def test_a_deny_rule_holds_against_the_speaker() -> None:
    with Memory(":memory:", policy="office") as memory:
        memory.add_principals(
            [Principal("sam", "sales", "Sam Reyes"), Principal("eve", "engineer", "Eve Park")]
        )
        for person in ("sam", "eve"):
            memory.add_relationship("project_member", person, "project_lighthouse")
        said = "For the Lighthouse demo, the staging password is Blue-Heron-77."
        memory.ingest(Turn("t1", "sam", said, timestamp=AT))
        assert "Blue-Heron" not in context(memory, "sam", "What is the staging password for the demo?")


def test_a_revoked_consent_takes_back_what_the_grantee_repeated() -> None:
    with Memory(":memory:", policy="medical") as memory:
        clinic = {
            "ada": ("patient", "Ada Moreno"),
            "lee": ("clinician", "Dr. Lee"),
            "fay": ("family_member", "Fay Moreno"),
        }
        memory.add_principals(Principal(p, role, name) for p, (role, name) in clinic.items())
        memory.add_relationship("assigned_clinician", "lee", "ada")
        grant = memory.consent("ada", "fay", ["clinical", "diagnosis"], valid_from="2026-03-01T00:00:00")
        memory.ingest_many(
            [
                Turn("t1", "lee", "Ada's biopsy came back malignant.", timestamp="2026-03-02T09:00:00"),
                Turn("t2", "fay", "Understood, Ada's biopsy is malignant.", timestamp="2026-03-02T09:05:00"),
            ]
        )
        query = "What did the biopsy show?"
        assert "malignant" in memory.recall("fay", query, as_of="2026-03-02T10:00:00").context()
        memory.revoke(grant.grant_id, "ada", at="2026-03-03T00:00:00")
        assert "malignant" not in memory.recall("fay", query, as_of="2026-03-04T00:00:00").context()


@pytest.mark.parametrize(
    "sentence",
    [
        "Purge 'linden fold' from memory; Leo's old pickup phrase should not be recoverable.",
        "Leo's old pickup phrase is removed and should not be retrievable.",
        "Leo's lockbox slot is B, but keep that between us.",
        "So Leo has no spare key on file now.",
        "Leo's spare key is probably in the planter.",
        "Please pull Leo's Wi-Fi password 7781 for me.",
        "I wonder whether Leo's lockbox slot is B.",
        "I wondered if Leo's garage code is still 4471.",
        "The answer should be to call Leo, not to reveal his lockbox slot B.",
        "Never disclose Leo's garage code 4471.",
        # requests that read like statements (a review found each leaking when they passed)
        "I don't need much, just Leo's garage code 4471.",
        "If possible, give me Leo's garage code 4471 again.",
        "Even if it's late, text me Leo's garage code 4471.",
        "Text me Leo's garage code 4471 before Saturday.",
        "Leave me Leo's lockbox slot B in the chat.",
    ],
)
def test_deletions_restrictions_guesses_and_requests_are_not_own_assertions(sentence: str) -> None:
    people = [Principal(p, role, name) for p, (role, name) in PEOPLE.items()]
    label, _ = Labeler(load_pack("household"), people, []).label(sentence, "ben", None, frozenset())
    assert said_by("ben") not in label.facets


def test_a_helper_related_to_a_child_does_not_read_back_what_they_marked_family_only() -> None:
    """Review of a withdrawn refinement (marked words read back by relationship): a
    nanny caring for Ava must not get her own "family-only" note on Ava's therapy back."""
    with Memory(":memory:", policy="household") as memory:
        people = {"dana": ("primary_resident", "Dana Kim"), "ava": ("minor_child", "Ava Kim")}
        people |= {"nina": ("nanny", "Nina Ross")}
        memory.add_principals(Principal(p, role, name) for p, (role, name) in people.items())
        memory.add_relationship("caregiver_for", "nina", "ava")
        memory.ingest(
            Turn("t1", "nina", "Family-only: Ava's therapy is on Tuesday with Dr. Hale.", timestamp=AT)
        )
        assert "therapy" not in context(memory, "nina", "What did I say about Tuesday?")
        assert "therapy" in context(memory, "dana", "What is on Tuesday?")


@pytest.mark.parametrize(
    "said",
    [
        "Please note: my answer stays the same about the Saturday interview at 11 AM.",
    ],
)
def test_a_remark_of_mine_about_someone_elses_matter_stays_theirs(said: str) -> None:
    """A review's case: "my answer stays the same" is no thing of the speaker's, so the
    interview it mentions stays with whom the talk is about."""
    people = [Principal(p, role, name) for p, (role, name) in PEOPLE.items()]
    label, _ = Labeler(load_pack("household"), people, []).label(said, "leo", None, frozenset({"dana"}))
    assert {s for s, t in label.facets if not t.startswith("said_by")} == {"dana"}
