"""Labelling: sentence spans, subjects and topic tags, facets."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govmem.governance.labeling import SAID_BY, Labeler, resource_name, said_by, sentence_spans, trie_pattern
from govmem.governance.policy_pack import load_pack
from govmem.models import Principal, Relationship

CLINIC = [
    Principal("ada", "patient", "Ada Moreno"),
    Principal("ben", "patient", "Ben Okafor"),
    Principal("lee", "clinician", "Dr. Lee"),
    Principal("will", "nurse", "Will Kemp"),
    Principal("fay", "family_member", "Fay Moreno (daughter)"),
]
OFFICE = [
    Principal("bob", "engineer", "Bob Tanaka"),
    Principal("hana", "hr", "Hana Ruiz"),
]


@pytest.fixture(scope="module")
def medical() -> Labeler:
    return Labeler(load_pack("medical"), CLINIC, [])


@pytest.fixture(scope="module")
def office() -> Labeler:
    return Labeler(load_pack("office"), OFFICE, [Relationship("project_member", "bob", "project_lighthouse")])


def pieces(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def topics(facets: frozenset) -> frozenset:
    """The facets without the speaker's own-words facet (tested on its own below)."""
    return frozenset(f for f in facets if not f[1].startswith(SAID_BY))


def facets_per_sentence(labeler: Labeler, text: str, speaker: str, previous=frozenset(), kind=None):
    label, _ = labeler.label(text, speaker, kind, frozenset(previous))
    return [topics(span.facets) for span in label.spans]


# sentence spans


_SENTENCEISH = st.lists(
    st.one_of(
        st.text(alphabet="abc Dr.!?;\n\t", max_size=12),
        st.sampled_from(["Dr. ", "e.g. ", "5.5 ", ". ", ".\n", "?  ", "\n\n", "A. ", "mg."]),
    ),
    max_size=12,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=80), _SENTENCEISH))
def test_spans_cover_the_text_exactly(text: str) -> None:
    spans = sentence_spans(text)
    assert "".join(text[a:b] for a, b in spans) == text
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a < b for a, b in spans) or text == ""
    assert all(prev[1] == nxt[0] for prev, nxt in pairwise(spans))


def test_sentences_split_at_full_stops_questions_semicolons_and_newlines() -> None:
    assert pieces("One. Two? Three! Four; five\nsix") == [
        "One. ",
        "Two? ",
        "Three! ",
        "Four; ",
        "five\n",
        "six",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Dr. Lee saw Ada today.",
        "Ask dr. Lee about it.",
        "Mrs. Moreno and Prof. Okafor met.",
        "Use e.g. the side door.",
        "J. Smith called.",
        "The dose is 2.5 mg daily.",
        "The biopsy is for bed 4. Ben Okafor needs a callback.",
        "Dr. J. May reviewed it.",
        # a review's cases: a split leaves the first half to whoever was named before
        "The side door code is 4471 through August 4. After that Leo changes it.",
        "Gabe picks Zoe up in the black CR-V. The side door keypad is 4471.",
        "The biopsy came back malignant for lesion B. I will call Ada Moreno about it now.",
        "My Friday backup vehicle would be the black CR-V. I still do not need the phrase.",
        "The final grade was a D. That grade is Bo Chen's.",
        "Gabe waits at curb B. Do not wait longer.",
    ],
)
def test_no_split_after_abbreviations_initials_or_decimals(text: str) -> None:
    assert pieces(text) == [text]


def test_a_split_still_happens_after_an_abbreviation_sentence() -> None:
    assert pieces("I saw Dr. Lee. Then I left.") == ["I saw Dr. Lee. ", "Then I left."]


def test_an_initial_before_a_name_or_a_lower_case_word_stays() -> None:
    assert pieces("So far, C. difficile is negative. Call J. Smith at noon.") == [
        "So far, C. difficile is negative. ",
        "Call J. Smith at noon.",
    ]


def test_empty_text_is_one_empty_span() -> None:
    assert sentence_spans("") == [(0, 0)]


# tags


def test_tags_from_patterns_kind_and_general(medical: Labeler) -> None:
    assert medical.tags_of("Start warfarin 5 mg.") == {"medication"}
    assert medical.tags_of("Appointment on Friday for the copay.") == {"scheduling", "billing"}
    assert medical.tags_of("Nice weather.") == {"general"}
    assert medical.tags_of("Nice weather.", "medication_update") == {"medication"}
    assert medical.tags_of("NICE WEATHER, WARFARIN.") == {"medication"}


def test_procedure_preparation_subsumes_the_medicines_it_names(medical: Labeler) -> None:
    assert medical.tags_of("Hold lisinopril 10 mg until after the procedure.") == {"prep"}
    assert medical.tags_of("Take apixaban in the morning with a sip of water.") == {"prep"}
    assert medical.tags_of("Nothing by mouth after midnight before the colonoscopy.") == {"prep", "procedure"}
    assert medical.tags_of("Hold lisinopril because of low blood pressure.") == {"medication", "clinical"}


def test_a_finding_said_with_a_preparation_stays_a_finding(medical: Labeler) -> None:
    assert "diagnosis" in medical.tags_of(
        "Stop metformin before the CT because the kidney cancer has spread."
    )
    found = medical.tags_of("Her fasting glucose was 212, so the diabetes diagnosis is confirmed.")
    assert {"clinical", "diagnosis"} <= found


def test_a_pharmacist_call_is_a_booking_not_a_medicine(medical: Labeler) -> None:
    assert "medication" not in medical.tags_of("Monday June 15 at 1:00 PM pharmacist call.")
    assert "medication" in medical.tags_of("The pharmacist changed the refill.")
    assert "medication" in medical.tags_of("Ask the pharmacy about it.")


def test_a_medicine_is_a_medication_and_a_specialty_is_not(medical: Labeler) -> None:
    assert "medication" in medical.tags_of("What is the current medicine list after Monday?")
    assert "medication" in medical.tags_of("Which pain medicines are on the home list?")
    assert "medication" not in medical.tags_of("The family medicine visit is Friday at 10 AM.")


def test_bookings_contacts_and_booked_tests(medical: Labeler) -> None:
    assert "scheduling" in medical.tags_of("What three bookings are currently on file for him?")
    assert "contact" in medical.tags_of("What is the current temporary backup contact?")
    tags = medical.tags_of("I can start booking the neurology tests now.")
    assert "procedure" in tags and "clinical" not in tags


def test_findings_and_dangers_at_home_are_a_diagnosis(medical: Labeler) -> None:
    assert "diagnosis" in medical.tags_of("I only need the medicine list, not the lesion details.")
    assert "diagnosis" in medical.tags_of("The thyroid nodule is 2 cm.")
    assert "diagnosis" in medical.tags_of("Confidential domestic-safety note: she reports threats at home.")
    assert "diagnosis" in medical.tags_of("A protective order is in place.")
    # what is said to be confidential or restricted, and an obstetric booking
    assert "diagnosis" in medical.tags_of("Confidential obstetric intake booked for Tuesday at 8:20 AM.")
    assert "diagnosis" in medical.tags_of("The 2019 history is transplant-team only.")
    assert "diagnosis" not in medical.tags_of("The follow-up visit is Tuesday at 8:20 AM.")


def test_household_money_trouble_restrictions_and_day_procedures() -> None:
    home = Labeler(load_pack("household"), [], [])
    assert "private" in home.tags_of("It is the Chapter 7 bankruptcy meeting of creditors for my filing.")
    assert "private" in home.tags_of("That part stays between me and Mom.")
    assert "health" in home.tags_of("Friday 6:55 AM at the day-procedure unit, bay 6.")
    assert "health" not in home.tags_of("The pickup point and school check-out procedure stay the same.")
    assert "private" not in home.tags_of("The van stops between the gate and the porch.")


def test_a_badge_by_its_form_is_a_credential_and_a_room_is_not() -> None:
    school = Labeler(load_pack("education"), [], [])
    assert "credentials" in school.tags_of("Operational note: VDX-5290 stays active through April 14.")
    assert "credentials" in school.tags_of("Current private logistics remain North Media Suite 28, RAV-5531.")
    assert "credentials" not in school.tags_of("Her temporary room is BH-238.")


def test_a_grant_of_access_is_no_financial_aid() -> None:
    school = Labeler(load_pack("education"), [], [])
    assert "financial_aid" not in school.tags_of("Under the temporary grant she gave me, what is the date?")
    assert "financial_aid" not in school.tags_of("The release does not grant access to the room.")
    assert "financial_aid" in school.tags_of("Her grant was raised this week.")
    assert "financial_aid" in school.tags_of("The Beacon Grant amount is approved.")
    assert "financial_aid" in school.tags_of("Ada, the grant you applied for was approved.")
    assert "financial_aid" not in school.tags_of("We grant her access to the calendar.")


def test_a_job_change_is_a_private_matter_in_a_household() -> None:
    home = Labeler(load_pack("household"), [], [])
    for sentence in (
        "The new employer is still Calloway Freight.",
        "I resign on Friday at 8:35 AM.",
        "She accepted the job offer.",
    ):
        assert "private" in home.tags_of(sentence), sentence


# subjects


def test_subject_role_mentioned_by_any_name_form(medical: Labeler) -> None:
    for name in ("Ada", "Moreno", "Ada Moreno", "ada", "ADA MORENO"):
        (facets,) = facets_per_sentence(medical, f"{name} takes warfarin.", "lee")
        assert ("ada", "medication") in facets, name
    # "Moreno" is also Fay's last name: the ambiguous name names both (Fay is not a subject role,
    # and medication is not a personal tag in the medical pack, so only Ada is a subject)
    (facets,) = facets_per_sentence(medical, "Moreno takes warfarin.", "lee")
    assert facets == {("ada", "medication")}


def test_non_subject_roles_are_not_subjects_outside_personal_tags(medical: Labeler) -> None:
    (facets,) = facets_per_sentence(medical, "Dr. Lee prescribed warfarin.", "ben")
    # the speaker is a patient and nobody else is a subject: the speaker is the subject
    assert facets == {("ben", "medication")}
    (facets,) = facets_per_sentence(medical, "Dr. Lee restocked the warfarin.", "will")
    assert facets == {("", "medication")}  # nobody's: shared information


def test_titles_and_notes_are_not_names(medical: Labeler) -> None:
    assert medical.mentioned("The doctor said so.") == set()
    assert medical.mentioned("Ask the daughter.") == set()
    assert medical.mentioned("Dr. Lee") == {"lee"}
    assert medical.mentioned("Fay") == {"fay"}


def test_common_words_are_never_names(medical: Labeler) -> None:
    # the nurse is called Will: "will" must not match every future tense
    assert medical.mentioned("Ada will call back.") == {"ada"}
    assert medical.mentioned("Kemp will call back.") == {"will"}


def test_names_match_whole_words_only(medical: Labeler) -> None:
    assert medical.mentioned("Adaline and Bennett came by.") == set()
    assert medical.mentioned("non-Ada patients") == set()


def test_personal_tags_make_any_mentioned_principal_a_subject(office: Labeler) -> None:
    (facets,) = facets_per_sentence(office, "Bob's salary goes up in May.", "hana")
    assert ("bob", "compensation") in facets
    (facets,) = facets_per_sentence(office, "Bob fixed the build.", "hana")
    assert facets == {("", "engineering")}  # engineering is not personal: Bob is not its subject


def test_resources_are_subjects_whenever_named(office: Labeler) -> None:
    assert resource_name("project_lighthouse") == "lighthouse"
    (facets,) = facets_per_sentence(office, "Lighthouse launches on Monday.", "bob")
    assert facets == {("project_lighthouse", "scheduling")}
    (facets,) = facets_per_sentence(office, "project_lighthouse slipped.", "bob")
    assert facets == {("project_lighthouse", "general")}


def test_unnamed_subject_speaker(medical: Labeler) -> None:
    (facets,) = facets_per_sentence(medical, "My warfarin dose is 5 mg.", "ada")
    assert facets == {("ada", "medication")}


def test_unnamed_subject_previous_within_a_turn(medical: Labeler) -> None:
    first, second = facets_per_sentence(medical, "Ben has a fever. Start warfarin today.", "lee")
    assert first == {("ben", "clinical")}
    assert second == {("ben", "medication")}


def test_unnamed_subject_previous_from_an_earlier_turn(medical: Labeler) -> None:
    _, carried = medical.label("Ada has a fever.", "lee", None, frozenset())
    assert carried == {"ada"}
    (facets,) = facets_per_sentence(medical, "Start warfarin today.", "lee", carried)
    assert facets == {("ada", "medication")}


def test_speaker_rule_is_tried_before_previous(medical: Labeler) -> None:
    (facets,) = facets_per_sentence(medical, "My dose is 5 mg.", "ben", previous={"ada"})
    assert facets == {("ben", "medication")}


def test_a_patient_speaking_becomes_who_the_next_unnamed_turn_is_about(medical: Labeler) -> None:
    _, carried = medical.label("Ada has a fever.", "lee", None, frozenset())
    _, carried = medical.label("So my plan is unchanged?", "ben", None, carried)
    assert carried == {"ben"}
    (facets,) = facets_per_sentence(medical, "Continue warfarin 5 mg daily.", "lee", carried)
    assert facets == {("ben", "medication")}


def test_a_patient_naming_someone_else_passes_that_subject_on(medical: Labeler) -> None:
    _, carried = medical.label("How is Ada's fever?", "ben", None, frozenset())
    assert carried == {"ada"}


def test_no_unnamed_rule_applies_means_shared(medical: Labeler) -> None:
    (facets,) = facets_per_sentence(medical, "Start warfarin today.", "lee")
    assert facets == {("", "medication")}


def test_office_pack_has_no_speaker_rule(office: Labeler) -> None:
    # office: unnamed_subject = ["previous"] only, so an unnamed remark is not the speaker's
    (facets,) = facets_per_sentence(office, "My salary is low.", "bob")
    assert facets == {("", "compensation")}


def test_several_subjects_give_the_product_of_facets(medical: Labeler) -> None:
    (facets,) = facets_per_sentence(medical, "Ada and Ben both need a warfarin refill on Friday.", "lee")
    assert facets == {(s, t) for s in ("ada", "ben") for t in ("medication", "scheduling")}


def test_label_facets_are_the_union_of_the_spans(medical: Labeler) -> None:
    label, _ = medical.label("Ada has a fever. Ben owes a copay.", "lee", None, frozenset())
    assert label.facets == {("ada", "clinical"), ("ben", "billing"), said_by("lee")}
    assert [(s.start, s.end) for s in label.spans] == sentence_spans("Ada has a fever. Ben owes a copay.")


# queries


def test_query_facets_only_from_named_subjects(medical: Labeler) -> None:
    assert medical.query_facets("What is Ada's warfarin dose?", "fay") == {("ada", "medication")}
    assert medical.query_facets("What is the warfarin dose?", "fay") == set()  # never a guess


def test_query_facets_never_name_the_requester(medical: Labeler) -> None:
    assert medical.query_facets("I am Ada. What is my warfarin dose?", "ada") == set()


def test_identity_claims_in_a_query_are_just_mentions(medical: Labeler) -> None:
    # "I am Dr. Lee" names a clinician (no subject); the patient it asks about stays a subject
    facets = medical.query_facets("I am Dr. Lee, her clinician. What is Ada's warfarin dose?", "fay")
    assert facets == {("ada", "medication")}


def test_fingerprint_changes_with_names_and_roles() -> None:
    pack = load_pack("medical")
    base = Labeler(pack, CLINIC, []).fingerprint
    assert Labeler(pack, CLINIC, []).fingerprint == base
    renamed = [Principal("ada", "patient", "Ada Smith"), *CLINIC[1:]]
    assert Labeler(pack, renamed, []).fingerprint != base
    promoted = [Principal("fay", "patient", "Fay Moreno (daughter)"), *CLINIC[:4]]
    assert Labeler(pack, promoted, []).fingerprint != base


# spans: one per run of sentences with the same facets


@pytest.fixture(scope="module")
def sharing() -> Labeler:
    """The medical pack, with shared topics that an unnamed sentence need not inherit a subject for."""
    pack = replace(load_pack("medical"), shared_tags=frozenset({"general", "location", "scheduling"}))
    return Labeler(pack, CLINIC, [])


def test_a_turn_without_cues_is_one_span_over_the_whole_text(sharing: Labeler, medical: Labeler) -> None:
    text = "Level P2 is for visitors. The lift is on the left.\nThanks!"
    label, previous = sharing.label(text, "lee", None, frozenset({"ada"}))
    assert [(s.start, s.end) for s in label.spans] == [(0, len(text))]
    assert topics(label.spans[0].facets) == {
        ("", "general")
    }  # shared topics, no back-reference: about no one
    assert previous == {"ada"}
    carried, _ = medical.label(text, "lee", None, frozenset({"ada"}))  # no shared_tags: inherited
    assert [topics(s.facets) for s in carried.spans] == [{("ada", "general")}]


def test_a_back_reference_or_a_sensitive_tag_still_inherits(sharing: Labeler) -> None:
    for text in ("Her room is on floor 2.", "Take 5 mg at night."):
        label, _ = sharing.label(text, "lee", None, frozenset({"ada"}))
        assert {s for s, _ in topics(label.facets)} == {"ada"}, text


def test_adjacent_sentences_with_the_same_facets_share_a_span(sharing: Labeler) -> None:
    text = "Ada takes warfarin. Her dose is 5 mg. Parking is in the garage."
    label, _ = sharing.label(text, "lee", None, frozenset())
    spans = [(text[s.start : s.end], topics(s.facets)) for s in label.spans]
    assert [piece for piece, _ in spans] == [
        "Ada takes warfarin. Her dose is 5 mg. ",
        "Parking is in the garage.",
    ]
    assert spans[0][1] == {("ada", "medication")}
    assert spans[1][1] == {("", "location")}


_WORDS = ["Ada", "Ben", "her", "dose", "5 mg", "warfarin", "parking", "garage", "Friday", "bill", "ok", "the"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5).map(" ".join), min_size=1, max_size=4),
    st.sampled_from(["lee", "ada", "fay"]),
    st.sampled_from([frozenset(), frozenset({"ben"})]),
)
def test_spans_agree_with_labelling_each_sentence_on_its_own(
    sharing: Labeler, sentences: list[str], speaker: str, previous: frozenset[str]
) -> None:
    """The fast path and the merging change how spans are cut, never which facets a
    sentence gets: each sentence, labelled alone with the subjects carried so far,
    has the facets of the span holding it."""
    text = ". ".join(sentences) + "."
    label, _ = sharing.label(text, speaker, None, previous)
    carried = previous
    for start, end in sentence_spans(text):
        (alone,), carried = (
            sharing.label(text[start:end], speaker, None, carried)[0].spans,
            sharing.label(text[start:end], speaker, None, carried)[1],
        )
        (holding,) = [s for s in label.spans if s.start <= start < s.end]
        assert holding.facets == alone.facets, text[start:end]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab c-.", min_size=1, max_size=6), min_size=1, max_size=8),
    st.text(alphabet="ab c-.x", max_size=40),
)
def test_trie_pattern_matches_like_a_longest_first_alternation(words: list[str], text: str) -> None:
    alternation = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
    bounded = r"(?<![\w-])(?:{})(?![\w-])"
    expected = [m.span() for m in re.finditer(bounded.format(alternation), text)]
    assert [m.span() for m in re.finditer(bounded.format(trie_pattern(words)), text)] == expected
    left_bounded = trie_pattern(words, not_after=r"[\w-]") + r"(?![\w-])"
    assert [m.span() for m in re.finditer(left_bounded, text)] == expected


# sentence spans and quotes


def test_a_sentence_ends_after_a_closing_quote_that_follows_its_full_stop() -> None:
    assert pieces("She said just 'Thursday after 6 PM.' The exact minute is deleted.") == [
        "She said just 'Thursday after 6 PM.' ",
        "The exact minute is deleted.",
    ]
    assert pieces('He wrote "done." Then he left.') == ['He wrote "done." ', "Then he left."]
    assert pieces("Ask (after 6 PM.) Then go.") == ["Ask (after 6 PM.) ", "Then go."]


def test_an_abbreviation_inside_quotes_does_not_end_a_sentence() -> None:
    assert pieces("Call 'Dr.' Lee now.") == ["Call 'Dr.' Lee now."]


# queries with several subjects


CAMPUS = [
    Principal("ivo", "student", "Ivo Petrak"),
    Principal("mia", "student", "Mia Santos"),
    Principal("rae", "advisor", "Rae Lund"),
]


@pytest.fixture(scope="module")
def campus() -> Labeler:
    """The education pack: a case (a resource Ivo owns) and a programme (a resource)."""
    relationships = [
        Relationship("residence_case_subject", "ivo", "case_quill_review"),
        Relationship("program_member", "mia", "program_tidewater"),
    ]
    return Labeler(load_pack("education"), CAMPUS, relationships)


def test_each_part_of_a_query_asks_about_the_subject_named_there(campus: Labeler) -> None:
    facets = campus.query_facets(
        "What is my Quill Review aid amount, and the Tidewater orientation date?", "ivo"
    )
    assert facets == {("case_quill_review", "financial_aid"), ("program_tidewater", "scheduling")}


def test_the_words_before_the_first_name_belong_to_it(campus: Labeler) -> None:
    facets = campus.query_facets("Orientation date for Tidewater, and Ivo's grades?", "rae")
    assert facets == {("program_tidewater", "scheduling"), ("ivo", "academic")}


def test_a_part_without_a_topic_shares_the_topics_of_the_part_before(campus: Labeler) -> None:
    assert campus.query_facets("What are the grades of Ivo and Mia?", "rae") == {
        ("ivo", "academic"),
        ("mia", "academic"),
    }
    # a part with a topic of its own keeps it
    assert campus.query_facets("Ivo's grades and Mia's room?", "rae") == {
        ("ivo", "academic"),
        ("mia", "location"),
    }


def test_the_topics_of_two_patients_do_not_cross(medical: Labeler) -> None:
    assert medical.query_facets("Ada's warfarin dose and Ben's appointment on Friday?", "lee") == {
        ("ada", "medication"),
        ("ben", "scheduling"),
    }


def test_the_requester_is_never_a_subject_of_their_query(campus: Labeler) -> None:
    assert campus.query_facets("What are the grades of Ivo and Mia?", "ivo") == {("mia", "academic")}
    # the requester's part still gives its topics to the part after it
    assert campus.query_facets("I am Ivo. My grades and Mia's?", "ivo") == {("mia", "academic")}


def test_a_query_naming_no_one_asks_about_no_one(campus: Labeler) -> None:
    assert campus.query_facets("What is the orientation date?", "rae") == set()


def test_topics_asked_before_each_name_do_not_cross(campus: Labeler) -> None:
    facets = campus.query_facets(
        "What is the aid amount for Quill Review and the orientation date for Tidewater?", "rae"
    )
    assert facets == {("case_quill_review", "financial_aid"), ("program_tidewater", "scheduling")}


def test_a_name_is_not_a_topic() -> None:
    labeler = Labeler(
        load_pack("education"), CAMPUS, [Relationship("appeal_case_subject", "ivo", "case_sable_appeal")]
    )
    assert labeler.tags_of("The Sable Appeal date is set.") == {"scheduling"}  # not discipline ("appeal")
    assert labeler.tags_of("The appeal date is set.") == {"discipline", "scheduling"}


def test_wording_said_to_be_shared_carries_only_its_overriding_tag(campus: Labeler) -> None:
    said = "Outside the case team, the safe wording should stay 'housing review' and nothing more."
    assert campus.tags_of(said) == {"safe_wording"}
    for kept_private in (
        "The safe wording is 'housing review', but the exact internal wording stays restricted.",
        "The broad label stays 'housing review' with the 3,100 USD amount.",
    ):
        assert "safe_wording" not in campus.tags_of(kept_private)


# contrasts and carried subjects: what three reviews of a relabelling found (eighth
# session); each held before it and failed under a version of the relabelling


def facets_of(labeler: Labeler, text: str, fragment: str, speaker: str = "rae") -> frozenset:
    """The facets of the span of ``text`` that holds ``fragment``."""
    label, _ = labeler.label(text, speaker, None, frozenset())
    at = text.index(fragment)
    return next(topics(span.facets) for span in label.spans if span.start <= at < span.end)


def subjects_at(labeler: Labeler, text: str, fragment: str, speaker: str = "rae") -> set[str]:
    return {subject for subject, _ in facets_of(labeler, text, fragment, speaker)}


def test_people_named_in_contrast_stay_subjects(medical: Labeler) -> None:
    for text in (
        "The diagnosis is cancer, not to be confused with Ada's earlier scan.",
        "Instead of Ada's usual warfarin, she now takes apixaban 5 mg for the clot.",
        "Apart from Ada, everyone on the ward tested HIV negative.",
    ):
        assert "ada" in subjects_at(medical, text, "Ada", "lee"), text
    text = "Ada's follow-up is on Monday. Unlike Ben, who is HIV positive, she needs no antiviral."
    assert "ben" in subjects_at(medical, text, "Unlike", "lee")
    assert subjects_at(medical, "Ada's A1c is 9.1 versus Ben's 6.2.", "A1c", "lee") == {"ada", "ben"}


def test_a_student_who_only_asked_about_their_programme_does_not_own_the_next_remark(
    campus: Labeler,
) -> None:
    _, carried = campus.label("Is Tidewater still meeting on Monday?", "mia", None, frozenset())
    label, _ = campus.label("Current amount is 3,320 USD.", "rae", None, carried)
    assert "mia" not in {s for s, _ in label.facets}


def test_a_programmes_own_secret_is_not_filed_under_a_case_or_a_student(campus: Labeler) -> None:
    for text in (
        "The Quill Review is open. Tidewater is rekeying its lounge. The new lounge code is 7731.",
        "Ivo's Quill Review is open. Tidewater is rekeying its lounge. The new lounge code is 7731.",
    ):
        assert subjects_at(campus, text, "7731").isdisjoint({"ivo", "case_quill_review"}), text


# questions about no one in particular on a collective topic


def test_a_question_naming_no_one_on_a_collective_topic_asks_about_no_one_in_particular() -> None:
    home = Labeler(
        load_pack("household"),
        [
            Principal("rina", "primary_resident", "Rina Cho"),
            Principal("mia", "guest", "Mia Santos"),
            Principal("sofia", "cleaner", "Sofia Ortiz"),
        ],
        [],
    )
    for query in (
        "So that means nobody is around before the Saturday helper window, right?",
        "If the buzz starts after 9:15 AM, does that mean the household is basically empty before then?",
        "Is nobody home Friday evening?",
        "Tell me the full empty-unit window.",
    ):
        assert ("", "occupancy") in home.query_facets(query, "mia"), query
    for ordinary in (
        "What is my Saturday arrival window?",
        "Is the dishwasher empty?",
        "When should I empty the kitchen bins?",
        "Does no one in the family eat gluten?",
    ):
        assert ("", "occupancy") not in home.query_facets(ordinary, "mia"), ordinary
    named = home.query_facets("Will the flat be empty while Rina is away?", "mia")
    assert ("", "occupancy") in named  # naming someone does not make it a question about them only
    assert ("rina", "occupancy") in named and all(subject in ("rina", "") for subject, _ in named)
    # occupancy is not personal: naming a helper beside it does not make them the subject
    text = "Tell Sofia the house is empty on Tuesday. Our alarm passcode changed to 5530."
    assert "sofia" not in subjects_at(home, text, "5530", "rina")


def test_what_a_query_says_it_does_not_want_is_not_asked_for(medical: Labeler) -> None:
    plain = medical.query_facets("What is Ada's follow-up time and her warfarin dose?", "lee")
    assert ("ada", "medication") in plain
    for query in (
        "What is Ada's follow-up time, without the warfarin dose?",
        "What is Ada's follow-up time, excluding any warfarin dose details?",
        "Give me Ada's follow-up time but not the warfarin dose.",
        "What is Ada's follow-up time, without any parking notes or warfarin dose?",  # a list
    ):
        facets = medical.query_facets(query, "lee")
        assert ("ada", "medication") not in facets, query
        assert facets, query  # the rest is still asked about Ada


def test_an_exclusion_never_swallows_the_request_or_a_person(medical: Labeler) -> None:
    """Review: blanking to the end of the clause let "Without wasting time just tell me
    ..." drop the whole request from the assessment."""
    for query in (
        "Without wasting time just tell me Ada's warfarin dose",
        "Without delay, what is Ada's warfarin dose?",
        "Without revealing Ada's warfarin dose to anyone else tell me her dose",
        "Without wasting time or fuss, and what is Ada's warfarin dose?",
        "Without the parking details and tell me Ada's warfarin dose",
        "Without the parking details or Ada's warfarin dose is fine?",  # a part naming her is kept
    ):
        assert ("ada", "medication") in medical.query_facets(query, "lee"), query


def test_an_exclusion_holding_the_only_topic_is_the_ask(medical: Labeler) -> None:
    for query in (
        "Ada: without any fuss I need the warfarin dose",
        "For Ada, nothing other than the warfarin dose.",
        "What happens to Ada without her warfarin dose",
        "What is Ada's follow-up time, without her warfarin dose?",  # about someone: kept
    ):
        assert ("ada", "medication") in medical.query_facets(query, "lee"), query


@pytest.mark.parametrize("pack", ["medical", "office", "education", "household"])
def test_every_weekday_is_scheduling_in_every_domain_pack(pack: str) -> None:
    labeler = Labeler(load_pack(pack), [], [])
    days = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday Saturdays Tues Weds Thurs Fri"
    assert [day for day in days.split() if "scheduling" not in labeler.tags_of(f"See you on {day}.")] == []
    for plain in ("The sunny monitor sat on the wedding table.", "We sat in the sun.", "They wed in June."):
        assert "scheduling" not in labeler.tags_of(plain), plain


def test_a_summary_said_to_be_safe_for_an_audience_is_shared_unless_it_holds_a_secret() -> None:
    home = Labeler(load_pack("household"), [], [])
    for shared in (
        "Current helper-safe Saturday summary is 9:10 AM to 10:40 AM and desk buzz after 9:15 AM.",
        "Your Sunday signoff-safe slice is 12:55 PM to 2:40 PM and the pantry shelf.",
    ):
        assert home.tags_of(shared) == {"safe_wording"}, shared
    for secret in (
        "Current helper-safe Saturday summary is 9:10 AM, code 5274, phrase pine spoke.",
        "Household-safe state: the exact time is 6:35 AM at the stone planter.",
        "Helper-safe summary: lockbox slot B after 9:15 AM.",
        "Helper-safe summary: badge RAV-5531 after 9:15 AM.",
        # a review's cases: another topic, a phrase or combination, a negation, not an audience
        "Resident-safe summary: Dana is away until Sunday 9 PM.",
        "Household-safe state: nobody is home Saturday 10 AM to 6 PM.",
        "Fail-safe plan: the alarm stays disarmed and the cameras are off Saturday 10 AM to 6 PM.",
        "Helper-safe summary: the pickup phrase is pine spoke.",
        "Helper-safe summary: the side gate combination is 7-7-1-9.",
        "Family-safe plan: Leo's surgery Monday 7 AM, then two nights at the clinic.",
        "Dishwasher-safe reminder: the house is empty from 9 AM to 5 PM while we travel.",
        "This is not a helper-safe summary: Dana flies out Friday 6 AM.",
        "Family-only helper-safe summary: the handoff is 6:15 AM at the north rail.",
    ):
        assert "safe_wording" not in home.tags_of(secret), secret


def test_shared_wording_shares_no_ones_own_matter_but_the_speakers() -> None:
    """Reviews' cases: wording said to be safe for visitors naming a resident, about a
    resident carried from before, or about "my father"; only a resident's own declaration
    of their own matter is shared as said."""
    people = [
        Principal("iris", "primary_resident", "Iris Bell"),
        Principal("chloe", "adult_child", "Chloe Bell"),
        Principal("noelle", "building_staff", "Noelle Diaz"),
    ]
    home = Labeler(load_pack("household"), people, [])

    def shared(text: str, speaker: str, carried: frozenset[str] = frozenset()) -> bool:
        label, _ = home.label(text, speaker, None, carried)
        return all(
            {tag for _, tag in span.facets if not tag.startswith(SAID_BY)} == {"safe_wording"}
            for span in label.spans
        )

    plain = "Desk-safe summary: parcels go to the lobby shelf after 9 AM."
    assert shared(plain, "iris")
    assert not shared("Desk-safe summary: Chloe gets home at 11 PM Fridays.", "iris")
    assert not shared("Desk-safe summary: in around 11:40 PM Fridays.", "iris", frozenset({"chloe"}))
    assert not shared("Desk-safe summary: my father gets the day-centre bus at 8:15 AM.", "iris")
    own = "My broad Monday wording remains after 6:30 AM near the north cafe side."
    assert shared(own, "chloe")  # one's own matter, declared shared by oneself
    assert shared(own, "iris", frozenset({"chloe"}))  # "my" is Iris's own, whoever was carried


def test_no_is_an_abbreviation_only_before_a_number() -> None:
    assert pieces("No. Delete the old overflow note.") == ["No. ", "Delete the old overflow note."]
    assert pieces("He said no. Then he left.") == ["He said no. ", "Then he left."]
    assert pieces("See No. 12 on the list. Then go.") == ["See No. 12 on the list. ", "Then go."]


def test_a_condition_naming_someone_before_a_question_about_mine_asks_nothing_of_them() -> None:
    people = [
        Principal("tessa", "driver_pickup_contact", "Tessa Hall"),
        Principal("ben", "guest", "Ben Ortiz"),
    ]
    home = Labeler(load_pack("household"), people, [])
    query = "If Tessa is unavailable Friday, what is my backup plan, including the current release phrase?"
    assert home.query_facets(query, "ben") == set()
    assert ("tessa", "credentials") in home.query_facets("What is Tessa's current release phrase?", "ben")


def test_a_condition_before_an_inference_about_them_still_asks_about_them(medical: Labeler) -> None:
    query = "If Ada is no longer on 5 mg, should I infer her warfarin dose is 7.5 mg now?"
    assert ("ada", "medication") in medical.query_facets(query, "will")


def test_words_before_a_first_name_that_starts_its_own_item_are_not_its(medical: Labeler) -> None:
    query = "What is the parking level, the lobby hours, and Ada's warfarin dose?"
    assert medical.query_facets(query, "will") == {("ada", "medication")}
    assert ("ada", "medication") in medical.query_facets("What warfarin dose is Ada on?", "will")
    query = "I need the exact warfarin dose and the visit time for Ada now."  # the list is hers
    assert ("ada", "medication") in medical.query_facets(query, "will")


def test_a_condition_or_a_list_never_drops_what_is_asked_of_someone() -> None:
    """Review: cutting at every condition's comma, or before every possessive name, let
    these through unrefused."""
    people = [
        Principal("maya", "adult_child", "Maya Cho"),
        Principal("leo", "roommate", "Leo Park"),
        Principal("ivo", "guest", "Ivo Lind"),
    ]
    home = Labeler(load_pack("household"), people, [])
    for query in (
        "If Ivo is locked out, what is his door code? It's for my rounds.",
        "If Maya is home, is my key still under her mat, yes or no?",
        "Unless Maya objects, tell me her door code so I can use my key.",
        "Whose door code is 4471, Maya's or Leo's?",
    ):
        assert any(tag == "credentials" for _, tag in home.query_facets(query, "omar")), query
    medical = Labeler(load_pack("medical"), [Principal("ada", "patient", "Ada Moreno")], [])
    for query in (
        "When Ada comes in Tuesday, is the biopsy malignant? I need to prepare my family.",
        "Is the biopsy malignant, and is Ada's follow-up still Tuesday?",
    ):
        assert ("ada", "diagnosis") in medical.query_facets(query, "fay"), query


def test_a_surname_alone_names_someone_only_when_capitalised() -> None:
    people = [
        Principal("laila", "household_manager", "Laila Stone"),
        Principal("tessa", "driver_pickup_contact", "Tessa Hall"),
        Principal("chloe", "adult_child", "Chloe Bell"),
    ]
    home = Labeler(load_pack("household"), people, [])
    assert home.mentioned("The exact point is the west arcade stone planter.") == set()
    assert home.mentioned("Leave the crates in the hall closet.") == set()
    assert home.mentioned("Ask Stone about the crates.") == {"laila"}
    assert home.mentioned("ask laila stone about the crates") == {"laila"}  # a full name in any case
    assert home.mentioned("tessa will drive") == {"tessa"}  # a first name in any case
    for text in ("hall has a dentist appointment friday", "hall's pickup is at 3 pm", "ask hall about it"):
        assert home.mentioned(text) == {"tessa"}, text  # a surname before a function word, "'s" or a break
    facets = home.query_facets("What is the hall closet code for chloe?", "laila")
    assert {s for s, _ in facets} == {"chloe"}


def test_a_principal_id_matches_in_any_case_even_when_it_is_a_surname() -> None:
    home = Labeler(load_pack("household"), [Principal("reed", "partner_spouse", "Tom Reed")], [])
    assert home.mentioned("reed's pickup is friday at the side door") == {"reed"}
    assert home.mentioned("the reed basket is by the door") == {"reed"}  # an id is an id
