"""Policy packs: parsing, the errors that name the problem, and the built-in packs."""

from __future__ import annotations

from pathlib import Path

import pytest

from govmem.errors import PolicyError
from govmem.governance.policy_pack import BUILTIN_PACKS, GENERAL, load_pack, parse_pack

MINIMAL = """
name = "tiny"
subject_roles = ["patient"]
personal_tags = ["pay"]
unnamed_subject = ["speaker", "previous"]

[tags]
pay = ['\\bsalary\\b', '\\bbonus\\b']
meds = ['\\bwarfarin\\b']

[kind_tags]
medication_update = ["meds"]

[scope_words]
payroll = ["pay", "general"]

[[rules]]
id = "own"
requester = "subject"
tags = ["*"]

[[rules]]
id = "hr-pay"
roles = ["hr"]
about_roles = ["employee"]
tags = ["pay"]

[[rules]]
id = "no-meds-for-interns"
effect = "deny"
roles = ["intern"]
relationship = ["mentor_*"]
tags = ["meds"]
"""


def pack_with(extra_rule: str = "", header: str = "", tags: str = "") -> str:
    """A valid pack, with ``extra_rule`` appended and ``header``/``tags`` lines added."""
    return (
        f"name = \"p\"\n{header}\n[tags]\nmeds = ['warfarin']\n{tags}\n"
        f'[[rules]]\nid = "base"\ntags = ["meds"]\n{extra_rule}'
    )


def test_minimal_pack_parses_every_field() -> None:
    pack = parse_pack(MINIMAL, "tiny.toml")
    assert pack.name == "tiny"
    assert pack.source == "tiny.toml"
    assert pack.tags == {"pay", "meds", GENERAL}
    assert pack.subject_roles == {"patient"}
    assert pack.personal_tags == {"pay"}
    assert pack.unnamed_subject == ("speaker", "previous")
    assert pack.kind_tags == {"medication_update": {"meds"}}
    assert pack.tag_patterns["pay"].search("Her SALARY rose")  # case-insensitive
    assert not pack.tag_patterns["pay"].search("salaryman")
    own, hr, deny = pack.rules
    assert (own.rule_id, own.effect, own.requester_is_subject, own.covers_tag("pay")) == (
        "own",
        "allow",
        True,
        True,
    )
    # about_roles implies the rule is about principals
    assert (hr.roles, hr.about, hr.about_roles) == ({"hr"}, "principal", {"employee"})
    assert not hr.covers_tag("meds")
    assert deny.effect == "deny"
    assert deny.names_relationship("mentor_of") and not deny.names_relationship("tutor_of")


def test_scope_words_map_a_scope_attribute_to_tags() -> None:
    pack = parse_pack(MINIMAL)
    assert pack.scope_tags("Payroll_only") == {"pay", "general"}
    assert pack.scope_tags("full access") is None


def test_roles_star_means_any_role() -> None:
    pack = parse_pack(pack_with('[[rules]]\nid = "x"\nroles = ["*"]\ntags = ["meds"]\n'))
    assert pack.rules[1].roles is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name = 'p'\n[[rules]]\nid = \n", "not valid TOML"),
        (pack_with(header="colour = 'red'"), "unknown key 'colour'"),
        (pack_with('[[rules]]\nid = "x"\ntags = ["meds"]\nwho = "me"\n'), "rule 'x': unknown key 'who'"),
        (pack_with(tags="bad = ['(unclosed']"), "tags.bad has a bad regular expression"),
        (pack_with('[[rules]]\nid = "x"\ntags = ["billing"]\n'), "names tag 'billing'"),
        (pack_with('[[rules]]\nid = "base"\ntags = ["meds"]\n'), "rule id 'base' is used twice"),
        (pack_with('[[rules]]\nid = "x"\neffect = "maybe"\ntags = ["meds"]\n'), "effect must be 'allow' or"),
        (pack_with('[[rules]]\nid = "x"\nroles = ["nurse"]\n'), "rule 'x': 'tags' is required"),
        (pack_with('[[rules]]\nid = "x"\nrequester = "me"\ntags = ["meds"]\n'), "requester must be"),
        (pack_with('[[rules]]\nid = "x"\nabout = "them"\ntags = ["meds"]\n'), "about must be one of"),
        (pack_with('[[rules]]\ntags = ["meds"]\n'), "a rule without an 'id'"),
        (pack_with(header="unnamed_subject = ['guess']"), "unnamed_subject 'guess' is not one of"),
        (pack_with(header="personal_tags = ['pay']"), "personal_tags names tag 'pay'"),
        (pack_with(tags="general = ['x']"), "tag 'general' is implicit"),
        (pack_with(tags="[kind_tags]\nnote = ['nope']"), "kind_tags.note names tag 'nope'"),
        (pack_with(tags="[scope_words]\nonly = ['nope']"), "scope_words.only names tag 'nope'"),
        (pack_with(tags="[subsumed_tags]\nmeds = ['nope']"), "subsumed_tags.meds names tag 'nope'"),
        (pack_with(tags="[subsumed_tags]\nnope = ['meds']"), "subsumed_tags names unknown tag 'nope'"),
        (pack_with(tags="[separable_tags]\nmeds = ['nope']"), "separable_tags.meds names tag 'nope'"),
        (pack_with(tags="[separable_tags]\nnope = ['meds']"), "separable_tags names unknown tag 'nope'"),
        (pack_with('[[rules]]\nid = "x"\nthrough_scope = true\ntags = ["meds"]\n'), "through_scope needs a"),
        (
            pack_with('[[rules]]\nid = "x"\nrelationship = ["d"]\nthrough_scope = 1\ntags = ["meds"]\n'),
            "must be true",
        ),
        (pack_with(header="scope_things = 'yes'"), "'scope_things' must be true or false"),
        (pack_with(header="questions_about_subjects = ['nope']"), "questions_about_subjects"),
        (
            pack_with(tags="[qualified_subjects]\nprivate = 'case'"),
            "qualified_subjects.private is 'case', not one of 'owned resource', 'resource'",
        ),
        (
            pack_with(tags="[qualified_subjects]\n'for staff' = 'resource'"),
            "qualified_subjects key 'for staff' is not a single word",
        ),
        ("name = 'p'\n[tags]\nmeds = ['x']\n", "needs at least one [[rules]] entry"),
        ("[[rules]]\nid = 'x'\ntags = ['*']\n", "'name' must be a non-empty string"),
        (pack_with(tags="pay = 'salary'"), "'tags.pay' must be a list of non-empty strings"),
    ],
)
def test_parse_errors_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(PolicyError) as raised:
        parse_pack(text, "my.toml")
    message = str(raised.value)
    assert message.startswith("my.toml")
    assert problem in message


def test_the_base_pack_of_the_error_cases_is_valid() -> None:
    """Guards the table above: each case fails for its own defect, not a broken base."""
    assert [r.rule_id for r in parse_pack(pack_with()).rules] == ["base"]


@pytest.mark.parametrize("name", BUILTIN_PACKS)
def test_every_builtin_pack_loads(name: str) -> None:
    pack = load_pack(name)
    assert pack.name == name
    assert pack.rules
    assert any(r.requester_is_subject for r in pack.rules)  # everyone reads their own information
    for rule in pack.rules:
        assert rule.tags <= pack.tags | {"*"}


def test_domain_packs_cover_the_issue_domains() -> None:
    assert {"medical", "office", "education", "household", "default"} <= set(BUILTIN_PACKS)
    assert "medication" in load_pack("medical").tags
    assert "compensation" in load_pack("office").tags
    assert "academic" in load_pack("education").tags
    assert "credentials" in load_pack("household").tags


def test_default_pack_is_strict() -> None:
    (rule,) = load_pack("default").rules
    assert rule.requester_is_subject and rule.effect == "allow"


def test_load_pack_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(MINIMAL, encoding="utf-8")
    pack = load_pack(str(path))
    assert pack.name == "tiny"
    assert pack.source == str(path)


def test_load_pack_unknown_name_lists_the_builtins(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match=r"no policy pack 'clinic'.*default, medical"):
        load_pack("clinic")
    with pytest.raises(PolicyError, match="no policy pack"):
        load_pack(str(tmp_path))  # a directory is not a pack file


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(pack_with('[[rules]]\nid = "x"\ntags = ["billing"]\n'), encoding="utf-8")
    with pytest.raises(PolicyError, match=r"broken\.toml: rule 'x': tags names tag 'billing'"):
        load_pack(str(path))


def test_owner_relationships_are_glob_patterns() -> None:
    pack = parse_pack(pack_with(header="owner_relationships = ['*_case_subject', 'owner_of']"))
    assert pack.owner_relationships == ("*_case_subject", "owner_of")
    assert pack.is_ownership("residence_case_subject")
    assert pack.is_ownership("owner_of")
    assert not pack.is_ownership("case_subject_of")
    assert not pack.is_ownership("advisor_for")


def test_a_pack_without_owner_relationships_owns_nothing() -> None:
    pack = parse_pack(pack_with())
    assert pack.owner_relationships == ()
    assert not pack.is_ownership("residence_case_subject")


@pytest.mark.parametrize("value", ["'*_case_subject'", "[1]", "['']"])
def test_owner_relationships_must_be_a_list_of_strings(value: str) -> None:
    with pytest.raises(
        PolicyError, match=r"my\.toml: 'owner_relationships' must be a list of non-empty strings"
    ):
        parse_pack(pack_with(header=f"owner_relationships = {value}"), "my.toml")


def test_a_misspelt_owner_relationships_key_is_still_unknown() -> None:
    with pytest.raises(PolicyError, match="unknown key 'owner_relationship'"):
        parse_pack(pack_with(header="owner_relationship = ['*_case_subject']"), "my.toml")


def test_the_education_pack_makes_a_case_its_students() -> None:
    pack = load_pack("education")
    assert pack.is_ownership("residence_case_subject")
    assert not pack.is_ownership("parent_of")


def test_pressure_tags_are_tags_of_the_pack() -> None:
    assert parse_pack(pack_with(header="pressure_tags = ['general']")).pressure_tags == {"general"}
    with pytest.raises(PolicyError, match="pressure_tags"):
        parse_pack(pack_with(header="pressure_tags = ['nosuchtag']"))


def test_collective_tags_are_tags_of_the_pack() -> None:
    assert parse_pack(pack_with(header="collective_tags = ['general']")).collective_tags == {"general"}
    assert parse_pack(pack_with()).collective_tags == frozenset()
    with pytest.raises(PolicyError, match="collective_tags"):
        parse_pack(pack_with(header="collective_tags = ['nosuchtag']"))


def test_a_negated_scope_word_allows_nothing() -> None:
    medical = load_pack("medical")
    assert medical.scope_tags("scheduling_only_no_anticoagulation_or_dose_changes") == {
        "scheduling",
        "general",
    }
    assert medical.scope_tags("weekend anticoagulation and bleeding questions only") == {
        "medication",
        "clinical",
    }


def test_questions_about_subjects_is_off_unless_a_pack_says_so() -> None:
    assert parse_pack(pack_with()).questions_about_subjects == frozenset()
    pack = parse_pack(pack_with(header="questions_about_subjects = ['meds']"))
    assert pack.questions_about_subjects == {"meds"}
    assert "diagnosis" in load_pack("medical").questions_about_subjects
    assert load_pack("household").questions_about_subjects == frozenset()


def test_qualified_subjects_name_a_kind_of_resource() -> None:
    pack = parse_pack(pack_with(tags="[qualified_subjects]\nPrivate = 'owned resource'\npublic = 'resource'"))
    assert pack.qualified_subjects == {"private": "owned resource", "public": "resource"}
    assert parse_pack(pack_with()).qualified_subjects == {}


def test_unnamed_subject_rules_may_be_given_in_any_order() -> None:
    pack = parse_pack(pack_with(header="unnamed_subject = ['self', 'previous', 'speaker']"))
    assert pack.unnamed_subject == ("self", "previous", "speaker")


def test_scope_things_are_the_word_pairs_of_a_scope() -> None:
    from govmem.governance.policy_pack import scope_things
    from govmem.models import Relationship

    helper = Relationship(
        "guest_of_resident", "noah", "", {"access_scope": "saturday_apricot_archive_helper_only"}
    )
    assert {"apricot_archive", "saturday_apricot"} <= scope_things(helper)
    assert "helper_only" not in scope_things(helper)
    assert scope_things(Relationship("household_member", "mara", "home")) == frozenset()
    assert parse_pack(pack_with(header="scope_things = true")).scope_things


def test_separable_tags_map_a_tag_to_the_tags_a_clause_may_have() -> None:
    pack = parse_pack(pack_with(tags="[separable_tags]\nmeds = ['meds']"))
    assert pack.separable_tags == {"meds": frozenset({"meds"})}
    assert parse_pack(pack_with()).separable_tags == {}
    assert load_pack("household").separable_tags == {"credentials": frozenset({"scheduling"})}
