"""A campus talks about a private case and a public programme of nearly the same name:
what a sentence says it is (private, public) and what it sets itself apart from decide
whose it is, not whoever was named last."""

from __future__ import annotations

import pytest

from govmem import Memory, Turn
from govmem.governance.labeling import SAID_BY, Labeler
from govmem.governance.policy_pack import load_pack
from govmem.models import Principal, Relationship

CASE, PROGRAMME = "monarch_nomination", "program_monarch_mentors"
PEOPLE = [
    Principal("ella", "student", "Ella Brooks"),
    Principal("owen", "student", "Owen Price"),
    Principal("mira", "professor", "Mira Kapoor"),
    Principal("chloe", "ta", "Chloe Wu"),
    Principal("clara", "financial_aid", "Clara Diaz"),
]
RELATIONSHIPS = [
    Relationship("nomination_case_subject", "ella", CASE),
    Relationship("faculty_chair", "mira", "ella"),
    Relationship("program_member", "owen", PROGRAMME),
    Relationship("teaching_staff", "chloe", PROGRAMME),
    Relationship("financial_aid_case_owner", "clara", "ella"),
]


@pytest.fixture(scope="module")
def campus() -> Labeler:
    return Labeler(load_pack("education"), PEOPLE, RELATIONSHIPS)


def labelled(labeler: Labeler, text: str, speaker: str, previous: set[str]) -> list[frozenset]:
    label, _ = labeler.label(text, speaker, None, frozenset(previous))
    return [frozenset(f for f in span.facets if not f[1].startswith(SAID_BY)) for span in label.spans]


def subjects(
    labeler: Labeler, text: str, speaker: str = "mira", previous: set[str] = frozenset()
) -> list[set]:
    return [{s for s, _ in facets} for facets in labelled(labeler, text, speaker, previous)]


def test_a_resource_in_a_contrast_aside_is_not_what_the_sentence_is_about(campus: Labeler) -> None:
    text = "Finance note: the active amount is 3,740 USD, distinct from the Monarch Mentors line."
    assert subjects(campus, text, previous={"ella"}) == [{"ella"}]
    text = "The amount is 3,740 USD and the Monarch Mentors line is 3,745 USD."
    assert subjects(campus, text) == [{PROGRAMME}]


def test_a_person_in_a_contrast_aside_stays_a_subject(campus: Labeler) -> None:
    text = "The Monarch Mentors grant is 2,915 USD, separate from the 2,910 USD award Ella was given."
    assert subjects(campus, text) == [{PROGRAMME, "ella"}]
    text = "Owen's aid was cut to 1,200 USD, whereas Ella kept her full 3,000 USD award."
    assert subjects(campus, text) == [{"owen", "ella"}]


def test_a_sentence_named_only_in_a_contrast_keeps_that_name_when_nothing_else_is_known(
    campus: Labeler,
) -> None:
    text = "The amount is 3,740 USD, not to be confused with Monarch Mentors."
    assert subjects(campus, text) == [{PROGRAMME}]


def test_an_unnamed_sentence_calling_itself_public_is_the_programmes(campus: Labeler) -> None:
    """Owen spoke last, but "Current public date remains December 6" is not his."""
    text = "Current public date remains December 6, 2026."
    assert subjects(campus, text, previous={"owen"}) == [{PROGRAMME}]


def test_the_figures_of_a_public_sentence_are_published(campus: Labeler) -> None:
    assert labelled(campus, "The current public materials line is 3,825 USD.", "chloe", set()) == [
        {(PROGRAMME, "general")}
    ]
    text = "The exact internal wording remains in force and should not be treated as public."
    assert subjects(campus, text, previous={PROGRAMME}) == [{CASE}]


def test_an_unnamed_sentence_calling_itself_private_is_the_case_of_whom_the_talk_is_about(
    campus: Labeler,
) -> None:
    text = "Current private tuple: nomination review, November 24, 2,880 USD, Committee Room 241."
    assert subjects(campus, text, previous={PROGRAMME}) == [{CASE}]
    assert subjects(campus, text, previous={"ella"}) == [{CASE}]
    assert subjects(campus, text, previous={"owen"}) == [
        {"owen", CASE}
    ]  # Owen has no case: added, never instead


def test_a_sentence_referring_to_a_person_keeps_them(campus: Labeler) -> None:
    text = "Please keep her 2,140 USD emergency grant out of any public channel."
    assert subjects(campus, text, speaker="clara", previous={"ella"}) == [{"ella"}]
    text = "His private integrity hearing is on May 3 in Dean's Office 410."
    assert subjects(campus, text, speaker="clara", previous={"owen"}) == [{"owen"}]
    text = "I have a private counselling appointment on Tuesday at 3 PM about my anxiety."
    assert subjects(campus, text, speaker="owen") == [{"owen"}]


def test_a_personal_detail_naming_only_a_programme_is_also_the_persons(campus: Labeler) -> None:
    text = "Her Monarch Mentors stipend was reduced to 1,480 USD this term."
    assert subjects(campus, text, speaker="clara", previous={"ella"}) == [{PROGRAMME, "ella"}]
    text = "Please keep my current private amount 3,690 USD out of the public Monarch Mentors thread."
    assert subjects(campus, text, speaker="ella") == [{PROGRAMME, "ella"}]


def test_private_beside_a_named_programme_adds_the_case(campus: Labeler) -> None:
    text = "The Monarch Mentors mixer is on Friday at 5 PM in the private dining room."
    assert subjects(campus, text, speaker="chloe") == [{PROGRAMME, CASE}]


def test_private_beside_a_programme_called_public_is_the_cases(campus: Labeler) -> None:
    text = "Current private amount is 2,910 USD while the public Monarch Mentors line is 2,915 USD."
    assert subjects(campus, text) == [{CASE}]


def test_private_and_public_in_one_sentence_is_private(campus: Labeler) -> None:
    assert subjects(campus, "Do not merge the private room 243 with the public room 242.") == [{CASE}]


def test_with_two_cases_private_is_the_case_of_whom_the_talk_is_about() -> None:
    labeler = Labeler(
        load_pack("education"),
        [*PEOPLE, Principal("sam", "student", "Sam Ortiz")],
        [*RELATIONSHIPS, Relationship("appeal_case_subject", "sam", "sam_appeal")],
    )
    text = "Current private amount is 2,880 USD."
    assert subjects(labeler, text, previous={"ella"}) == [{CASE}]
    assert subjects(labeler, text, previous={"sam"}) == [{"sam_appeal"}]
    assert subjects(labeler, text, previous={PROGRAMME}) == [{PROGRAMME}]  # whose, is not known


def test_a_word_inside_a_longer_word_does_not_qualify(campus: Labeler) -> None:
    text = "The wording stays as it was though the public-safe wording is portfolio review."
    assert subjects(campus, text, previous={"owen"}) == [{"owen"}]


def test_a_qualifying_word_does_not_pass_its_subject_to_the_next_sentence(campus: Labeler) -> None:
    label, after = campus.label(
        "Current public showcase is on Friday. The committee note is pending.",
        "mira",
        None,
        frozenset({"ella"}),
    )
    assert after == {"ella"}
    assert [{s for s, t in span.facets if not t.startswith(SAID_BY)} for span in label.spans] == [
        {PROGRAMME},
        {"ella"},
    ]


def test_a_personal_detail_carried_from_a_programme_stays_with_it(campus: Labeler) -> None:
    """Whose amount it is, is not known: it stays the programme's, which no one reads."""
    text = "Current amount remains 3,320 USD."
    assert labelled(campus, text, "mira", {PROGRAMME}) == [{(PROGRAMME, "financial_aid")}]


def test_public_said_in_denial_publishes_nothing(campus: Labeler) -> None:
    for text in (
        "The revised 1,480 USD hardship top-up is not yet public.",
        "The 2,140 USD emergency grant stays out of any public channel.",
        "The public Monarch Mentors line is 2,915 USD, unlike the 2,910 USD award.",
    ):
        facets = labelled(campus, text, "clara", {"ella"})[0]
        assert (
            ("ella", "financial_aid") in facets
            or (CASE, "financial_aid") in facets
            or (
                PROGRAMME,
                "financial_aid",
            )
            in facets
        ), text


def test_packs_without_qualified_subjects_carry_the_last_name() -> None:
    labeler = Labeler(load_pack("office"), [Principal("bob", "engineer", "Bob Tanaka")], [])
    label, _ = labeler.label(
        "The private budget is 40,000 USD.", "bob", None, frozenset({"project_lighthouse"})
    )
    assert {s for span in label.spans for s, t in span.facets if not t.startswith(SAID_BY)} == {
        "project_lighthouse"
    }


def test_the_words_of_a_safe_label_are_not_topics(campus: Labeler) -> None:
    text = "Current note: review date August 22, safe label single-room accommodation review, hall 731."
    assert {t for _, t in labelled(campus, text, "mira", {"ella"})[0]} == {"scheduling", "location"}
    assert "wellbeing" in campus.tags_of("The single-room accommodation review is on August 22.")


def recall_text(memory: Memory, requester: str, query: str) -> str:
    return " ".join(item.text for item in memory.recall(requester, query).items)


def test_the_case_team_reads_a_private_amount_set_apart_from_the_public_line() -> None:
    memory = Memory(":memory:", policy="education")
    memory.add_principals(PEOPLE)
    memory.add_relationships(RELATIONSHIPS)
    memory.ingest_many(
        [
            Turn("t1", "chloe", "Monarch Mentors showcase is on December 6 in Commons Room 242.", "e1"),
            Turn(
                "t2", "mira", "The private amount is 2,910 USD, distinct from the Monarch Mentors line.", "e1"
            ),
            Turn("t3", "chloe", "The public materials line is 2,915 USD.", "e1"),
            Turn("t4", "mira", "Her Monarch Mentors stipend was reduced to 1,480 USD.", "e1"),
        ]
    )
    assert "2,910 USD" in recall_text(memory, "clara", "What is the Monarch Nomination amount?")
    for outsider in ("chloe", "owen"):
        seen = recall_text(memory, outsider, "What is the amount for Monarch Mentors?")
        assert "2,910" not in seen
        assert "1,480" not in seen
        assert "2,915 USD" in seen  # a public programme's published line


def test_a_personal_detail_carried_from_a_person_without_a_case_is_also_the_cases(campus: Labeler) -> None:
    """Owen (a programme member) was named long ago: an unnamed amount is not his alone."""
    text = "Updated support summary: field-study review, amount 3,330 USD, desk 15."
    assert subjects(campus, text, previous={"owen"}) == [{"owen", CASE}]
    assert subjects(campus, text, previous={"ella"}) == [{"ella"}]  # hers: her case's already
    assert subjects(campus, "Current showcase remains December 6.", previous={"owen"}) == [{"owen"}]
